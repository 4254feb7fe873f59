import 'server-only';
import { and, asc, desc, eq, lte } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { units, unitSteps } from '@/lib/db/schema';
import { logWarning } from '@/lib/platform/log';
import { queueRun } from '@/lib/runs/sweep';
import { announceUnitChange, type UnitActor, unitChange } from './change';
import { findUnit, type Unit } from './store';
import { occupancyRunStarter } from './turnover/start';

/**
 * A scheduled move-in prepared ahead: its two steps (lib/db/schema.ts `unitSteps`), written when
 * the move-in is scheduled, moved or cancelled (lib/units/store.ts), are taken here when due.
 * The job runner asks every minute, and once at start-up, so a step that fell due while Setpoint
 * was down runs when it comes back. Each step is taken in one transaction that marks it done and
 * does it (the run it starts, the move-in it records), so it happens exactly once however many
 * workers ask.
 *
 * - `prepare`, the organisation's lead before the move-in (four hours unless it says): the
 *   occupied policy's template, resident mode left as it is.
 * - `move_in`, at the move-in: the move-in recorded by Setpoint, which puts the thermostat in its
 *   occupied settings (resident mode on) as any move-in does.
 */

/** Who takes a scheduled step, as the timeline and the activity log name it. */
export const SCHEDULED = 'Setpoint (scheduled move-in)';

const actorOf = (orgId: string): UnitActor => ({
  orgId,
  userId: null,
  name: SCHEDULED,
  temperatureUnit: 'F',
});

type DueStep = { id: number; orgId: string; unitId: string; step: 'prepare' | 'move_in' };

/** Takes every step due by `now` (the clock is the caller's, so tests can set it). */
export async function runDueUnitSteps(now = new Date()): Promise<{ taken: number }> {
  const db = await getDb();
  const due = await db
    .select({
      id: unitSteps.id,
      orgId: unitSteps.orgId,
      unitId: unitSteps.unitId,
      step: unitSteps.step,
    })
    .from(unitSteps)
    .where(and(eq(unitSteps.state, 'pending'), lte(unitSteps.dueAt, now)))
    .orderBy(asc(unitSteps.dueAt), asc(unitSteps.id))
    .limit(200);
  let taken = 0;
  for (const step of due) {
    // One step that fails (the database, a bug) is logged and tried again next time; the
    // others, of this organisation and every other, still run.
    try {
      if (await takeStep(step)) taken += 1;
    } catch (error) {
      logWarning(`unit step ${step.id}: not taken`, String(error));
    }
  }
  return { taken };
}

/** One step, once: false when another worker took it, or it was cancelled meanwhile. */
async function takeStep(step: DueStep): Promise<boolean> {
  const by = actorOf(step.orgId);
  const unit = await findUnit({
    scope: { orgId: step.orgId, userId: '', buildingIds: null },
    unitId: step.unitId,
  });
  // Everything read before the transaction: it then only writes (and takes the unit's lock).
  // Only what this step needs: the move-in's change, or the preparation's run.
  const moveIn =
    unit && step.step === 'move_in'
      ? await unitChange({ by, unit, event: { event: 'move_in' } })
      : null;
  const prepare =
    unit && step.step === 'prepare'
      ? await occupancyRunStarter({ orgId: step.orgId, unit, by, purpose: 'prepare' })
      : undefined;
  const db = await getDb();
  const done = await db.transaction(async (tx) => {
    // The unit first, then its step, as a change of its move-in takes them: never the other way.
    await tx.select({ id: units.id }).from(units).where(eq(units.id, step.unitId)).for('update');
    const [claimed] = await tx
      .update(unitSteps)
      .set({ state: 'done', doneAt: new Date() })
      .where(and(eq(unitSteps.id, step.id), eq(unitSteps.state, 'pending')))
      .returning({ id: unitSteps.id });
    if (!claimed) return null;
    const finish = (result: string, runId: string | null = null) =>
      tx.update(unitSteps).set({ result, runId }).where(eq(unitSteps.id, step.id));
    if (!unit) {
      await finish('The unit is no longer in the portfolio.');
      return { ran: true };
    }
    if (step.step === 'prepare') {
      const runId = prepare ? await prepare({ state: 'occupied' }, tx) : null;
      await finish(
        runId
          ? 'The occupied comfort is being applied.'
          : unit.thermostatId
            ? 'The occupied policy has no template: nothing to prepare.'
            : 'The unit has no thermostat: nothing to prepare.',
        runId,
      );
      return { ran: true, runId };
    }
    const result = moveIn ? await moveIn(tx) : null;
    await finish(
      result?.ok
        ? 'Moved in.'
        : `Not moved in: ${result && !result.ok ? result.reason : 'the unit is no longer in the portfolio.'}`,
      result?.runId ?? null,
    );
    return { ran: true, moveIn: result };
  });
  if (!done) return false;
  if ('runId' in done && done.runId) await queueRun(done.runId);
  if ('moveIn' in done && unit) {
    await announceUnitChange({
      by,
      unit,
      event: { event: 'move_in' },
      result: done.moveIn ?? null,
    });
  }
  return true;
}

export type UnitStepRow = {
  id: number;
  step: 'prepare' | 'move_in';
  dueAt: Date;
  state: 'pending' | 'done' | 'cancelled';
  result: string | null;
  runId: string | null;
};

/** A unit's scheduled steps, the latest first (for its page). */
export async function listUnitSteps(unit: Pick<Unit, 'id' | 'orgId'>): Promise<UnitStepRow[]> {
  const db = await getDb();
  return db
    .select({
      id: unitSteps.id,
      step: unitSteps.step,
      dueAt: unitSteps.dueAt,
      state: unitSteps.state,
      result: unitSteps.result,
      runId: unitSteps.runId,
    })
    .from(unitSteps)
    .where(and(eq(unitSteps.orgId, unit.orgId), eq(unitSteps.unitId, unit.id)))
    .orderBy(desc(unitSteps.dueAt), desc(unitSteps.id))
    .limit(20);
}
