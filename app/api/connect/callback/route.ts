import { type NextRequest, NextResponse } from 'next/server';
import { logActivity } from '@/lib/activity/sink';
import { can } from '@/lib/auth/permissions';
import { getCurrentMember } from '@/lib/auth/session';
import type { Member } from '@/lib/auth/store';
import { getEnv } from '@/lib/platform/env';
import { withNotice } from '@/lib/platform/notice';
import { getConnectionSummary } from '@/lib/service/connection/connection';
import {
  type CallbackResult,
  completeAuthorization,
  FLOW_COOKIE,
  FLOW_COOKIE_PATH,
} from '@/lib/service/connection/flow';

/**
 * The service sends the browser back here with `code` or `error` (access_denied and others).
 * Whatever happens, the answer is a redirect to a clean URL (the code goes no further, not even
 * in a Referer), the flow cookie is cleared, and nothing is cached. The member must still be
 * allowed to manage the connection: a role changed during the round trip stores nothing.
 */
export async function GET(request: NextRequest) {
  const appOrigin = new URL(getEnv().NEXTAUTH_URL).origin;
  const member = await getCurrentMember();
  let result: CallbackResult;
  if (!member || !can(member, 'manage_connection')) {
    result = { kind: 'failed', reason: 'state', returnTo: '/connection' };
  } else {
    const before = await getConnectionSummary(member.orgId);
    result = await completeAuthorization({
      member,
      params: request.nextUrl.searchParams,
      cookie: request.cookies.get(FLOW_COOKIE)?.value,
    });
    if (result.kind === 'connected') {
      const account = result.account.name ?? result.account.id;
      await logActivity({
        actor: member,
        action: before ? 'connection.reconnect' : 'connection.connect',
        summary: `${before ? 'Reconnected' : 'Connected'} the thermostat service account${account ? ` ${account}` : ''}`,
        changes: { account: result.account },
      });
    }
  }

  const response = NextResponse.redirect(new URL(destination(result, member), appOrigin), 303);
  response.cookies.set(FLOW_COOKIE, '', { path: FLOW_COOKIE_PATH, maxAge: 0 });
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('Referrer-Policy', 'no-referrer');
  return response;
}

/**
 * Where the member goes, with what the connection page says: connected (when they set out from
 * it; any other page shows itself connected), declined or failed, with the way to try again.
 */
function destination(result: CallbackResult, member: Member | null): string {
  // No one to tell: the connection page sends them to sign in.
  if (!member) return '/connection';
  if (result.kind === 'connected') {
    const back = new URL(result.returnTo, 'http://setpoint.invalid').pathname;
    return back === '/connection' ? withNotice(back, member, 'connected') : result.returnTo;
  }
  const retry = `/connection?${new URLSearchParams({ returnTo: result.returnTo })}`;
  return result.kind === 'declined'
    ? withNotice(retry, member, 'connectionDeclined')
    : withNotice(retry, member, 'connectionFailed', { reason: result.reason });
}
