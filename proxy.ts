import { type NextRequest, NextResponse } from 'next/server';
import { getEnv } from '@/lib/platform/env';
import { CSRF_HEADER, createCsrfCookie, csrfCookieName, csrfTokenOf } from '@/lib/auth/csrf';
import { contentSecurityPolicy, createNonce } from '@/lib/platform/security-headers';
import { fromOwnOrigin, SESSION_COOKIES } from '@/lib/platform/request-origin';

const PUBLIC_PATHS = ['/sign-in', '/setup', '/invite'];
const SAFE_METHODS = new Set(['GET', 'HEAD']);
/**
 * The most a form or server action may send: `experimental.serverActions.bodySizeLimit` in
 * next.config.js ('1mb'), which Next enforces by throwing mid-request, answered as a 500.
 */
const BODY_SIZE_LIMIT_BYTES = 1024 * 1024;

/** 413 for a body over the limit, 411 for one whose length is not said; null when it fits. */
function bodyTooLarge(request: NextRequest): NextResponse | null {
  if (SAFE_METHODS.has(request.method)) return null;
  const length = request.headers.get('content-length');
  // Browsers always say how long a form post or an action's fetch is; only a stream does not.
  if (length === null && request.headers.has('transfer-encoding')) {
    return plainText('A request body must say its length.', 411);
  }
  if (length === null || Number(length) <= BODY_SIZE_LIMIT_BYTES) return null;
  return plainText('The request is too large (at most 1 MB).', 413, { connection: 'close' });
}

function plainText(text: string, status: number, headers: Record<string, string> = {}) {
  return new NextResponse(text, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
  });
}

/**
 * Every page passes here first:
 * - a body over the server-action limit is a 413 (Next would answer it with a 500);
 * - security headers: a Content-Security-Policy with a fresh nonce (Next.js reads it from the
 *   request header and puts it on its scripts), and HSTS when served over https;
 * - cross-origin writes refused: a non-GET request whose `Origin` is another site's is a 403;
 * - an optimistic redirect: no session cookie at all means sign in first, with the page to come
 *   back to. It is never the only check: every page and action verifies the session in the data
 *   layer (lib/auth/session.ts).
 */
export function proxy(request: NextRequest) {
  const env = getEnv();
  const { pathname, search } = request.nextUrl;
  const tooLarge = bodyTooLarge(request);
  if (tooLarge) return tooLarge;
  if (!SAFE_METHODS.has(request.method) && !fromOwnOrigin(request.headers, env.NEXTAUTH_URL)) {
    // Another site's form or script: refused here, before any page or server action runs
    // (Next's own server-action check would answer it with a 500).
    return plainText('Cross-origin request refused.', 403);
  }
  const isPublic = PUBLIC_PATHS.some(
    (path) => pathname === path || pathname.startsWith(`${path}/`),
  );
  const signedIn = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (!isPublic && !signedIn) {
    const signIn = new URL('/sign-in', request.url);
    if (pathname !== '/') signIn.searchParams.set('callbackUrl', `${pathname}${search}`);
    return NextResponse.redirect(signIn);
  }

  const nonce = createNonce();
  const policy = contentSecurityPolicy({
    nonce,
    serviceOrigin: new URL(env.SERVICE_BASE_URL).origin,
    ssoOrigin: env.OIDC_ISSUER ? new URL(env.OIDC_ISSUER).origin : null,
    development: process.env.NODE_ENV === 'development',
  });
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', policy);
  // Sign-in and sign-out are plain forms posting to next-auth (so they work without JavaScript):
  // they need next-auth's CSRF token, in a cookie set here when the browser has none valid.
  const secure = new URL(env.NEXTAUTH_URL).protocol === 'https:';
  let csrfCookie: string | null = null;
  if (SAFE_METHODS.has(request.method)) {
    const name = csrfCookieName(secure);
    let token = csrfTokenOf(request.cookies.get(name)?.value, env.AUTH_SECRET);
    if (!token) {
      const created = createCsrfCookie(env.AUTH_SECRET);
      token = created.token;
      csrfCookie = created.value;
    }
    headers.set(CSRF_HEADER, token);
  }
  const response = NextResponse.next({ request: { headers } });
  if (csrfCookie) {
    response.cookies.set(csrfCookieName(secure), csrfCookie, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure,
    });
  }
  response.headers.set('Content-Security-Policy', policy);
  if (new URL(env.NEXTAUTH_URL).protocol === 'https:') {
    response.headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
  }
  return response;
}

export const config = {
  // Everything but next-auth's and the service connection's own routes and the health check
  // (they check the session themselves, or need none, and serve no pages; a redirect from the
  // OAuth callback would carry its code into a URL and a cookie), the API (it takes keys, never
  // the session: lib/api/http.ts answers for itself), Next's assets and public files.
  matcher: [
    '/((?!api/auth|api/connect|api/health|api/v1|_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)',
  ],
};
