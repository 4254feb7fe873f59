import type { ServiceErrorKind } from '@/lib/service/errors';

/** The fields of a thermostat's status that its building row shows, and what Setpoint adds. */
export type RowStatus = {
  temperature: number | null;
  humidity: number | null;
  hvacMode: string | null;
  desiredHeat: number | null;
  desiredCool: number | null;
  isResidentMode: boolean | null;
  connected: boolean | null;
  comfortSetting: string | null;
  /** Offline: since when, as far as Setpoint's readings tell (its last reading online). */
  offlineSince: Date | null;
  /**
   * Whether Setpoint saw it connected at `offlineSince`; else that is when Setpoint first read it
   * offline, and it may have gone quiet long before ("since at least").
   */
  offlineSeen: boolean;
  /** A mode Setpoint asked for that the readings do not show yet. */
  pendingHvacMode: string | null;
};

/** What Setpoint knows of a thermostat: its last good status and when, and whether a newer read failed. */
export type RowReading = {
  /** The last good status; null when it was never read. */
  status: RowStatus | null;
  /** When `status` was read. */
  readAt: Date | null;
  /** Why the last attempt to read it failed; null when it did not. */
  problem: ServiceErrorKind | null;
};

/**
 * A row of a building's table: what the store knew when the page was drawn, and, for a row
 * being read again now, the newer reading on its way (the row streams in when it comes).
 */
export type BuildingRow = {
  thermostatId: string;
  unitLabel: string;
  /** What it needs attention for (the items' titles, most urgent first); none when empty. */
  attention?: readonly string[];
  known: RowReading;
  fresh: Promise<RowReading> | null;
};
