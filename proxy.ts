import { type NextRequest, NextResponse } from 'next/server';

const PUBLIC_PATHS = ['/sign-in', '/setup'];
const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

/**
 * An optimistic redirect: no session cookie at all means sign in first, with the page to come
 * back to. It is never the only check: every page and action verifies the session in the data
 * layer (lib/auth/session.ts).
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`))) {
    return NextResponse.next();
  }
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const signIn = new URL('/sign-in', request.url);
  if (pathname !== '/') signIn.searchParams.set('callbackUrl', `${pathname}${search}`);
  return NextResponse.redirect(signIn);
}

export const config = {
  // Everything but next-auth's and the service connection's own routes (they check the session
  // themselves; a redirect from the OAuth callback would carry its code into a URL and a
  // cookie), Next's assets and public files.
  matcher: ['/((?!api/auth|api/connect|_next/static|_next/image|favicon.ico|robots.txt).*)'],
};
