import 'server-only';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import {
  COMFORT_HISTORY_MS,
  COMFORT_MARGIN_F,
  COMFORT_SUSTAIN_MS,
  FAILED_WRITES_WINDOW_MS,
  FREEZE_BELOW_F,
  MAINTENANCE_DUE_WITHIN_DAYS,
  MODE_PENDING_MS,
  OVERHEAT_ABOVE_F,
} from '@/lib/attention/conditions';
import { type FilterAttentionKind, type GroupFilter, parseStoredFilter } from '@/lib/groups/filter';
import { STATUS_FIELDS } from '@/lib/readings/building-rows-store';
import { type Database, getDb, rowsOf } from '@/lib/db/client';
import type { Scope } from '@/lib/db/scope';
import { thermostatGroups } from '@/lib/db/schema';
import { inBuildingsSql } from '@/lib/db/scope';

/**
 * Groups of thermostats (hand-picked, or a saved filter) and what they hold for a member: a
 * group belongs to the organisation, but resolves only to the thermostats in the asking member's
 * scope, so a building manager using a group gets only their buildings' thermostats of it.
 * Filters are evaluated here, in SQL, over the thermostats, their readings and the facts the
 * needs-attention conditions read, by the same thresholds (lib/attention/conditions.ts).
 */

export type Group = typeof thermostatGroups.$inferSelect;
/** A group as the list shows it: how many of its thermostats are in the member's scope. */
export type GroupListing = Group & { count: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether a value can be a group id at all (the database refuses a malformed uuid loudly). */
export const isGroupId = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);

// --- The filter as SQL (thermostats `t`, left-joined readings `r`) -------------------------------

const S = STATUS_FIELDS;
/** Escapes LIKE's wildcards, so a label is searched for as typed. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const sameThermostat = (alias: string) =>
  sql.raw(`${alias}.org_id = t.org_id and ${alias}.thermostat_id = t.thermostat_id`);
const ms = (value: number) => sql`(${value} * interval '1 millisecond')`;

/** A history point (`h`) outside the comfort band on the cold or hot side (lib/attention's bandBreach). */
function pointBreach(alias: string, side: 'cold' | 'hot'): SQL {
  const p = (column: string) => sql.raw(`${alias}.${column}`);
  const cold = sql`(${p('temperature')} is not null and ${p('hvac_mode')} is distinct from 'off'
    and ${p('desired_heat')} is not null and ${p('temperature')} < ${p('desired_heat')} - ${COMFORT_MARGIN_F})`;
  if (side === 'cold') return cold;
  return sql`(${p('temperature')} is not null and ${p('hvac_mode')} is distinct from 'off'
    and not coalesce(${cold}, false)
    and ${p('desired_cool')} is not null and ${p('temperature')} > ${p('desired_cool')} + ${COMFORT_MARGIN_F})`;
}

/** The latest reading outside the band on this side. */
function latestBreach(side: 'cold' | 'hot'): SQL {
  const cold = sql`(${S.temperature} is not null and ${S.hvacMode} is distinct from 'off'
    and ${S.desiredHeat} is not null and ${S.temperature} < ${S.desiredHeat} - ${COMFORT_MARGIN_F})`;
  if (side === 'cold') return cold;
  return sql`(${S.temperature} is not null and ${S.hvacMode} is distinct from 'off'
    and not coalesce(${cold}, false)
    and ${S.desiredCool} is not null and ${S.temperature} > ${S.desiredCool} + ${COMFORT_MARGIN_F})`;
}

/**
 * Too cold or too hot: online, neither freezing nor overheating, the latest reading outside the
 * band, and the unbroken run of history points outside it the same way (within the history read)
 * going back at least COMFORT_SUSTAIN_MS before it (lib/attention's breachSince).
 */
function sustainedBreach(side: 'cold' | 'hot', now: Date): SQL {
  const from = sql`(${now.toISOString()}::timestamptz - ${ms(COMFORT_HISTORY_MS)})`;
  const lastInBand = sql`(select max(h2.at) from reading_history h2
    where ${sameThermostat('h2')} and h2.at >= ${from} and h2.at < r.read_at
      and not coalesce(${pointBreach('h2', side)}, false))`;
  const since = sql`coalesce((select min(h.at) from reading_history h
    where ${sameThermostat('h')} and h.at >= ${from} and h.at < r.read_at
      and h.at > coalesce(${lastInBand}, '-infinity'::timestamptz)), r.read_at)`;
  return sql`(r.read_at is not null and ${S.connected} is distinct from false
    and ${S.temperature} >= ${FREEZE_BELOW_F} and ${S.temperature} <= ${OVERHEAT_ABOVE_F}
    and coalesce(${latestBreach(side)}, false)
    and r.read_at - ${since} >= ${ms(COMFORT_SUSTAIN_MS)})`;
}

