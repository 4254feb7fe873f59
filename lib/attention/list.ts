import 'server-only';
import {
  type BandHistoryPoint,
  countReminderChecks,
  listAttentionRows,
  listBandHistory,
  listFailedWrites,
} from '@/lib/attention/store';
import { countDriftChecks, listDrift } from '@/lib/templates/drift-store';
import type { Scope } from '@/lib/db/scope';
import { getConnectionSummary } from '@/lib/service/connection/connection';
import { pollFreshness } from '@/lib/readings/poller';
import { freshnessTargetMs, parseStoredStatus } from '@/lib/readings/read';
import type { ThermostatStatus } from '@/lib/service/schemas';
import type { SlowChecks } from './checks';
import {
  type AttentionItem,
  bandBreach,
  COMFORT_HISTORY_MS,
  compareUrgency,
  connectionCondition,
  FAILED_WRITES_WINDOW_MS,
  FREEZE_BELOW_F,
  OVERHEAT_ABOVE_F,
  thermostatConditions,
} from './conditions';
import { TITLES } from './words';
import { unsettledVacantUnits } from '@/lib/units/settings';
import { listPassedMoveOuts } from '@/lib/units/store';

/**
 * An item as a page lists it: with the thermostat's label, its building's name and time zone
 * (for a date its people read, such as the day maintenance was done).
 */
export type ListedItem = AttentionItem & {
  label: string | null;
  buildingName: string | null;
  timeZone?: string | null;
};

export type Freshness = Awaited<ReturnType<typeof pollFreshness>>;

/**
 * Everything that needs attention in the member's scope, most urgent first: the conditions of
 * lib/attention/conditions.ts over what the database holds (no service call). A few queries,
 * whatever the fleet's size: every thermostat's reading and kept facts in one, the failed writes
 * in one, and history only for the thermostats now outside their comfort band.
 */
