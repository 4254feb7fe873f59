/**
 * The Content-Security-Policy of every page: scripts only with this request's nonce (Next.js
 * puts it on its own scripts), nothing inline, no framing, forms only to ourselves, to the
 * thermostat service (the connect form is redirected to its consent page) and to the company's
 * identity provider when SSO is set up (the SSO sign-in form is redirected to it).
 */
export function contentSecurityPolicy(input: {
  nonce: string;
  serviceOrigin: string;
  ssoOrigin?: string | null;
  development: boolean;
}): string {
  const { nonce, serviceOrigin, development } = input;
  const ssoOrigin = input.ssoOrigin ? ` ${input.ssoOrigin}` : '';
  return [
    "default-src 'self'",
    // 'unsafe-eval' only in development, where React rebuilds call stacks with eval.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    // Style attributes (React's style prop) need this; scripts never get it.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${development ? ' ws: wss:' : ''}`,
    `form-action 'self' ${serviceOrigin}${ssoOrigin}`,
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
