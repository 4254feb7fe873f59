import 'server-only';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { thermostats } from './schema';

/**
 * Whose rows a query may touch: one organisation, and within it, for a building manager, only
 * their buildings (`buildingIds`; null means every building). `userId` is who is asking.
 */
export type Scope = { orgId: string; userId: string; buildingIds: readonly string[] | null };

/** One thermostat, or one building, of an organisation. */
export type ThermostatKey = { orgId: string; thermostatId: string };
export type BuildingKey = { orgId: string; buildingId: string };
/** The thermostats of a scope, narrowed to one building or to a list. */
export type ThermostatSelection = { scope: Scope; buildingId?: string; thermostatIds?: string[] };

// The conditions every query of a member's data shares, so that the scope reads the same in each
// file of lib/db.

/** A condition keeping `column` (a building id) inside the scope's buildings. */
export function inBuildings(column: PgColumn, scope: Scope): SQL | undefined {
  if (scope.buildingIds === null) return undefined;
  return scope.buildingIds.length > 0 ? inArray(column, [...scope.buildingIds]) : sql`false`;
}

/** The same condition in raw SQL, on thermostats under the alias `t` (true for every building). */
export function inBuildingsSql(scope: Scope): SQL {
  if (scope.buildingIds === null) return sql`true`;
  if (scope.buildingIds.length === 0) return sql`false`;
  return sql`t.building_id in (${sql.join(
    scope.buildingIds.map((id) => sql`${id}`),
    sql`, `,
  )})`;
}

/** Joins a row about one thermostat (a reading, a history point) to the thermostat itself. */
export const thermostatOf = (row: { orgId: PgColumn; thermostatId: PgColumn }): SQL | undefined =>
  and(eq(thermostats.orgId, row.orgId), eq(thermostats.thermostatId, row.thermostatId));
