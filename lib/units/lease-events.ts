import 'server-only';
import { and, asc, desc, eq, gt, inArray, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { type LEASE_EVENT_OUTCOMES, leaseEvents, units } from '@/lib/db/schema';
import { announceUnitChange, type UnitActor, unitChange } from './change';
import { STATE_WORDS, type UnitEvent } from './lifecycle';
import { findUnitsByExternalId, type Unit } from './store';

/**
 * Lease events from a company's property-management system (a notice, a move-out, a move-in with
 * its time, a transfer between units), by signed webhook (lib/api/lease-inbound.ts) or CSV: each
 * matched to its unit by the unit's external id and recorded through the unit's lifecycle, as a
 * member records it on the unit's page (so a move-out starts the turnover).
 *
 * - **Once**: each event's sender id (`webhook-id`, or a CSV line's event id) is taken once; the
 *   same id again gets the first outcome back and does nothing.
 * - **In order**: a unit's events are applied in the order they happened (`occurredAt`); one
 *   older than an event already recorded for its unit is kept as stale and changes nothing (a
 *   move-out that arrives after the move-in that followed it). One refused because the event
 *   before it had not come yet (a move-in sent ahead of its move-out) is tried again when that
 *   event is recorded.
 * - **Nothing lost**: an event for an external id no unit has is kept as unmatched; when an admin
 *   gives a unit that id, the events waiting for it are applied, in order.
 * - A transfer moves the resident out of one unit and in to the other, both or neither.
 */

export type LeaseEventOutcome = (typeof LEASE_EVENT_OUTCOMES)[number];

const externalId = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .meta({ description: 'The unit’s id in your property-management system (its external id).' });
const occurredAt = z.iso.datetime({ offset: true }).meta({
  description:
    'When it happened in your system. A unit’s events are applied in this order: one older than an event already recorded for the unit changes nothing.',
});
const moveInAt = z.iso
  .datetime({ offset: true })
  .meta({ description: 'When the resident moves in: still to come, it is scheduled.' });

/** A lease event as a property-management system sends it. */
export const leaseEventSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('notice'),
      unit: externalId,
      occurredAt,
      moveOutOn: z.iso
        .date()
        .meta({ description: 'The move-out day, in the building’s calendar.' }),
    }),
    z.object({ type: z.literal('move_out'), unit: externalId, occurredAt }),
    z.object({ type: z.literal('move_in'), unit: externalId, occurredAt, moveInAt }),
    z.object({
      type: z.literal('transfer'),
      unit: externalId.meta({ description: 'The unit the resident moves out of.' }),
      toUnit: externalId.meta({ description: 'The unit the resident moves in to.' }),
      occurredAt,
      moveInAt: moveInAt.optional(),
    }),
  ])
  .meta({ id: 'LeaseEvent', description: 'What happened to a lease, by your units’ ids.' });
export type LeaseEvent = z.output<typeof leaseEventSchema>;

export const LEASE_EVENT_WORDS: Record<LeaseEvent['type'], string> = {
  notice: 'Notice',
  move_out: 'Move-out',
  move_in: 'Move-in',
  transfer: 'Transfer',
};

export const OUTCOME_WORDS: Record<LeaseEventOutcome, string> = {
  applied: 'Recorded',
  unchanged: 'Already so',
  refused: 'Refused',
  stale: 'Older than one recorded',
  unmatched: 'No unit with that id',
};

/** Who records a lease event, as the timeline and the activity log name it. */
export const LEASE_ACTOR = 'Property-management system';

export type LeaseEventRow = typeof leaseEvents.$inferSelect;

/** What came of an event: its row, and whether it had come before (nothing was done again). */
export type LeaseReceipt = { event: LeaseEventRow; replayed: boolean };

class Refused extends Error {}

/** The unit changes an event asks for, in order (a transfer: out of one, in to the other). */
function changesOf(event: LeaseEvent, now: Date): { external: string; event: UnitEvent }[] {
  const moveIn = (at: string | undefined): UnitEvent =>
    at && Date.parse(at) > now.getTime()
      ? { event: 'schedule_move_in', moveInAt: new Date(at).toISOString() }
      : { event: 'move_in' };
  switch (event.type) {
    case 'notice':
      return [
        { external: event.unit, event: { event: 'give_notice', moveOutOn: event.moveOutOn } },
      ];
    case 'move_out':
      return [{ external: event.unit, event: { event: 'move_out' } }];
    case 'move_in':
      return [{ external: event.unit, event: moveIn(event.moveInAt) }];
    case 'transfer':
      return [
        { external: event.unit, event: { event: 'move_out' } },
        { external: event.toUnit, event: moveIn(event.moveInAt) },
      ];
  }
}

async function findByMessage(orgId: string, messageId: string): Promise<LeaseEventRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(leaseEvents)
    .where(and(eq(leaseEvents.orgId, orgId), eq(leaseEvents.messageId, messageId)));
  return row ?? null;
}

/**
 * Records one event from the property-management system, once. `messageId` is the sender's id
 * of it; `now` (the caller's clock) decides whether a move-in is scheduled or recorded.
 */