/** One needs-attention kind as a condition on a thermostat, as of `now`. */
function attentionSql(kind: FilterAttentionKind, now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  switch (kind) {
    case 'freeze':
      return sql`(r.read_at is not null and ${S.temperature} < ${FREEZE_BELOW_F})`;
    case 'overheat':
      return sql`(r.read_at is not null and ${S.temperature} > ${OVERHEAT_ABOVE_F})`;
    case 'too_cold':
      return sustainedBreach('cold', now);
    case 'too_hot':
      return sustainedBreach('hot', now);
    case 'offline':
      return sql`(r.read_at is not null and ${S.connected} is false)`;
    case 'mode_pending':
      // A mode Setpoint asked for, not shown by the latest reading that long after.
      return sql`(r.read_at is not null and exists (select 1 from pending_mode_changes p
        where ${sameThermostat('p')} and p.mode is distinct from ${S.hvacMode}
          and r.read_at - p.since >= ${ms(MODE_PENDING_MS)}))`;
    case 'failed_writes':
      return sql`exists (select 1 from activity_log f
        where ${sameThermostat('f')} and f.outcome in ('failure', 'unconfirmed')
          and f.at > ${at} - ${ms(FAILED_WRITES_WINDOW_MS)}
          and not exists (select 1 from activity_log s
            where s.org_id = f.org_id and s.thermostat_id = f.thermostat_id
              and s.action = f.action and s.outcome = 'success' and s.at > f.at))`;
    case 'maintenance':
      // Due within the window or overdue, by the date in the building's zone (UTC when the
      // database does not know the zone, as lib/attention's dateIn falls back).
      return sql`exists (select 1 from maintenance_reminders m
        left join buildings b on b.org_id = t.org_id and b.building_id = t.building_id
        where ${sameThermostat('m')} and m.enabled is true and m.next_reminder_date is not null
          and m.next_reminder_date - (${at} at time zone (case
            when b.time_zone in (select name from pg_timezone_names) then b.time_zone
            else 'UTC' end))::date <= ${MAINTENANCE_DUE_WITHIN_DAYS})`;
  }
}

/** A saved filter as one condition on `t` and `r`. */
export function filterSql(filter: GroupFilter, now: Date): SQL {
  const conditions: SQL[] = [];
  if (filter.buildingIds) {
    conditions.push(
      sql`t.building_id in (${sql.join(
        filter.buildingIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  if (filter.label) conditions.push(sql`t.unit_label ilike ${likePattern(filter.label)}`);
  if (filter.connection === 'online') conditions.push(sql`${S.connected} is true`);
  if (filter.connection === 'offline') conditions.push(sql`${S.connected} is false`);
  if (filter.connection === 'unread') {
    conditions.push(sql`(r.status is null or r.failure is not null)`);
  }
  if (filter.resident === 'on') conditions.push(sql`${S.isResidentMode} is true`);
  if (filter.resident === 'off') conditions.push(sql`${S.isResidentMode} is false`);
  if (filter.attention) {
    conditions.push(
      sql`(${sql.join(
        filter.attention.map((kind) => attentionSql(kind, now)),
        sql` or `,
      )})`,
    );
  }
  return conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
}

/** What a group holds, as a condition on `t` and `r`: its members, or its filter. */
function groupSql(group: Pick<Group, 'id' | 'filter'>, now: Date): SQL {
  if (group.filter === null) {
    return sql`exists (select 1 from thermostat_group_members g
      where g.group_id = ${group.id}::uuid and ${sameThermostat('g')})`;
  }
  const filter = parseStoredFilter(group.filter);
  // A filter this version cannot read matches nothing rather than everything.
  return filter ? filterSql(filter, now) : sql`false`;
}

/** The thermostats of the scope that a group holds: the FROM and WHERE. */
function groupSource(scope: Scope, group: Pick<Group, 'id' | 'filter'>, now: Date): SQL {
  return sql`from thermostats t
    left join readings r on r.org_id = t.org_id and r.thermostat_id = t.thermostat_id
    where t.org_id = ${scope.orgId}::uuid and ${inBuildingsSql(scope)}
      and ${groupSql(group, now)}`;
}

// --- Reading groups -----------------------------------------------------------------------------

/** The organisation's groups by name, each with how many of its thermostats are in scope. */
export async function listGroups(input: { scope: Scope; now?: Date }): Promise<GroupListing[]> {
  const db = await getDb();
  const now = input.now ?? new Date();
  const groups = await listGroupRows(db, input.scope);
  // One count per group: an organisation has tens of groups, not thousands.
  return Promise.all(
    groups.map(async (group) => ({
      ...group,
      count: await countGroup(db, input.scope, group, now),
    })),
  );
}

/** The organisation's groups, by name whatever its case. */
function listGroupRows(db: Database, scope: Scope): Promise<Group[]> {
  return db
    .select()
    .from(thermostatGroups)
    .where(eq(thermostatGroups.orgId, scope.orgId))
    .orderBy(asc(sql`lower(${thermostatGroups.name})`));
}

/** The ids of a group's thermostats in the scope, in natural unit order. */
async function listGroupThermostatIds(
  db: Database,
  scope: Scope,
  group: Pick<Group, 'id' | 'filter'>,
  now: Date,
): Promise<string[]> {
  const result = await db.execute(sql`select t.thermostat_id as "thermostatId"
    ${groupSource(scope, group, now)}
    order by t.unit_sort_key collate "C", t.thermostat_id`);
  return rowsOf<{ thermostatId: string }>(result).map((row) => row.thermostatId);
}

async function countGroup(db: Database, scope: Scope, group: Group, now: Date): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n ${groupSource(scope, group, now)}`);
  return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
}

/** One group of the organisation, or null (also for an id that cannot be one). */
export async function findGroup(input: { scope: Scope; groupId: unknown }): Promise<Group | null> {
  if (!isGroupId(input.groupId)) return null;
  const db = await getDb();
  const [row] = await db
    .select()
    .from(thermostatGroups)
    .where(
      and(eq(thermostatGroups.orgId, input.scope.orgId), eq(thermostatGroups.id, input.groupId)),
    );
  return row ?? null;
}

/** Whether another group of the organisation has this name, ignoring case. */
export async function isGroupNameTaken(input: {
  scope: Scope;
  name: string;
  exceptGroupId?: string;
}): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: thermostatGroups.id })
    .from(thermostatGroups)
    .where(
      and(
        eq(thermostatGroups.orgId, input.scope.orgId),
        sql`lower(${thermostatGroups.name}) = lower(${input.name})`,
        input.exceptGroupId
          ? sql`${thermostatGroups.id} <> ${input.exceptGroupId}::uuid`
          : undefined,
      ),
    );
  return row !== undefined;
}