export async function listAttention(input: {
  scope: Scope;
  now?: Date;
  /** Only this building's thermostats (and no item about the whole organisation). */
  buildingId?: string;
}): Promise<{ items: ListedItem[]; freshness: Freshness }> {
  const now = input.now ?? new Date();
  const { scope, buildingId } = input;
  const [rows, connection, freshness, failed, drift, unsettled, passed] = await Promise.all([
    listAttentionRows({ scope, buildingId }),
    getConnectionSummary(scope.orgId),
    pollFreshness(),
    listFailedWrites({ scope, since: new Date(now.getTime() - FAILED_WRITES_WINDOW_MS) }),
    listDrift({ scope }),
    unsettledVacantUnits({ scope, buildingId }),
    listPassedMoveOuts({ scope, buildingId, now }),
  ]);
  const statuses = new Map<string, ThermostatStatus | null>(
    rows.map((row) => [row.thermostatId, row.status ? parseStoredStatus(row.status) : null]),
  );

  // History only where the band may be broken: an online thermostat outside it now.
  const candidates = rows.flatMap((row) => {
    const status = statuses.get(row.thermostatId);
    if (!status || !row.readAt || status.connected === false) return [];
    const temperature = status.temperature;
    if (typeof temperature !== 'number') return [];
    if (temperature < FREEZE_BELOW_F || temperature > OVERHEAT_ABOVE_F) return [];
    const breach = bandBreach({
      at: row.readAt,
      temperature,
      desiredHeat: status.setPoint.desiredHeat,
      desiredCool: status.setPoint.desiredCool,
      hvacMode: status.hvacMode ?? null,
    });
    return breach ? [row.thermostatId] : [];
  });
  const history = new Map<string, BandHistoryPoint[]>();
  for (const point of await listBandHistory({
    scope,
    thermostatIds: candidates,
    since: new Date(now.getTime() - COMFORT_HISTORY_MS),
  })) {
    const points = history.get(point.thermostatId) ?? [];
    points.push(point);
    history.set(point.thermostatId, points);
  }
  const failedBy = new Map(failed.map((entry) => [entry.thermostatId, entry]));
  const driftBy = new Map(
    drift.map(({ thermostatId, templateId, templateName, differs, since }) => [
      thermostatId,
      { templateId, templateName, differs, since },
    ]),
  );

  const fleet = {
    now,
    connection: connection && {
      status: connection.status,
      refreshTokenExpiresAt: connection.refreshTokenExpiresAt,
      refreshTokenExpiresSoon: connection.refreshTokenExpiresSoon,
    },
    freshness,
  };
  const items: ListedItem[] = rows.flatMap((row) =>
    thermostatConditions(
      {
        thermostatId: row.thermostatId,
        buildingId: row.buildingId,
        timeZone: row.timeZone ?? 'UTC',
        addedAt: row.addedAt,
        reading: row.readAt
          ? {
              status: statuses.get(row.thermostatId) ?? null,
              readAt: row.readAt,
              failure: row.failure,
            }
          : row.failure
            ? { status: null, readAt: null, failure: row.failure }
            : null,
        offlineSince: row.offlineSince ? new Date(row.offlineSince) : null,
        seenConnected: row.seenConnected,
        history: history.get(row.thermostatId) ?? [],
        pending:
          row.pendingMode && row.pendingSince
            ? { mode: row.pendingMode, since: row.pendingSince }
            : null,
        reminder:
          row.reminderEnabled === null
            ? null
            : { enabled: row.reminderEnabled, nextReminderDate: row.nextReminderDate },
        failed: failedBy.get(row.thermostatId) ?? null,
        drift: driftBy.get(row.thermostatId) ?? null,
      },
      fleet,
    ).map((item) => ({
      ...item,
      label: row.unitLabel || row.thermostatId,
      buildingName: row.buildingName,
      timeZone: row.timeZone,
    })),
  );
  for (const { unit, why, runId, since } of unsettled) {
    items.push({
      kind: 'vacant_unsettled',
      thermostatId: unit.thermostatId ?? '',
      buildingId: unit.buildingId,
      unitId: unit.id,
      state: unit.occupancy.state === 'make_ready' ? 'make_ready' : 'vacant',
      detail: why,
      runId,
      since,
      label: unit.label,
      buildingName: unit.buildingName,
      timeZone: unit.timeZone,
    });
  }
  for (const unit of passed) {
    items.push({
      kind: 'move_out_passed',
      thermostatId: unit.thermostatId ?? '',
      buildingId: unit.buildingId,
      unitId: unit.id,
      moveOutOn: unit.occupancy.moveOutOn,
      since: null,
      label: unit.label,
      buildingName: unit.buildingName,
      timeZone: unit.timeZone,
    });
  }
  if (buildingId) {
    items.sort(compareUrgency((item) => item.label ?? ''));
    return { items, freshness };
  }
  const whole = connectionCondition({
    connection: fleet.connection,
    hasThermostats: rows.length > 0,
  });
  if (whole) items.push({ ...whole, label: null, buildingName: null });
  items.sort(compareUrgency((item) => `${item.buildingName ?? ''}\u0000${item.label ?? ''}`));
  return { items, freshness };
}

/**
 * The thermostats of one building that need attention, each with its items' titles, most urgent
 * first ("Offline", "Maintenance overdue"): what the building's table flags and filters by, by
 * the same rules as Needs attention.
 */
export async function attentionByThermostat(input: {
  scope: Scope;
  buildingId: string;
  now?: Date;
}): Promise<Map<string, string[]>> {
  const { items } = await listAttention(input);
  const titles = new Map<string, string[]>();
  for (const item of items) {
    if (item.thermostatId === null) continue;
    titles.set(item.thermostatId, [...(titles.get(item.thermostatId) ?? []), TITLES[item.kind]]);
  }
  return titles;
}

/**
 * How far the slow checks have come in the member's scope (lib/attention/checks.ts words it):
 * two counts, no service call.
 */
export async function slowCheckProgress(input: { scope: Scope }): Promise<SlowChecks> {
  const [maintenance, templates] = await Promise.all([
    countReminderChecks(input),
    countDriftChecks(input),
  ]);
  return { maintenance, templates, background: freshnessTargetMs() > 0 };
}
