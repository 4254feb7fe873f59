import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '@/lib/platform/keys';

/**
 * OWASP's "device cookies": a browser that has signed in to an account carries a signed token
 * naming it. Sign-in attempts from that browser are limited per device instead of by the lock
 * that failures from everywhere put on the account, so someone who sprays an account from
 * many addresses slows the spray down without locking its owner out of their own browser.
 *
 * Value: `<device id>.<email, base64url>.<HMAC-SHA-256 of both>`, under a key derived from
 * AUTH_SECRET for this purpose alone. Sent only with the sign-in form (`/sign-in/submit`).
 */
export const DEVICE_COOKIE = 'setpoint_device';
export const DEVICE_COOKIE_PATH = '/sign-in';
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 60 * 60;

function signature(secret: string, id: string, email: string): Buffer {
  return createHmac('sha256', derivedKey(secret, 'device-cookie'))
    .update(`${id}\n${email.toLowerCase()}`)
    .digest();
}

/** A device cookie's value for `email`: a new device, or `id` again when the browser has one. */
export function deviceCookieValue(
  email: string,
  secret: string,
  id: string = randomBytes(18).toString('base64url'),
): string {
  const named = Buffer.from(email.toLowerCase()).toString('base64url');
  return `${id}.${named}.${signature(secret, id, email).toString('base64url')}`;
}

/** The device id of a cookie value that is genuine and names `email`; otherwise null. */
export function deviceOf(value: string | undefined, email: string, secret: string): string | null {
  const [id, named, signed, ...rest] = (value ?? '').split('.');
  if (!id || !named || !signed || rest.length > 0 || id.length > 64) return null;
  if (Buffer.from(named, 'base64url').toString() !== email.toLowerCase()) return null;
  const expected = signature(secret, id, email);
  const given = Buffer.from(signed, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
