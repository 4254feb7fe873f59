/**
 * The Content-Security-Policy of every page: scripts only with this request's nonce (Next.js
 * puts it on its own scripts), nothing inline, no framing, forms only to ourselves and to the
 * thermostat service (the connect form is redirected to its consent page).
 */
export function contentSecurityPolicy(input: {
  nonce: string;
  serviceOrigin: string;
  development: boolean;
}): string {
  const { nonce, serviceOrigin, development } = input;
  return [
    "default-src 'self'",
    // 'unsafe-eval' only in development, where React rebuilds call stacks with eval.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    // Style attributes (React's style prop) need this; scripts never get it.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${development ? ' ws: wss:' : ''}`,
    `form-action 'self' ${serviceOrigin}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** A fresh, unguessable nonce for one response. */
export function createNonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
