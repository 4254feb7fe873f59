import 'server-only';
import { and, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { bulkRuns, unitOccupancy, units, unitThermostats } from '@/lib/db/schema';
import { logWarning } from '@/lib/platform/log';
import { queueRun } from '@/lib/runs/sweep';
import type { UnitActor } from './change';
import { findUnit } from './store';
import { occupancyRunStarter } from './turnover/start';

/**
 * A thermostat that comes into a unit (added by id, by CSV or created into an empty unit, put
 * back in its old one, or replacing another) is put in the unit's state's settings as one run,
 * as a change of state would put it. The add flows live in lib/portfolio, below units, and only
 * record the arrival (`unit_thermostats`); the job runner asks here every minute, with the
 * scheduled move-in steps, and a replacement asks at once. Each arrival is settled once
 * (`settled_at`), in the transaction that starts its run, however many workers ask.
 *
 * Only a unit whose state someone recorded is settled on its own: a unit never told of is
 * occupied by assumption, and Setpoint does not act on an assumption.
 */

/** Who settles an arrival the job finds, as the run and the activity log name it. */
export const ARRIVAL = 'Setpoint (thermostat put in its unit’s settings)';

/** An arrival older than this is left to Needs attention, which lists the unit (lib/units/settings.ts). */
const ARRIVALS_WITHIN_MS = 24 * 60 * 60_000;

/** Settles every arrival of the last day in a unit with a recorded state (the clock is the caller's). */
export async function settleArrivals(now = new Date()): Promise<{ started: number }> {
  const db = await getDb();
  const arrived = await db
    .select({ orgId: unitThermostats.orgId, unitId: unitThermostats.unitId })
    .from(unitThermostats)
    .innerJoin(
      units,
      and(
        eq(units.id, unitThermostats.unitId),
        eq(units.thermostatId, unitThermostats.thermostatId),
      ),
    )
    .innerJoin(unitOccupancy, eq(unitOccupancy.unitId, unitThermostats.unitId))
    .where(
      and(
        isNull(unitThermostats.untilAt),
        isNull(unitThermostats.settledAt),
        gt(unitThermostats.fromAt, new Date(now.getTime() - ARRIVALS_WITHIN_MS)),
      ),
    )
    .limit(200);
  let started = 0;
  for (const { orgId, unitId } of arrived) {
    try {
      const by = { orgId, userId: null, name: ARRIVAL, temperatureUnit: 'F' as const };
      if (await settleArrival({ by, unitId })) started += 1;
    } catch (error) {
      logWarning(`unit ${unitId}: its new thermostat was not put in its settings`, String(error));
    }
  }
  return { started };
}

/**
 * Puts the thermostat that came into the unit in its state's settings, once: the run's id, or
 * null when it was settled already, a run since it came in does it (a change of state), or the
 * state's policy asks nothing of it.
 */
export async function settleArrival(input: {
  by: UnitActor;
  unitId: string;
}): Promise<string | null> {
  const { by } = input;
  const unit = await findUnit({
    scope: { orgId: by.orgId, userId: '', buildingIds: null },
    unitId: input.unitId,
  });
  if (!unit?.thermostatId) return null;
  const { thermostatId } = unit;
  const start = await occupancyRunStarter({ orgId: by.orgId, unit, by });
  const db = await getDb();
  const runId = await db.transaction(async (tx) => {
    // The unit first, as a change of its state takes it: a change meanwhile is seen below.
    const [locked] = await tx
      .select({ thermostatId: units.thermostatId, state: unitOccupancy.state })
      .from(units)
      .leftJoin(unitOccupancy, eq(unitOccupancy.unitId, units.id))
      .where(eq(units.id, unit.id))
      .for('update', { of: units });
    const [arrival] = await tx
      .update(unitThermostats)
      .set({ settledAt: new Date() })
      .where(
        and(
          eq(unitThermostats.unitId, unit.id),
          eq(unitThermostats.thermostatId, thermostatId),
          isNull(unitThermostats.untilAt),
          isNull(unitThermostats.settledAt),
        ),
      )
      .returning({ fromAt: unitThermostats.fromAt });
    if (!arrival || locked?.thermostatId !== thermostatId) return null;
    // The state read before the lock is still the unit's, and no run since the thermostat came
    // in (a change of state's) already puts it in its settings.
    if ((locked.state ?? 'occupied') !== unit.occupancy.state) return null;
    const [since] = await tx
      .select({ id: bulkRuns.id })
      .from(bulkRuns)
      .where(
        and(
          eq(bulkRuns.orgId, by.orgId),
          eq(bulkRuns.kind, 'occupancy'),
          sql`${bulkRuns.changes} ->> 'unitId' = ${unit.id}`,
          gte(bulkRuns.createdAt, arrival.fromAt),
        ),
      )
      .limit(1);
    if (since || !start) return null;
    return start(unit.occupancy, tx);
  });
  if (runId) await queueRun(runId);
  return runId;
}
