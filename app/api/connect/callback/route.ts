import { type NextRequest, NextResponse } from 'next/server';
import { logActivity } from '@/lib/activity/sink';
import { can } from '@/lib/auth/permissions';
import { getCurrentMember } from '@/lib/auth/session';
import { getEnv } from '@/lib/platform/env';
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

  const response = NextResponse.redirect(new URL(destination(result), appOrigin), 303);
  response.cookies.set(FLOW_COOKIE, '', { path: FLOW_COOKIE_PATH, maxAge: 0 });
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('Referrer-Policy', 'no-referrer');
  return response;
}

function destination(result: CallbackResult): string {
  if (result.kind === 'connected') return result.returnTo;
  const params = new URLSearchParams({ result: result.kind, returnTo: result.returnTo });
  if (result.kind === 'failed') params.set('reason', result.reason);
  return `/connection?${params}`;
}
