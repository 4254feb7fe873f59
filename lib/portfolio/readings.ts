import 'server-only';
import type { RowReading } from '@/components/buildings/status-row';
import { describeServiceError } from '@/lib/thermostat-api/errors';
import { readStatus } from './status-cache';

/** A thermostat's status for the building table: only what it shows, never a throw. */
export async function readRow(input: {
  userId: string;
  thermostatId: string;
}): Promise<RowReading> {
  const reading = await readStatus(input);
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
