/**
 * Token lifetimes from the service's table. On 2020-12-01 the refresh token changed: before,
 * 1 year (14 days for the first one issued right after authorization); from then, 30 days.
 */
export const TOKEN_FORMAT_SWITCH = Date.UTC(2020, 11, 1);
const DAY_MS = 24 * 60 * 60 * 1000;

export function refreshTokenLifetimeMs(input: {
  serviceTime: Date;
  firstAfterAuthorization: boolean;
}): number {
  if (input.serviceTime.getTime() >= TOKEN_FORMAT_SWITCH) return 30 * DAY_MS;
  return input.firstAfterAuthorization ? 14 * DAY_MS : 365 * DAY_MS;
}

/** Refresh this long before the access token expires, so no request uses it at the edge. */
export const ACCESS_TOKEN_REFRESH_MARGIN_MS = 60 * 1000;

/**
 * Warn the manager this long before the refresh token (and so the connection) runs out: a week,
 * so that someone who is away for a few days still hears of it (issue 16 asks notifications to
 * say so 7 days ahead, and the banner, needs attention and the incident keep one rule).
 */
export const REFRESH_TOKEN_WARNING_MS = 7 * DAY_MS;

export function isJwt(token: string): boolean {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || signature === undefined || token.split('.').length !== 3) return false;
  try {
    const decoded = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    return typeof decoded === 'object' && decoded !== null && 'alg' in decoded;
  } catch {
    return false;
  }
}
