import { z } from 'zod';
import type { ComfortSetting } from '@/lib/service/schemas';

/**
 * The comfort settings resource on the wire. The spec does not say whether a read returns one
 * setting or several: the sandbox answers with the list, and a single setting reads as a list
 * of one. Fan values are kept as the service gives them (`auto`, `on`, or one added since).
 */

const temperature = z.number().finite();

export const comfortSettingSchema = z
  .looseObject({
    comfortSettingRef: z.string().min(1),
    name: z.string(),
    desiredHeat: temperature,
    desiredCool: temperature,
    fanHeat: z.string(),
    fanCool: z.string(),
  })
  .transform(
    (wire): ComfortSetting => ({
      comfortSettingRef: wire.comfortSettingRef,
      name: wire.name,
      desiredHeat: wire.desiredHeat,
      desiredCool: wire.desiredCool,
      fanHeat: wire.fanHeat,
      fanCool: wire.fanCool,
    }),
  );

export const comfortSettingsSchema = z.union([
  z.array(comfortSettingSchema),
  comfortSettingSchema.transform((setting) => [setting]),
]);
