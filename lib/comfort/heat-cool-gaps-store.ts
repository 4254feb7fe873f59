import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { readings, thermostats } from '@/lib/db/schema';
import { inBuildings, type Scope, thermostatOf } from '@/lib/db/scope';

/**
 * Each thermostat's minimum heat–cool gap as the readings store last saw it in its status: what
 * a change to many thermostats' ranges is checked against (lib/settings/configuration.ts).
 */

/** A thermostat's own minimum gap (°F); null where no status of it is kept yet. */
export type HeatCoolGap = { thermostatId: string; gap: number | null };

/** The gaps of the thermostats in scope (these ids, or all of them), one row each. */
export async function listHeatCoolGaps(input: {
  scope: Scope;
  thermostatIds?: readonly string[];
}): Promise<HeatCoolGap[]> {
  if (input.thermostatIds?.length === 0) return [];
  const db = await getDb();
  const { scope } = input;
  const delta = sql`${readings.status} -> 'heatCoolMinDelta'`;
  const rows = await db
    .select({
      thermostatId: thermostats.thermostatId,
      gap: sql<
        number | string | null
      >`case when jsonb_typeof(${delta}) = 'number' then (${delta})::float8 end`,
    })
    .from(thermostats)
    .leftJoin(readings, thermostatOf(readings))
    .where(
      and(
        eq(thermostats.orgId, scope.orgId),
        inBuildings(thermostats.buildingId, scope),
        input.thermostatIds
          ? inArray(thermostats.thermostatId, [...input.thermostatIds])
          : undefined,
      ),
    );
  return rows.map((row) => ({
    thermostatId: row.thermostatId,
    gap: row.gap === null ? null : Number(row.gap),
  }));
}