export async function receiveLeaseEvent(input: {
  orgId: string;
  messageId: string;
  source: 'webhook' | 'csv';
  event: LeaseEvent;
  now?: Date;
}): Promise<LeaseReceipt> {
  const before = await findByMessage(input.orgId, input.messageId);
  if (before) return { event: before, replayed: true };
  const taken = await takeEvent({
    orgId: input.orgId,
    event: input.event,
    now: input.now ?? new Date(),
    claim: async (tx, outcome) => {
      const [row] = await tx
        .insert(leaseEvents)
        .values({
          orgId: input.orgId,
          messageId: input.messageId,
          source: input.source,
          type: input.event.type,
          externalUnitId: input.event.unit,
          occurredAt: new Date(input.event.occurredAt),
          payload: input.event,
          ...outcome,
        })
        .onConflictDoNothing()
        .returning({ id: leaseEvents.id });
      return row?.id ?? null;
    },
  });
  if (taken) return { event: taken, replayed: false };
  // Another request with the same id took it meanwhile: its outcome is this one's.
  const raced = await findByMessage(input.orgId, input.messageId);
  if (!raced) throw new Error('A lease event taken meanwhile was not found.');
  return { event: raced, replayed: true };
}

type Tx = Parameters<Parameters<Awaited<ReturnType<typeof getDb>>['transaction']>[0]>[0];
type Outcome = Pick<LeaseEventRow, 'outcome' | 'detail' | 'unitIds' | 'runIds'>;

/**
 * Matches the event's units, then in one transaction claims the event (`claim` writes its row
 * with the outcome given, or returns null when it was taken), checks the order against the
 * units' recorded events, and applies its changes, all or none. After it commits, each change is
 * announced (its activity entry, its run queued). The row as it ended, or null when not claimed.
 */
async function takeEvent(input: {
  orgId: string;
  event: LeaseEvent;
  now: Date;
  claim: (tx: Tx, outcome: Outcome) => Promise<string | null>;
}): Promise<LeaseEventRow | null> {
  const { orgId, event } = input;
  const by: UnitActor = { orgId, userId: null, name: LEASE_ACTOR, temperatureUnit: 'F' };
  const wanted = changesOf(event, input.now);
  const matched = await findUnitsByExternalId(
    orgId,
    wanted.map((change) => change.external),
  );
  const missing = wanted.filter((change) => !matched.has(change.external));
  const db = await getDb();
  if (missing.length > 0) {
    const ids = missing.map((change) => `“${change.external}”`).join(' and ');
    const id = await db.transaction((tx) =>
      input.claim(tx, {
        outcome: 'unmatched',
        detail: `No unit has the external id ${ids}: give it to a unit on the Lease events page, and this event is applied then.`,
        unitIds: [],
        runIds: [],
      }),
    );
    return id ? readRow(id) : null;
  }
  const changes = await Promise.all(
    wanted.map(async (change) => {
      const unit = matched.get(change.external) as Unit;
      const prepared = { by, unit, event: change.event };
      return { ...prepared, apply: await unitChange(prepared) };
    }),
  );
  const unitIds = [...new Set(changes.map((change) => change.unit.id))];
  const done = await db.transaction(async (tx) => {
    const id = await input.claim(tx, { outcome: 'unchanged', detail: '', unitIds, runIds: [] });
    if (!id) return null;
    // The units first, in one order (no two events wait for each other), then the order check.
    await tx
      .select({ id: units.id })
      .from(units)
      .where(inArray(units.id, [...unitIds].sort()))
      .orderBy(asc(units.id))
      .for('update');
    const finish = (outcome: Outcome) =>
      tx.update(leaseEvents).set(outcome).where(eq(leaseEvents.id, id));
    const [later] = await tx
      .select({ type: leaseEvents.type, occurredAt: leaseEvents.occurredAt })
      .from(leaseEvents)
      .where(
        and(
          eq(leaseEvents.orgId, orgId),
          ne(leaseEvents.id, id),
          inArray(leaseEvents.outcome, ['applied', 'unchanged']),
          or(
            ...unitIds.map(
              (unitId) => sql`${leaseEvents.unitIds} @> ${JSON.stringify([unitId])}::jsonb`,
            ),
          ),
          gt(leaseEvents.occurredAt, new Date(event.occurredAt)),
        ),
      )
      .orderBy(desc(leaseEvents.occurredAt))
      .limit(1);
    if (later) {
      await finish({
        outcome: 'stale',
        detail: `A later ${LEASE_EVENT_WORDS[later.type as LeaseEvent['type']]?.toLowerCase() ?? 'event'} (of ${later.occurredAt.toISOString()}) is already recorded for the unit: this older event changes nothing.`,
        unitIds,
        runIds: [],
      });
      return { id, results: [] };
    }
    try {
      const results = await tx.transaction(async (savepoint) => {
        const out = [];
        for (const change of changes) {
          const result = await change.apply(savepoint);
          if (!result) throw new Refused(`${change.unit.label} is no longer in the portfolio.`);
          if (!result.ok) throw new Refused(`${change.unit.label}: ${result.reason}`);
          out.push({ change, result });
        }
        return out;
      });
      const changed = results.filter(({ result }) => result.changed);
      await finish({
        outcome: changed.length > 0 ? 'applied' : 'unchanged',
        detail:
          results
            .map(({ change, result }) =>
              result.changed
                ? `${change.unit.label}: ${STATE_WORDS[result.state.state].toLowerCase()}${result.runId ? ', its thermostat being put in its settings' : ''}.`
                : `${change.unit.label}: already so.`,
            )
            .join(' ') || 'Nothing to change.',
        unitIds,
        runIds: results.flatMap(({ result }) => (result.runId ? [result.runId] : [])),
      });
      return { id, results };
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      await finish({
        outcome: 'refused',
        detail: `${error.message} Nothing was changed.`,
        unitIds,
        runIds: [],
      });
      return { id, results: [] };
    }
  });
  if (!done) return null;
  for (const { change, result } of done.results) {
    await announceUnitChange({ by, unit: change.unit, event: change.event, result });
  }
  if (done.results.some(({ result }) => result.changed)) {
    await retryRefusedAfter({ orgId, unitIds, after: event.occurredAt, now: input.now });
  }
  return readRow(done.id);
}

