/**
 * The notice an address carries (`?notice=`, lib/platform/notice.ts), by its key, or null. Its
 * value is signed, not sealed: a spec reads which notice an action sent without the secret,
 * and checks its words on the page.
 */
export function noticeKeyOf(address: string | null | undefined): string | null {
  if (!address) return null;
  const value = new URL(address, 'http://setpoint.invalid').searchParams.get('notice');
  const payload = value?.split('.')[0];
  if (!payload) return null;
  try {
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      k?: unknown;
    };
    return typeof decoded.k === 'string' ? decoded.k : null;
  } catch {
    return null;
  }
}
