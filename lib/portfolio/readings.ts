import 'server-only';
import type { RowReading } from '@/components/buildings/status-row';
import { describeServiceError } from '@/lib/thermostat-api/errors';
import { peekStatus, readStatus, type StatusReading } from './status-cache';

/**
 * A thermostat's status for the building table: only what it shows, never a throw. A fresh
 * reading already in the cache comes as a value, so the server renders its row at once.
 */
export function readRow(input: {
  orgId: string;
  thermostatId: string;
}): RowReading | Promise<RowReading> {
  const known = peekStatus(input);
  return known ? toRow(known) : readStatus(input).then(toRow);
}

function toRow(reading: StatusReading): RowReading {
  const readAt = reading.readAt.toISOString();
  if (!reading.ok) return { ok: false, readAt, error: describeServiceError(reading.error) };
  const { status } = reading;
  return {
    ok: true,
    readAt,
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
