import { z } from 'zod';
import type { AlertSettings, ThresholdAlert } from '@/lib/service/schemas';

/**
 * The alert settings resource on the wire: the spec promises `hvacMaintenanceReminder`
 * (`acMaintenanceReminder` is gone in v2, and ignored if a service still sends it); the
 * threshold alerts are read where they are there. An id the service adds is not needed.
 */

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const threshold = z.looseObject({ enabled: z.boolean(), value: z.number().finite() });

export const alertSettingsSchema = z
  .looseObject({
    hvacMaintenanceReminder: z.looseObject({
      enabled: z.boolean(),
      lastMaintenanceDate: z.string().nullable(),
      maintenanceInterval: z.number().finite(),
      maintenanceIntervalUnits: z.string().min(1),
      nextReminderDate: optional(z.string().nullable()),
    }),
    lowTemperatureAlert: optional(threshold),
    highTemperatureAlert: optional(threshold),
    lowHumidityAlert: optional(threshold),
    highHumidityAlert: optional(threshold),
  })
  .transform((wire): AlertSettings => {
    const reminder = wire.hvacMaintenanceReminder;
    const settings: AlertSettings = {
      hvacMaintenanceReminder: {
        enabled: reminder.enabled,
        lastMaintenanceDate: reminder.lastMaintenanceDate,
        maintenanceInterval: reminder.maintenanceInterval,
        maintenanceIntervalUnits: reminder.maintenanceIntervalUnits,
        nextReminderDate: reminder.nextReminderDate ?? null,
      },
    };
    for (const name of [
      'lowTemperatureAlert',
      'highTemperatureAlert',
      'lowHumidityAlert',
      'highHumidityAlert',
    ] as const) {
      const alert: ThresholdAlert | undefined = wire[name];
      if (alert) settings[name] = { enabled: alert.enabled, value: alert.value };
    }
    return settings;
  });
