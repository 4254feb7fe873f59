import { z } from 'zod';
import { HVAC_MODES, thermostatIdSchema } from '@/lib/service/schemas';

/**
 * Creating a thermostat in a building at the service: the form's fields and their schema, shared
 * by the server action that reads them and the form that shows their errors.
 */

export const NEW_THERMOSTAT_FIELDS = [
  'name',
  'thermostatId',
  'hvacMode',
  'isResidentMode',
  'confirm',
] as const;
export type NewThermostatField = (typeof NEW_THERMOSTAT_FIELDS)[number];

export const newThermostatSchema = z.object({
  name: z
    .string('Enter the label as text.')
    .trim()
    .min(1, 'Name the thermostat, e.g. its unit (“Unit 4B”).')
    .max(64, 'Use at most 64 characters.'),
  thermostatId: z.union([z.literal(''), thermostatIdSchema], 'A thermostat id is 12 digits.'),
  hvacMode: z.enum(HVAC_MODES, 'Choose a mode.'),
  isResidentMode: z.enum(['on', 'off'], 'Choose whether resident mode is on.'),
  confirm: z.literal('yes', 'Confirm that a new thermostat is to be registered at the service.'),
});
