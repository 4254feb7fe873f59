import 'server-only';
import { listReadings, type StoredReading } from '@/lib/db/readings';
import type { Scope } from '@/lib/db/queries';
import {
  describeServiceError,
  ServiceError,
  type ServiceErrorKind,
} from '@/lib/thermostat-api/errors';
import type { ThermostatStatus } from '@/lib/thermostat-api/schemas';
import { freshnessTargetMs, parseStoredStatus, type Reading, refreshReading } from './read';
import type { BuildingRow, RowReading } from './row-types';

export type { BuildingRow, RowReading };

/**
 * A building's rows for its table, from the readings store at once: a fresh reading is a value
 * (its row is in the first HTML); a stale or missing one, or one a member asked to refresh, is
 * read again now at page priority and streams in, with the last known value shown meanwhile.
 */
export async function buildingRows(input: {
  scope: Scope;
  buildingId: string;
  thermostats: { thermostatId: string; unitLabel: string }[];
}): Promise<BuildingRow[]> {
  const stored = new Map(
    (await listReadings({ scope: input.scope, buildingId: input.buildingId })).map((reading) => [
      reading.thermostatId,
      reading,
    ]),
  );
  const freshSince = Date.now() - freshnessTargetMs();
  return input.thermostats.map((thermostat) => {
    const reading = stored.get(thermostat.thermostatId);
    const last = reading ? storedRow(reading) : undefined;
    const fresh =
      reading?.readAt &&
      reading.readAt.getTime() >= freshSince &&
      !(reading.wantedAt && reading.wantedAt > reading.triedAt);
    if (fresh && last) return { ...thermostat, reading: last };
    return {
      ...thermostat,
      last,
      reading: refreshReading({
        orgId: input.scope.orgId,
        thermostatId: thermostat.thermostatId,
        priority: 'page',
        last: reading
          ? { status: parseStoredStatus(reading.status), readAt: reading.readAt }
          : undefined,
      }).then(rowOf),
    };
  });
}

/** A stored reading as a row: the last good status (with why a newer read failed), if any. */
function storedRow(reading: StoredReading): RowReading | undefined {
  const status = parseStoredStatus(reading.status);
  if (!status || !reading.readAt) return undefined;
  return statusRow(status, reading.readAt, reading.failure ? failureWords(reading.failure) : null);
}

const failureWords = (kind: string) =>
  describeServiceError(new ServiceError(kind as ServiceErrorKind));

/** A fresh read as a row: its status, or the last known one with why this read failed. */
export function rowOf(reading: Reading): RowReading {
  if (reading.ok) return statusRow(reading.status, reading.readAt, null);
  const problem = describeServiceError(reading.error);
  if (reading.status && reading.readAt) return statusRow(reading.status, reading.readAt, problem);
  return { ok: false, readAt: new Date().toISOString(), error: problem };
}

function statusRow(status: ThermostatStatus, readAt: Date, problem: string | null): RowReading {
  return {
    ok: true,
    readAt: readAt.toISOString(),
    problem,
    temperature: status.temperature ?? null,
    humidity: status.humidity ?? null,
    hvacMode: status.hvacMode ?? null,
    pendingHvacMode: status.pendingHvacMode ?? null,
    desiredHeat: status.setPoint.desiredHeat,
    desiredCool: status.setPoint.desiredCool,
    isResidentMode: status.isResidentMode,
    connected: status.connected ?? null,
    lastSeen: status.lastSeen ?? null,
    comfortSetting: status.currentComfortSettingRef ?? null,
  };
}
