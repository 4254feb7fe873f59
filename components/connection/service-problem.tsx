import { Suspense } from 'react';
import { Notice } from '@/components/ui/notice';
import { can } from '@/lib/auth/permissions';
import type { Member } from '@/lib/auth/store';
import { bannerOffersReconnect } from '@/lib/service/connection/connection';
import { connectionEnded, describeServiceError } from '@/lib/service/errors';
import { ConnectForm } from './connect-form';

/**
 * A service failure a page met, in words. When it is the connection that ended and the banner
 * this request draws does not offer to reconnect (it was drawn from the connection as the request
 * began, or not drawn at all on a soft navigation), the page that found out offers the way back
 * itself, or says who can take it: no dead end until the next page load.
 */
export async function ServiceProblem({
  error,
  member,
  tone = 'error',
  lead,
  trail,
}: {
  error: unknown;
  member: Member;
  tone?: 'error' | 'warning';
  /** Words before the failure's sentence ("Could not read it just now."). */
  lead?: string;
  /** Words after it ("Each row shows what Setpoint last knew."). */
  trail?: string;
}) {
  const ended = connectionEnded(error);
  const bannerShown = ended && (await bannerOffersReconnect(member.orgId));
  const canReconnect = can(member, 'manage_connection');
  const offer = ended && canReconnect && !bannerShown;
  const sentence = !ended
    ? describeServiceError(error)
    : !canReconnect
      ? 'The thermostat service connection has ended. An owner or admin of your organisation must reconnect it.'
      : bannerShown
        ? 'The thermostat service connection has ended: reconnect it from the notice at the top of the page.'
        : 'The thermostat service connection has ended. Reconnect to continue; you will come back to this page.';
  return (
    <Notice tone={tone}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <p className="flex-1">
          {lead ? `${lead} ` : ''}
          {sentence}
          {trail ? ` ${trail}` : ''}
        </p>
        {offer ? (
          <Suspense>
            <ConnectForm label="Reconnect" variant="secondary" />
          </Suspense>
        ) : null}
      </div>
    </Notice>
  );
}
