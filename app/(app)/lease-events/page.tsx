import type { Metadata } from 'next';
import { LeaseInboxForm, LeaseMapForm } from '@/components/units/lease-forms';
import { Card } from '@/components/ui/card';
import { CopyField } from '@/components/ui/copy-field';
import { CsvForm } from '@/components/ui/csv-form';
import { Link } from '@/components/ui/link';
import { NotAllowed } from '@/components/ui/not-allowed';
import { PageHeader } from '@/components/ui/page-header';
import { type Column, ResultTable } from '@/components/ui/result-table';
import { When } from '@/components/ui/when';
import { can, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { readNotice } from '@/lib/platform/notice';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import {
  LEASE_EVENT_WORDS,
  type LeaseEvent,
  type LeaseEventRow,
  listLeaseEvents,
  OUTCOME_WORDS,
} from '@/lib/units/lease-events';
import { findLeaseInbox } from '@/lib/units/lease-inbox';
import { leaseInboxUrl, listUnitsWithoutExternalId } from '@/lib/units/manage-lease';
import { importLeaseCsvAction, makeInboxAction, mapLeaseEventAction } from './actions';

export const metadata: Metadata = { title: 'Lease events' };

const eventWords = (row: LeaseEventRow) => {
  const type = LEASE_EVENT_WORDS[row.type as LeaseEvent['type']] ?? row.type;
  const to = typeof row.payload.toUnit === 'string' ? ` to ${row.payload.toUnit}` : '';
  return `${type}: ${row.externalUnitId}${to}`;
};

/**
 * Lease events from the company's property-management system, for owners and admins: the signed
 * inbox's address and secret, the events waiting for a unit (given one here, they are applied),
 * a CSV upload of the same events, and the latest events with what came of each.
 */
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function LeaseEventsPage({ searchParams }: Props) {
  const member = await requireMember();
  const notice = readNotice(await searchParams, member);
  if (!can(member, 'manage_api_keys')) {
    return <NotAllowed title="Lease events" message={refusal(member.role, 'manage_api_keys')} />;
  }
  const [inbox, waiting, latest, candidates] = await Promise.all([
    findLeaseInbox(member.orgId),
    listLeaseEvents({ orgId: member.orgId, unmatched: true }),
    listLeaseEvents({ orgId: member.orgId }),
    listUnitsWithoutExternalId(member.orgId),
  ]);
  const zone = member.timeZone;
  const columns: Column<LeaseEventRow>[] = [
    { header: 'Received', cell: (row) => <When at={row.receivedAt} zone={zone} /> },
    { header: 'Event', names: true, cell: eventWords },
    { header: 'Happened', cell: (row) => <When at={row.occurredAt} zone={zone} /> },
    { header: 'From', cell: (row) => (row.source === 'csv' ? 'CSV' : 'Inbox') },
    { header: 'Result', cell: (row) => OUTCOME_WORDS[row.outcome] },
    {
      header: 'Detail',
      cell: (row) => (
        <>
          {row.detail}
          {row.mappedByName ? ` (its unit was given by ${row.mappedByName})` : ''}
          {row.unitIds.map((unitId, index) => (
            <span key={unitId}>
              {' '}
              <Link href={`/units/${unitId}`} className="underline">
                {row.unitIds.length > 1 ? `Unit ${index + 1}` : 'The unit'}
              </Link>
            </span>
          ))}
        </>
      ),
    },
  ];
  return (
    <div className="grid gap-6">
      <PageHeader title="Lease events">
        Your property-management system tells Setpoint of notices, move-outs, move-ins and
        transfers, naming units by their external ids. Each is recorded once, in the order it
        happened, as on the unit’s page (a move-out starts the turnover). How to sign them is in the{' '}
        <Link href="/api-reference" className="underline">
          API reference
        </Link>
        .
      </PageHeader>
      <RedirectNotice notice={notice} />

      <section aria-labelledby="inbox-heading" className="grid gap-3">
        <h2 id="inbox-heading" className="text-lg font-semibold">
          Inbox
        </h2>
        <Card className="grid gap-3">
          {inbox ? (
            <>
              <CopyField id="lease-inbox" label="Address" value={leaseInboxUrl(inbox.id)} />
              <p className="text-sm text-muted">
                Made <When at={inbox.createdAt} zone={zone} /> by {inbox.createdByName}. Your system
                signs each event with the inbox’s secret (Standard Webhooks: the{' '}
                <code>webhook-id</code>, <code>webhook-timestamp</code> and{' '}
                <code>webhook-signature</code> headers); an event more than five minutes old is
                refused, and one sent again with the same <code>webhook-id</code> changes nothing.
              </p>
            </>
          ) : (
            <p className="text-sm text-muted">
              No inbox yet: make its address and signing secret, then give both to your
              property-management system.
            </p>
          )}
          <LeaseInboxForm action={makeInboxAction} exists={inbox !== null} />
        </Card>
      </section>

      <section aria-labelledby="waiting-heading" className="grid gap-3">
        <h2 id="waiting-heading" className="text-lg font-semibold">
          Waiting for a unit
        </h2>
        {waiting.length === 0 ? (
          <p className="text-sm text-muted">
            None: every event named a unit Setpoint knows by its external id.
          </p>
        ) : (
          <ul className="grid gap-3">
            {waiting.map((row) => (
              <li key={row.id}>
                <Card className="grid gap-2 text-sm">
                  <p>
                    <strong>{eventWords(row)}</strong>, happened{' '}
                    <When at={row.occurredAt} zone={zone} />.
                  </p>
                  <p className="text-muted">{row.detail}</p>
                  <LeaseMapForm
                    action={mapLeaseEventAction}
                    eventId={row.id}
                    externalId={row.externalUnitId}
                    units={candidates}
                  />
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="csv-heading" className="grid gap-3">
        <h2 id="csv-heading" className="text-lg font-semibold">
          Events by CSV
        </h2>
        <Card>
          <CsvForm
            action={importLeaseCsvAction}
            id="lease"
            title="Lease events by CSV"
            textLabel="Events as CSV"
            placeholder={
              'event id,type,unit,occurred at,move-out on,move-in at,to unit\nE-1001,notice,PM-4B,2027-01-02T09:00:00-05:00,2027-01-31,,\nE-1002,move out,PM-4B,2027-01-31T11:00:00-05:00,,,'
            }
            hint={
              <>
                A header row{' '}
                <code>event id,type,unit,occurred at,move-out on,move-in at,to unit</code>, then an
                event a line: a notice (with its move-out day), a move out, a move in (with its
                time) or a transfer (with the unit it goes to). Each event id is recorded once, so a
                file sent twice changes nothing the second time; the file’s events are applied in
                the order they happened. At most 2,000 lines.
              </>
            }
            submit={{ label: 'Record events', pending: 'Recording…' }}
            subject="Unit"
          />
        </Card>
      </section>

      <section aria-labelledby="latest-heading" className="grid gap-3">
        <h2 id="latest-heading" className="text-lg font-semibold">
          Latest events
        </h2>
        {latest.length === 0 ? (
          <p className="text-sm text-muted">No lease event yet.</p>
        ) : (
          <ResultTable
            caption="Latest lease events"
            columns={columns}
            rows={latest}
            rowKey={(row) => row.id}
          />
        )}
      </section>
    </div>
  );
}
