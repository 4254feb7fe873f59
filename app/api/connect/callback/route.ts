import { type NextRequest, NextResponse } from 'next/server';
import { getCurrentUser } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import {
  type CallbackResult,
  completeAuthorization,
  FLOW_COOKIE,
  FLOW_COOKIE_PATH,
} from '@/lib/oauth/flow';

/**
 * The service sends the browser back here with `code` or `error` (access_denied and others).
 * Whatever happens, the answer is a redirect to a clean URL (the code goes no further, not even
 * in a Referer), the flow cookie is cleared, and nothing is cached.
 */
export async function GET(request: NextRequest) {
  const appOrigin = new URL(getEnv().NEXTAUTH_URL).origin;
  const user = await getCurrentUser();
  const result: CallbackResult = user
    ? await completeAuthorization({
        userId: user.id,
        params: request.nextUrl.searchParams,
        cookie: request.cookies.get(FLOW_COOKIE)?.value,
      })
    : { kind: 'failed', reason: 'state', returnTo: '/connection' };

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
