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
    const path = `${url.pathname}${url.search}${url.hash}`;
    // Normalising folds dot segments (`/.//evil.example` becomes `//evil.example`): check again.
    return path.startsWith('//') || path.startsWith('/\\') ? '/' : path;
  } catch {
    return '/';
  }
}
