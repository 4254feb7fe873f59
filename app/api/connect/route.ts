import { type NextRequest, NextResponse } from 'next/server';
import { can, refusal } from '@/lib/auth/permissions';
import { getCurrentMember } from '@/lib/auth/session';
import { getEnv } from '@/lib/platform/env';
import { withNotice } from '@/lib/platform/notice';
import { FLOW_COOKIE, flowCookieOptions, startAuthorization } from '@/lib/service/connection/flow';

/**
 * Starts connecting (or reconnecting) the organisation's service account: a form POST from the
 * connection page or the reconnect banner, answered with a redirect to the service's consent
 * page. POST with an Origin check, so another site cannot start it; owners and admins only.
 */
export async function POST(request: NextRequest) {
  const appOrigin = new URL(getEnv().NEXTAUTH_URL).origin;
  if (request.headers.get('origin') !== appOrigin) {
    return new NextResponse('Cross-origin request refused.', { status: 403 });
  }
  const member = await getCurrentMember();
  if (!member) return NextResponse.redirect(new URL('/sign-in', appOrigin), 303);
  if (!can(member, 'manage_connection')) {
    const refused = withNotice('/connection', member, 'notAllowed', {
      refusal: refusal(member.role, 'manage_connection'),
    });
    return NextResponse.redirect(new URL(refused, appOrigin), 303);
  }

  const form = await request.formData().catch(() => null);
  const { authorizeUrl, cookie } = await startAuthorization({
    userId: member.userId,
    returnTo: form?.get('returnTo'),
  });
  const response = NextResponse.redirect(authorizeUrl, 303);
  response.cookies.set(FLOW_COOKIE, cookie, flowCookieOptions());
  response.headers.set('Cache-Control', 'no-store');
  return response;
}
