/** The cookies that carry a member's session (next-auth's, over https and over http). */
export const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

/** Whether a request's `Cookie` header carries a session. */
export function carriesSession(headers: Headers): boolean {
  const cookies = (headers.get('cookie') ?? '').split(';').map((part) => part.trim());
  // A large session is split in chunks: `<name>.0=`, `<name>.1=`…
  return cookies.some((cookie) =>
    SESSION_COOKIES.some((name) => cookie.startsWith(`${name}=`) || cookie.startsWith(`${name}.`)),
  );
}

/**
 * Whether a state-changing request comes from this app's own pages. Browsers send `Origin` on
 * every POST, and `Sec-Fetch-Site`; the public URL's origin is ours, and so is the host the
 * request was addressed to, as Next.js's own server-action check has it. `null` (sandboxed
 * frames, opaque redirects) is foreign. A request with no `Origin` is let through only when it
 * carries no session (so no ambient authority to abuse: Setpoint's API takes keys, never the
 * cookie) or says `Sec-Fetch-Site: same-origin`. The proxy applies it to every write; route
 * handlers that take writes check it again themselves.
 */
export function fromOwnOrigin(headers: Headers, publicUrl: string): boolean {
  const origin = headers.get('origin');
  if (origin === null) {
    return !carriesSession(headers) || headers.get('sec-fetch-site') === 'same-origin';
  }
  if (origin === new URL(publicUrl).origin) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const addressed = headers.get('x-forwarded-host') ?? headers.get('host');
  return host !== '' && host === addressed;
}
