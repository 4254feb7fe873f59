import { z } from 'zod';
import { type AccessControl, LOCK_AREAS } from '@/lib/service/schemas';

/**
 * The access control resource on the wire. The spec lists no read; a write's answer, where the
 * service sends one, is read as what it says is in force. The passcode never comes back: the
 * service shows only whether one is set (`"****"`), and Setpoint keeps no more than that.
 */

export const accessControlSchema = z
  .looseObject({
    enabled: z.boolean(),
    passcode: z.string().nullable().optional(),
    settings: z.record(z.string(), z.unknown()).optional(),
  })
  .transform(
    (wire): AccessControl => ({
      enabled: wire.enabled,
      passcodeSet: typeof wire.passcode === 'string' && wire.passcode !== '',
      settings: Object.fromEntries(
        LOCK_AREAS.map((area) => [area, wire.settings?.[area] === true]),
      ) as AccessControl['settings'],
    }),
  );