/** A group's thermostat in the member's scope, as its page lists it. */
export type GroupThermostat = {
  thermostatId: string;
  unitLabel: string;
  buildingId: string;
  buildingName: string | null;
};

/**
 * The ids of the group's thermostats WITHIN the member's scope (a building manager gets only
 * their buildings' thermostats of it), in natural unit order; null when the organisation has no
 * such group. A filter is evaluated as of `now`.
 */
export async function resolveGroup(input: {
  scope: Scope;
  groupId: unknown;
  now?: Date;
}): Promise<string[] | null> {
  const group = await findGroup(input);
  if (!group) return null;
  return listGroupThermostatIds(await getDb(), input.scope, group, input.now ?? new Date());
}

/**
 * Every group of the organisation by name, each with the ids of its thermostats in the member's
 * scope (as resolveGroup gives them): for a selection form's group chooser.
 */
export async function resolveGroups(input: {
  scope: Scope;
  now?: Date;
}): Promise<{ groupId: string; name: string; thermostatIds: string[] }[]> {
  const db = await getDb();
  const now = input.now ?? new Date();
  const groups = await listGroupRows(db, input.scope);
  return Promise.all(
    groups.map(async (group) => ({
      groupId: group.id,
      name: group.name,
      thermostatIds: await listGroupThermostatIds(db, input.scope, group, now),
    })),
  );
}

/** The group's thermostats in scope with their labels and buildings, for its page. */
export async function listGroupThermostats(input: {
  scope: Scope;
  group: Pick<Group, 'id' | 'filter' | 'orgId'>;
  now?: Date;
}): Promise<GroupThermostat[]> {
  if (input.group.orgId !== input.scope.orgId) return [];
  const db = await getDb();
  const result = await db.execute(sql`select t.thermostat_id as "thermostatId",
      t.unit_label as "unitLabel", t.building_id as "buildingId",
      (select b.name from buildings b where b.org_id = t.org_id and b.building_id = t.building_id)
        as "buildingName"
    ${groupSource(input.scope, input.group, input.now ?? new Date())}
    order by t.unit_sort_key collate "C", t.thermostat_id`);
  return rowsOf<GroupThermostat>(result);
}

// --- Changing groups ----------------------------------------------------------------------------

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Makes the hand-picked members of a group exactly `thermostatIds` within the scope: those of the
 * scope not listed go, those listed join (only thermostats of the scope can); members outside the
 * scope stay as they were.
 */