/**
 * An event refused because one before it had not come yet (a move-in sent ahead of the move-out
 * it follows) is tried again once an earlier event of its unit is recorded, oldest first; one
 * still refused stays so.
 */
async function retryRefusedAfter(input: {
  orgId: string;
  unitIds: string[];
  after: string;
  now: Date;
}): Promise<void> {
  const db = await getDb();
  const refused = await db
    .select()
    .from(leaseEvents)
    .where(
      and(
        eq(leaseEvents.orgId, input.orgId),
        eq(leaseEvents.outcome, 'refused'),
        or(
          ...input.unitIds.map(
            (unitId) => sql`${leaseEvents.unitIds} @> ${JSON.stringify([unitId])}::jsonb`,
          ),
        ),
        gt(leaseEvents.occurredAt, new Date(input.after)),
      ),
    )
    .orderBy(asc(leaseEvents.occurredAt), asc(leaseEvents.receivedAt));
  for (const row of refused) {
    const event = leaseEventSchema.safeParse(row.payload);
    if (!event.success) continue;
    await takeEvent({
      orgId: input.orgId,
      event: event.data,
      now: input.now,
      claim: async (tx, outcome) => {
        const [claimed] = await tx
          .update(leaseEvents)
          .set(outcome)
          .where(and(eq(leaseEvents.id, row.id), eq(leaseEvents.outcome, 'refused')))
          .returning({ id: leaseEvents.id });
        return claimed?.id ?? null;
      },
    });
  }
}

async function readRow(id: string): Promise<LeaseEventRow> {
  const db = await getDb();
  const [row] = await db.select().from(leaseEvents).where(eq(leaseEvents.id, id));
  if (!row) throw new Error('A lease event just written was not found.');
  return row;
}

/**
 * Applies the unmatched events waiting for an external id (once a unit has it), oldest first;
 * each is claimed once, so two admins mapping at once apply it once. How many were applied.
 */
export async function applyWaitingEvents(input: {
  orgId: string;
  externalId: string;
  /** Who gave a unit the id (the admin mapping the events). */
  byName: string;
  now?: Date;
}): Promise<number> {
  const db = await getDb();
  const waiting = await db
    .select()
    .from(leaseEvents)
    .where(
      and(
        eq(leaseEvents.orgId, input.orgId),
        eq(leaseEvents.outcome, 'unmatched'),
        or(
          eq(leaseEvents.externalUnitId, input.externalId),
          sql`${leaseEvents.payload} ->> 'toUnit' = ${input.externalId}`,
        ),
      ),
    )
    .orderBy(asc(leaseEvents.occurredAt), asc(leaseEvents.receivedAt));
  let applied = 0;
  for (const row of waiting) {
    const event = leaseEventSchema.safeParse(row.payload);
    if (!event.success) continue;
    const taken = await takeEvent({
      orgId: input.orgId,
      event: event.data,
      now: input.now ?? new Date(),
      claim: async (tx, outcome) => {
        const [claimed] = await tx
          .update(leaseEvents)
          .set({ ...outcome, mappedByName: input.byName, mappedAt: new Date() })
          .where(and(eq(leaseEvents.id, row.id), eq(leaseEvents.outcome, 'unmatched')))
          .returning({ id: leaseEvents.id });
        return claimed?.id ?? null;
      },
    });
    if (taken && taken.outcome !== 'unmatched') applied += 1;
  }
  return applied;
}

/** The organisation's latest lease events, newest first; only the unmatched with `unmatched`. */
export async function listLeaseEvents(input: {
  orgId: string;
  unmatched?: boolean;
  limit?: number;
}): Promise<LeaseEventRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(leaseEvents)
    .where(
      and(
        eq(leaseEvents.orgId, input.orgId),
        input.unmatched ? eq(leaseEvents.outcome, 'unmatched') : undefined,
      ),
    )
    .orderBy(desc(leaseEvents.receivedAt), desc(leaseEvents.id))
    .limit(input.limit ?? 50);
}
