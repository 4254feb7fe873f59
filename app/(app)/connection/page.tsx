import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ConnectForm } from '@/components/connection/connect-form';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDisclosure } from '@/components/ui/confirm-disclosure';
import { Link } from '@/components/ui/link';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { When } from '@/components/ui/when';
import { TermList } from '@/components/ui/term-list';
import { can } from '@/lib/auth/permissions';
import { readNotice } from '@/lib/platform/notice';
import { safeReturnPath } from '@/lib/platform/return-path';
import { requireMember } from '@/lib/auth/session';
import { listBuildings } from '@/lib/portfolio/store';
import { type ConnectionSummary, getConnectionSummary } from '@/lib/service/connection/connection';
import { connectionEndedInWords } from '@/lib/service/connection/ended';
import { isSandboxService } from '@/lib/portfolio/sandbox-demo';
import { scopeNames } from '@/lib/platform/words';
import { disconnectService } from './actions';

export const metadata: Metadata = { title: 'Service connection' };

export default async function ConnectionPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const params = await searchParams;
  const notice = readNotice(params, member);
  const [connection, buildings] = await Promise.all([
    getConnectionSummary(member.orgId),
    listBuildings({ scope: member }),
  ]);
  const manages = can(member, 'manage_connection');
  // Just connected with nothing in the portfolio yet: say what comes next.
  const nextStep =
    notice?.key === 'connected' && buildings.length === 0 && can(member, 'manage_portfolio');
  // Declined or failed: try again, back to where the member set out from.
  const retry = notice?.key === 'connectionDeclined' || notice?.key === 'connectionFailed';
  const retryTo = safeReturnPath(params.returnTo);
  const retryPath = retryTo === '/' ? '/connection' : retryTo;

  return (
    <div className="grid max-w-3xl gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Service connection</h1>
        <p className="mt-1 text-sm text-muted">
          Everyone in {member.orgName} acts on the thermostats through one thermostat service
          account. Its tokens stay encrypted on the server and never reach anyone’s browser.
        </p>
      </div>

      <RedirectNotice notice={notice} />
      {nextStep ? (
        <Card className="grid gap-3">
          <h2 className="text-lg font-medium">Next: add the thermostats you manage</h2>
          <p className="text-sm text-muted">
            The service does not list them, so tell Setpoint which ones are yours, by id, a pasted
            list or a CSV file
            {isSandboxService() ? ', or import the sandbox’s demo portfolio in one click' : ''}.
          </p>
          <div>
            <Link href="/portfolio/add" className={buttonClass('primary')}>
              Add thermostats
            </Link>
          </div>
        </Card>
      ) : null}
      {manages && retry ? (
        <div>
          <Suspense>
            <ConnectForm label="Try again" returnTo={retryPath} />
          </Suspense>
        </div>
      ) : null}

      {connection ? (
        <ConnectionDetails connection={connection} manages={manages} zone={member.timeZone} />
      ) : (
        <NotConnected manages={manages} />
      )}

      <Card className="grid gap-2">
        <h2 className="text-lg font-medium">Setpoint’s own API</h2>
        <p className="text-sm text-muted">
          Your property-management system can record move-outs and move-ins and read your units
          through Setpoint’s API, with a key of its own, or send its lease events to Setpoint’s
          signed inbox (or upload them as CSV).
        </p>
        <p className="flex flex-wrap gap-4 text-sm">
          {can(member, 'manage_api_keys') ? (
            <>
              <Link href="/api-keys" className="underline">
                API keys
              </Link>
              <Link href="/lease-events" className="underline">
                Lease events
              </Link>
            </>
          ) : null}
          <Link href="/api-reference" className="underline">
            API reference
          </Link>
        </p>
      </Card>
    </div>
  );
}

