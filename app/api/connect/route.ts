import { type NextRequest, NextResponse } from 'next/server';
import { getCurrentUser } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import { FLOW_COOKIE, flowCookieOptions, startAuthorization } from '@/lib/oauth/flow';

/**
 * Starts connecting (or reconnecting) the manager's service account: a form POST from the
 * connection page or the reconnect banner, answered with a redirect to the service's consent
 * page. POST with an Origin check, so another site cannot start it.
 */
export async function POST(request: NextRequest) {
  const appOrigin = new URL(getEnv().NEXTAUTH_URL).origin;
  if (request.headers.get('origin') !== appOrigin) {
    return new NextResponse('Cross-origin request refused.', { status: 403 });
  }
  const user = await getCurrentUser();
  if (!user) return NextResponse.redirect(new URL('/sign-in', appOrigin), 303);

  const form = await request.formData().catch(() => null);
  const { authorizeUrl, cookie } = await startAuthorization({
    userId: user.id,
    returnTo: form?.get('returnTo'),
  });
  const response = NextResponse.redirect(authorizeUrl, 303);
  response.cookies.set(FLOW_COOKIE, cookie, flowCookieOptions());
  response.headers.set('Cache-Control', 'no-store');
  return response;
}
