import type { Metadata } from 'next';
import { ApiKeyForm } from '@/components/api/key-form';
import { ConfirmStep } from '@/components/runs/run-parts';
import { RunActionForm } from '@/components/runs/run-action-form';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { NotAllowed } from '@/components/ui/not-allowed';
import { PageHeader } from '@/components/ui/page-header';
import { type Column, ResultTable } from '@/components/ui/result-table';
import { When } from '@/components/ui/when';
import { API_SCOPES, type ListedApiKey, listApiKeys } from '@/lib/api/keys';
import { SCOPE_WORDS } from '@/lib/api/manage-keys';
import { can, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { listBuildings } from '@/lib/portfolio/store';
import { createKeyAction, revokeKeyAction } from './actions';

export const metadata: Metadata = { title: 'API keys' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Keys for Setpoint's own API: owners and admins make them (shown once), see when each was last
 * used and from where, and revoke them (confirmed first, a step of the page that works without
 * JavaScript).
 */
export default async function ApiKeysPage({ searchParams }: Props) {
  const member = await requireMember();
  if (!can(member, 'manage_api_keys')) {
    return <NotAllowed title="API keys" message={refusal(member.role, 'manage_api_keys')} />;
  }
  const revoking = (await searchParams).revoke;
  const [keys, buildings] = await Promise.all([
    listApiKeys({ orgId: member.orgId }),
    listBuildings({ scope: member }),
  ]);
  const names = new Map(buildings.map((building) => [building.buildingId, building.name]));
  const zone = member.timeZone;
  const columns: Column<ListedApiKey>[] = [
    { header: 'Name', names: true, cell: (key) => key.name },
    { header: 'Key', cell: (key) => `${key.prefix}…`, className: 'font-mono text-xs' },
    { header: 'May', cell: (key) => key.scopes.map((scope) => SCOPE_WORDS[scope]).join('; ') },
    {
      header: 'Buildings',
      cell: (key) =>
        key.buildingIds === null
          ? 'Every building'
          : key.buildingIds.map((id) => names.get(id) ?? id).join(', '),
    },
    {
      header: 'Made',
      cell: (key) => (
        <>
          <When at={key.createdAt} zone={zone} /> by {key.createdByName}
        </>
      ),
    },
    {
      header: 'Last used',
      cell: (key) =>
        key.lastUsedAt ? (
          <>
            <When at={key.lastUsedAt} zone={zone} /> from {key.lastUsedFrom ?? 'an unknown address'}
          </>
        ) : (
          'Never'
        ),
    },
    {
      header: 'State',
      cell: (key) =>
        key.revokedAt ? (
          <>
            Revoked <When at={key.revokedAt} zone={zone} /> by {key.revokedByName}
          </>
        ) : revoking === key.id ? (
          <ConfirmStep
            back="/api-keys"
            backLabel="Keep it"
            tone="warn"
            question={<>Revoke “{key.name}”? Every request with it is refused from now on.</>}
          >
            <RunActionForm
              action={revokeKeyAction.bind(null, key.id)}
              label="Revoke the key"
              pending="Revoking…"
              variant="danger"
            />
          </ConfirmStep>
        ) : (
          <Link
            href={`/api-keys?revoke=${encodeURIComponent(key.id)}`}
            className={buttonClass('secondary')}
          >
            Revoke…
          </Link>
        ),
    },
  ];
  return (
    <div className="grid gap-6">
      <PageHeader title="API keys">
        Setpoint’s own API lets your property-management system record move-outs and move-ins and
        read your units. Each key says what it may do and where; it is shown once, and Setpoint
        keeps only a hash of it.{' '}
        <Link href="/api-reference" className="underline">
          The API reference
        </Link>
        .
      </PageHeader>
      <section aria-labelledby="new-key-heading" className="grid gap-3">
        <h2 id="new-key-heading" className="text-lg font-semibold">
          Make a key
        </h2>
        <Card>
          <ApiKeyForm
            action={createKeyAction}
            scopes={API_SCOPES.map((scope) => ({ value: scope, label: SCOPE_WORDS[scope] }))}
            buildings={buildings.map(({ buildingId, name }) => ({ buildingId, name }))}
          />
        </Card>
      </section>
      <section aria-labelledby="keys-heading" className="grid gap-3">
        <h2 id="keys-heading" className="text-lg font-semibold">
          Keys
        </h2>
        {keys.length === 0 ? (
          <p className="text-sm text-muted">No keys yet.</p>
        ) : (
          <ResultTable caption="API keys" columns={columns} rows={keys} rowKey={(key) => key.id} />
        )}
      </section>
    </div>
  );
}
