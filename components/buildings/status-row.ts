/** A thermostat's live status as the building table shows it (serialisable, no secrets). */
export type RowReading =
  | {
      ok: true;
      readAt: string;
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

/** A reading already known on the server comes as a value; one still being read, as a promise. */
export type BuildingRow = {
  thermostatId: string;
  unitLabel: string;
  reading: RowReading | Promise<RowReading>;
};
