import type { Apply } from '@/lib/bulk/kind';
import type { BulkResult } from '@/lib/service/schemas';

/** The service as a bulk run's worker calls it: every thermostat applied but those in `failing`. */
export const applyAllBut =
  (...failing: string[]): Apply =>
  async ({ thermostatIds }) => {
    const results = thermostatIds.map((thermostatId) =>
      failing.includes(thermostatId)
        ? { thermostatId, status: 'error' as const, code: 'thermostat_offline', message: null }
        : { thermostatId, status: 'success' as const },
    );
    return { results } satisfies BulkResult;
  };