async function replaceMembers(
  tx: Tx,
  input: { scope: Scope; groupId: string; thermostatIds: readonly string[] },
): Promise<void> {
  const { scope, groupId } = input;
  const ids = sql`array[${sql.join(
    [...new Set(input.thermostatIds)].map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  await tx.execute(sql`delete from thermostat_group_members g
    using thermostats t
    where g.group_id = ${groupId}::uuid and ${sameThermostat('g')} and ${inBuildingsSql(scope)}
      and not (g.thermostat_id = any(${ids}))`);
  if (input.thermostatIds.length === 0) return;
  await tx.execute(sql`insert into thermostat_group_members (group_id, org_id, thermostat_id)
    select ${groupId}::uuid, t.org_id, t.thermostat_id from thermostats t
    where t.org_id = ${scope.orgId}::uuid and ${inBuildingsSql(scope)}
      and t.thermostat_id = any(${ids})
    on conflict do nothing`);
}

const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown })?.code;
  const causeCode = (error as { cause?: { code?: unknown } })?.cause?.code;
  return code === '23505' || causeCode === '23505';
};

/**
 * A new group: hand-picked (`filter` null, members `thermostatIds` of the scope) or a saved
 * filter. Null when the organisation has a group of that name already (ignoring case).
 */
export async function createGroup(input: {
  scope: Scope;
  name: string;
  filter: GroupFilter | null;
  thermostatIds?: readonly string[];
  updatedByName: string;
}): Promise<Group | null> {
  const db = await getDb();
  try {
    return await db.transaction(async (tx) => {
      const [group] = await tx
        .insert(thermostatGroups)
        .values({
          orgId: input.scope.orgId,
          name: input.name,
          filter: input.filter,
          updatedByName: input.updatedByName,
        })
        .returning();
      if (!group) throw new Error('the new group was not returned');
      if (input.filter === null) {
        await replaceMembers(tx, {
          scope: input.scope,
          groupId: group.id,
          thermostatIds: input.thermostatIds ?? [],
        });
      }
      return group;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/**
 * Renames a group and, for a saved filter, replaces the filter; for a hand-picked group,
 * `thermostatIds` (when given) become its members within the scope. `renamed: false` when the
 * name is another group's; null when the organisation has no such group. A group keeps its kind.
 */
export async function updateGroup(input: {
  scope: Scope;
  groupId: string;
  name: string;
  filter?: GroupFilter;
  thermostatIds?: readonly string[];
  updatedByName: string;
}): Promise<{ ok: true; group: Group } | { ok: false; reason: 'not_found' | 'name_taken' }> {
  if (!isGroupId(input.groupId)) return { ok: false, reason: 'not_found' };
  const db = await getDb();
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(thermostatGroups)
        .where(
          and(
            eq(thermostatGroups.orgId, input.scope.orgId),
            eq(thermostatGroups.id, input.groupId),
          ),
        )
        .for('update');
      if (!current) return { ok: false as const, reason: 'not_found' as const };
      const handPicked = current.filter === null;
      const [group] = await tx
        .update(thermostatGroups)
        .set({
          name: input.name,
          filter: handPicked ? null : (input.filter ?? current.filter),
          updatedByName: input.updatedByName,
          updatedAt: new Date(),
        })
        .where(eq(thermostatGroups.id, current.id))
        .returning();
      if (!group) return { ok: false as const, reason: 'not_found' as const };
      if (handPicked && input.thermostatIds) {
        await replaceMembers(tx, {
          scope: input.scope,
          groupId: group.id,
          thermostatIds: input.thermostatIds,
        });
      }
      return { ok: true as const, group };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'name_taken' };
    throw error;
  }
}

/** Sets a hand-picked group's members within the scope (see updateGroup); false: no such group. */
export async function setGroupMembers(input: {
  scope: Scope;
  groupId: string;
  thermostatIds: readonly string[];
}): Promise<boolean> {
  const group = await findGroup(input);
  if (!group || group.filter !== null) return false;
  const db = await getDb();
  await db.transaction((tx) => replaceMembers(tx, { ...input, groupId: group.id }));
  return true;
}

/** Deletes a group of the organisation; what it was, or null when there was none. */
export async function deleteGroup(input: {
  scope: Scope;
  groupId: unknown;
}): Promise<Group | null> {
  if (!isGroupId(input.groupId)) return null;
  const db = await getDb();
  const [row] = await db
    .delete(thermostatGroups)
    .where(
      and(eq(thermostatGroups.orgId, input.scope.orgId), eq(thermostatGroups.id, input.groupId)),
    )
    .returning();
  return row ?? null;
}
