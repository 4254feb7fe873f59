/** A thermostat's status as the building table shows it (serialisable, no secrets). */
export type RowReading =
  | {
      ok: true;
      /** When this status was read. */
      readAt: string;
      /** Why a newer read failed, when this is the last one known. */
      problem: string | null;
      temperature: number | null;
      humidity: number | null;
      hvacMode: string | null;
      pendingHvacMode: string | null;
      desiredHeat: number;
      desiredCool: number;
      isResidentMode: boolean;
      connected: boolean | null;
      lastSeen: string | null;
      comfortSetting: string | null;
    }
  | { ok: false; readAt: string; error: string };

/**
 * A reading already known on the server comes as a value; one being read again, as a promise,
 * with the last one known (if any) to show meanwhile.
 */
export type BuildingRow = {
  thermostatId: string;
  unitLabel: string;
  reading: RowReading | Promise<RowReading>;
  last?: RowReading;
};