function NotConnected({ manages }: { manages: boolean }) {
  return (
    <Card className="grid gap-4">
      <div className="flex items-center gap-3">
        <StatusDot tone="off" />
        <h2 className="text-lg font-medium">Not connected</h2>
      </div>
      {manages ? (
        <>
          <p className="text-sm text-muted">
            Connect your organisation’s thermostat service account. You will sign in at the service,
            approve Setpoint, and come back here.
          </p>
          <div>
            <Suspense>
              <ConnectForm label="Connect service account" returnTo="/connection" />
            </Suspense>
          </div>
        </>
      ) : (
        <p className="text-sm text-muted">
          An owner or admin of your organisation connects the thermostat service account.
        </p>
      )}
    </Card>
  );
}

function ConnectionDetails({
  connection,
  manages,
  zone,
}: {
  connection: ConnectionSummary;
  manages: boolean;
  /** The member's zone, for the times. */
  zone: string;
}) {
  const active = connection.status === 'active';
  const account = connection.account;
  const rows: [string, React.ReactNode][] = [
    [
      'Service account',
      account?.name || account?.id ? (
        <span key="acct">
          {account.name ?? account.id}
          {account.name && account.id ? (
            <span className="ml-2 font-mono text-xs text-muted">{account.id}</span>
          ) : null}
        </span>
      ) : (
        'Not stated by the service'
      ),
    ],
    ['Connected by', connection.connectedByName || 'Not recorded'],
    ['Access granted', scopeNames(connection.scope)],
    ['Connected', <When key="c" at={connection.connectedAt} zone={zone} />],
    [
      'Last renewed',
      connection.lastRefreshedAt ? (
        <When key="r" at={connection.lastRefreshedAt} zone={zone} />
      ) : (
        'Not yet'
      ),
    ],
    ['Current access renews by', <When key="a" at={connection.accessTokenExpiresAt} zone={zone} />],
    [
      'Connection valid until',
      <span
        key="v"
        className={connection.refreshTokenExpiresSoon ? 'font-medium text-caution' : ''}
      >
        <When at={connection.refreshTokenExpiresAt} zone={zone} />
        {connection.refreshTokenExpiresSoon ? ' (soon: reconnect to extend it)' : ''}
      </span>,
    ],
  ];
  return (
    <Card className="grid gap-5">
      <div className="flex flex-wrap items-center gap-3">
        <StatusDot tone={active ? 'on' : 'warn'} />
        <h2 className="text-lg font-medium">{active ? 'Connected' : 'Needs reconnecting'}</h2>
      </div>
      {!active ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {connectionEndedInWords(connection.endedReason)}{' '}
          {manages ? 'Reconnect to continue.' : 'An owner or admin must reconnect it.'}
        </p>
      ) : null}
      <TermList
        rows={rows}
        className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]"
      />
      {/* The service's own words, for a technician. */}
      <details className="text-sm">
        <summary className="cursor-pointer text-muted">As the service reports it</summary>
        <dl className="mt-2 grid gap-x-6 gap-y-2 grid-cols-[max-content_1fr] font-mono text-xs">
          <dt className="text-muted">scope</dt>
          <dd>{connection.scope || '—'}</dd>
          <dt className="text-muted">token format</dt>
          <dd>{connection.tokenFormat === 'jwt' ? 'JWT' : 'opaque'}</dd>
        </dl>
      </details>
      {manages ? <ConnectionControls active={active} /> : null}
    </Card>
  );
}

function ConnectionControls({ active }: { active: boolean }) {
  return (
    <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
      <Suspense>
        <ConnectForm
          label="Reconnect"
          variant={active ? 'secondary' : 'primary'}
          returnTo="/connection"
        />
      </Suspense>
      <ConfirmDisclosure label="Disconnect…" confirm="Disconnect" action={disconnectService}>
        Setpoint will forget its tokens and stop managing your thermostats until you connect again.
      </ConfirmDisclosure>
    </div>
  );
}

function StatusDot({ tone }: { tone: 'on' | 'off' | 'warn' }) {
  const color = { on: 'bg-emerald-500', off: 'bg-slate-400', warn: 'bg-amber-500' }[tone];
  return <span aria-hidden="true" className={`size-2.5 rounded-full ${color}`} />;
}
