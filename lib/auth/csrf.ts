import { createHash, randomBytes } from 'node:crypto';

/**
 * next-auth's double-submit CSRF cookie, made here so the sign-in page can be a plain HTML form
 * posting straight to next-auth (it then works without JavaScript): the proxy sets the cookie
 * when the browser has none, and the page puts its token in a hidden field. The format is
 * next-auth v4's (`<token>|sha256(<token><secret>)`, httpOnly, SameSite=Lax, host-only); a test
 * checks the cookie against next-auth's own verification.
 */
/** The request header the proxy hands the sign-in page its token in. */
export const CSRF_HEADER = 'x-setpoint-auth-csrf';

export function csrfCookieName(secure: boolean): string {
  return `${secure ? '__Host-' : ''}next-auth.csrf-token`;
}

export function createCsrfCookie(secret: string): { token: string; value: string } {
  const token = randomBytes(32).toString('hex');
  return { token, value: `${token}|${hashOf(token, secret)}` };
}

/** The token of a cookie that next-auth will accept, or null (missing, forged, another secret). */
export function csrfTokenOf(value: string | undefined, secret: string): string | null {
  const [token, hash] = value?.split('|') ?? [];
  if (!token || !hash || !/^[0-9a-f]{64}$/.test(token)) return null;
  return hash === hashOf(token, secret) ? token : null;
}

const hashOf = (token: string, secret: string) =>
  createHash('sha256').update(`${token}${secret}`).digest('hex');
