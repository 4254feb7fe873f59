/**
 * A same-origin path to return to after sign-in or an authorization round trip. Anything else
 * (absolute URLs, protocol-relative `//host`, backslash tricks, control characters) becomes `/`.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) return '/';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we reject.
  if (!value.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(value)) return '/';
  if (value.startsWith('//')) return '/';
  try {
    const url = new URL(value, 'http://setpoint.invalid');
    if (url.origin !== 'http://setpoint.invalid') return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}
