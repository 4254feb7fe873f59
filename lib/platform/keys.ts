import { hkdfSync } from 'node:crypto';

/**
 * Keys for one purpose each, derived from AUTH_SECRET with HKDF-SHA-256 (RFC 5869). A cookie
 * sealed or signed for one purpose then never verifies as another's, and none is the secret
 * next-auth's sessions use (next-auth derives its own key from it, with its own label).
 */
export type KeyPurpose =
  | 'oauth-flow-cookie'
  | 'device-cookie'
  | 'sso-invitation-cookie'
  | 'redirect-notice';

const SALT = 'setpoint';
const derived = new Map<string, string>();

/** 32 bytes as 64 hex characters: iron-session's passwords must be at least 32 characters. */
export function derivedKey(secret: string, purpose: KeyPurpose): string {
  const cacheKey = `${purpose}\u0000${secret}`;
  let key = derived.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, SALT, `setpoint ${purpose} v1`, 32)).toString(
      'hex',
    );
    derived.set(cacheKey, key);
  }
  return key;
}
