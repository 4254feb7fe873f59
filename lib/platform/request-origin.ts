/**
 * Whether a state-changing request comes from this app's own pages. Browsers send `Origin` on
 * every POST; a request without one is not a browser's, so it carries no ambient cookies to
 * abuse (Next.js lets those through too). `null` (sandboxed frames, opaque redirects) is foreign.
 * The public URL's origin is ours, and so is the host the request was addressed to, as Next.js's
 * own server-action check has it. The proxy applies it to every write; route handlers that take
 * writes check it again themselves.
 */
export function fromOwnOrigin(headers: Headers, publicUrl: string): boolean {
  const origin = headers.get('origin');
  if (origin === null) return true;
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
