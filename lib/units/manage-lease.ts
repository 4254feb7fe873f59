import 'server-only';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { logActivity } from '@/lib/activity/sink';
import type { Member } from '@/lib/auth/store';
import { getDb } from '@/lib/db/client';
import { buildings, leaseEvents, units } from '@/lib/db/schema';
import { getEnv } from '@/lib/platform/env';
import type { FormState } from '@/lib/platform/forms';
import { updateUnit } from '@/lib/portfolio/units';
import { csvTextOf, type UnitsCsvState } from './import';
import { importLeaseEvents, parseLeaseCsv } from './lease-csv';
import { applyWaitingEvents } from './lease-events';
import { makeLeaseInbox } from './lease-inbox';
import { findUnit, findUnitsByExternalId } from './store';

/**
 * The Lease events page's work, for owners and admins (the actions check `manage_api_keys`
 * first): the inbox's address and secret made (shown once), a CSV of events recorded, and an
 * unmatched event's external id given to a unit, which applies the events waiting for it.
 */

/** The inbox's full address, as the property-management system is given it. */
export const leaseInboxUrl = (inboxId: string) =>
  new URL(`/api/v1/lease-events/${inboxId}`, getEnv().NEXTAUTH_URL).toString();

/** Makes the inbox a new address and secret; the secret comes back once. */
export async function makeInbox(member: Member): Promise<FormState> {
  const { inbox, secret } = await makeLeaseInbox({ orgId: member.orgId, byName: member.name });
  await logActivity({
    actor: { orgId: member.orgId, userId: member.userId, name: member.name },
    action: 'lease.inbox',
    summary: 'Made the lease inbox a new address and signing secret',
    changes: { inboxId: inbox.id },
  });
  return {
    status: 'success',
    message: `The inbox’s address is ${leaseInboxUrl(inbox.id)}; any earlier address and secret no longer work.`,
    secret,
  };
}

/** Records a CSV of lease events: one result a line. */
export async function importLeaseCsv(member: Member, form: FormData): Promise<UnitsCsvState> {
  const read = await csvTextOf(form, 'Paste the events as CSV, or choose a file.');
  if (!read.ok) return read.state;
  const parsed = parseLeaseCsv(read.text);
  if ('error' in parsed) {
    return {
      status: 'error',
      message: 'Check the highlighted field; nothing was recorded.',
      fieldErrors: { [read.field]: [parsed.error] },
      values: { csv: read.field === 'csv' ? read.text : '' },
    };
  }
  const report = await importLeaseEvents({ orgId: member.orgId, lines: parsed.lines });
  const count = (outcome: string) => report.filter((row) => row.outcome === outcome).length;
  await logActivity({
    actor: { orgId: member.orgId, userId: member.userId, name: member.name },
    action: 'lease.event',
    summary: `Uploaded ${report.length} lease events: ${count('done')} recorded`,
  });
  return {
    status: count('done') + count('unchanged') > 0 ? 'success' : 'error',
    message: `${count('done')} recorded, ${count('unchanged')} changed nothing, ${count('not_attempted')} wait for a unit, ${count('failed')} refused.`,
    report,
  };
}

/** The organisation's units with no external id yet: those an unmatched event may be given to. */
export async function listUnitsWithoutExternalId(
  orgId: string,
): Promise<{ id: string; label: string; buildingName: string }[]> {
  const db = await getDb();
  return db
    .select({ id: units.id, label: units.label, buildingName: buildings.name })
    .from(units)
    .innerJoin(
      buildings,
      and(eq(buildings.orgId, units.orgId), eq(buildings.buildingId, units.buildingId)),
    )
    .where(and(eq(units.orgId, orgId), isNull(units.externalId)))
    .orderBy(asc(buildings.name), asc(units.label))
    .limit(2000);
}

const mapSchema = z.object({
  eventId: z.uuid(),
  unitId: z.uuid('Choose the unit this id is.'),
});

/**
 * Gives a unit the external id an unmatched event names (the unit had none), then applies the
 * events waiting for that id, oldest first.
 */
export type MapResult =
  | { ok: true; label: string; externalId: string; applied: number }
  | { ok: false; state: FormState<'unitId'> };

export async function mapLeaseEvent(member: Member, form: FormData): Promise<MapResult> {
  const refuse = (state: FormState<'unitId'>): MapResult => ({ ok: false, state });
  const parsed = mapSchema.safeParse({ eventId: form.get('eventId'), unitId: form.get('unitId') });
  if (!parsed.success) {
    return refuse({
      status: 'error',
      message: 'Choose the unit this id is; nothing was changed.',
      fieldErrors: { unitId: ['Choose the unit this id is.'] },
    });
  }
  const db = await getDb();
  const [event] = await db
    .select()
    .from(leaseEvents)
    .where(and(eq(leaseEvents.orgId, member.orgId), eq(leaseEvents.id, parsed.data.eventId)));
  if (event?.outcome !== 'unmatched') {
    return refuse({ status: 'error', message: 'That event no longer waits for a unit.' });
  }
  const unit = await findUnit({ scope: member, unitId: parsed.data.unitId });
  if (!unit) return refuse({ status: 'error', message: 'That unit is not in your portfolio.' });
  if (unit.externalId !== null) {
    return refuse({
      status: 'error',
      message: `${unit.label} already has the external id “${unit.externalId}”; choose a unit without one.`,
    });
  }
  // The event's unit, or for a transfer the one of its two no unit has yet.
  const named = [
    event.externalUnitId,
    ...(typeof event.payload.toUnit === 'string' ? [event.payload.toUnit] : []),
  ];
  const known = await findUnitsByExternalId(member.orgId, named);
  const wanted = named.find((externalId) => !known.has(externalId)) ?? event.externalUnitId;
  const written = await updateUnit({
    orgId: member.orgId,
    unitId: unit.id,
    label: unit.label,
    externalId: wanted,
  });
  if (!written.ok) {
    return refuse({
      status: 'error',
      message:
        written.reason === 'taken'
          ? `Another unit has the external id “${wanted}” now; its events were applied to it.`
          : 'That unit is not in your portfolio.',
    });
  }
  const applied = await applyWaitingEvents({
    orgId: member.orgId,
    externalId: wanted,
    byName: member.name,
  });
  await logActivity({
    actor: { orgId: member.orgId, userId: member.userId, name: member.name },
    action: 'lease.map',
    summary: `Gave ${unit.label} the external id ${wanted}; ${applied} waiting lease events applied`,
    thermostatId: unit.thermostatId,
    buildingId: unit.buildingId,
    changes: { unitId: unit.id, externalId: wanted },
  });
  return { ok: true, label: unit.label, externalId: wanted, applied };
}
