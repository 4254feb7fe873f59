import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ConnectForm } from '@/components/connection/connect-form';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDisclosure } from '@/components/ui/confirm-disclosure';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { When } from '@/components/ui/when';
import { can } from '@/lib/auth/permissions';
import { safeReturnPath } from '@/lib/platform/return-path';
import { requireMember } from '@/lib/auth/session';
import { listBuildings } from '@/lib/portfolio/store';
import { type ConnectionSummary, getConnectionSummary } from '@/lib/service/connection/connection';
import { connectionEndedInWords } from '@/lib/service/connection/ended';
import { isSandboxService } from '@/lib/portfolio/sandbox-demo';
import { scopeNames } from '@/lib/platform/words';
import { disconnectService } from './actions';

export const metadata: Metadata = { title: 'Service connection' };

const RESULTS: Record<string, { tone: 'success' | 'info' | 'error'; text: string }> = {
  connected: { tone: 'success', text: 'Connected. Setpoint can now manage your thermostats.' },
  disconnected: {
    tone: 'info',
    text: 'Disconnected. Setpoint no longer holds your service tokens.',
  },
  not_allowed: {
    tone: 'error',
    text: 'Only an owner or admin can connect or reconnect the service account. Nothing was changed.',
  },
  declined: {
    tone: 'info',
    text: 'You declined access at the thermostat service, so nothing was connected. Any existing connection is unchanged.',
  },
};

const FAILURES: Record<string, string> = {
  state:
    'That sign-in link was not valid here: it expired, was already used, or was started by someone else. Nothing was changed. Start again below.',
  service_error:
    'The thermostat service could not complete the authorization. Nothing was changed. Try again.',
  code_refused:
    'The thermostat service did not accept the authorization (it may have expired). Nothing was changed. Try again.',
  service_unavailable:
    'The thermostat service is not responding right now. Nothing was changed. Try again in a few minutes.',
};

export default async function ConnectionPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const params = await searchParams;
  const result = typeof params.result === 'string' ? params.result : null;
  const [connection, buildings] = await Promise.all([
    getConnectionSummary(member.orgId),
    listBuildings({ scope: member }),
  ]);
  const manages = can(member, 'manage_connection');
  // Just connected with nothing in the portfolio yet: say what comes next.
  const nextStep =
    result === 'connected' && buildings.length === 0 && can(member, 'manage_portfolio');

  const reason = typeof params.reason === 'string' ? params.reason : '';
  const retryTo = safeReturnPath(params.returnTo);
  const retryPath = retryTo === '/' ? '/connection?result=connected' : retryTo;

  return (
    <div className="grid max-w-3xl gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Service connection</h1>
        <p className="mt-1 text-sm text-muted">
          Everyone in {member.orgName} acts on the thermostats through one thermostat service
          account. Its tokens stay encrypted on the server and never reach anyone’s browser.
        </p>
      </div>

      {result && RESULTS[result] ? (
        <Notice tone={RESULTS[result].tone}>{RESULTS[result].text}</Notice>
      ) : null}
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
      {result === 'failed' ? (
        <Notice tone="error">{FAILURES[reason] ?? FAILURES.service_error}</Notice>
      ) : null}
      {manages && (result === 'declined' || result === 'failed') ? (
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
              <ConnectForm
                label="Connect service account"
                returnTo="/connection?result=connected"
              />
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
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-muted">{term}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>
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
          returnTo="/connection?result=connected"
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
