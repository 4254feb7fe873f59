'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { logActivity } from '@/lib/activity';
import { requireUser } from '@/lib/auth/session';
import { addThermostat, findBuilding } from '@/lib/db/queries';
import { type FormState, fieldErrorsOf } from '@/lib/forms';
import { rememberStatus } from '@/lib/portfolio/status-cache';
import { describeServiceError, ServiceError } from '@/lib/thermostat-api/errors';
import { createThermostat } from '@/lib/thermostat-api/resources';
import { buildingIdSchema, HVAC_MODES, thermostatIdSchema } from '@/lib/thermostat-api/schemas';

export type NewThermostatField = 'name' | 'thermostatId' | 'hvacMode' | 'isResidentMode';

const newThermostatSchema = z.object({
  name: z.string('Enter the label as text.').trim().max(64, 'Use at most 64 characters.'),
  thermostatId: z.union([z.literal(''), thermostatIdSchema], 'A thermostat id is 12 digits.'),
  hvacMode: z.enum(HVAC_MODES, 'Choose a mode.'),
  isResidentMode: z.enum(['on', 'off'], 'Choose whether resident mode is on.'),
});

/** Creates a thermostat in the building at the service, and adds it to the portfolio. */
export async function createThermostatInBuilding(
  buildingId: string,
  _previous: FormState<NewThermostatField>,
  form: FormData,
): Promise<FormState<NewThermostatField>> {
  const user = await requireUser();
  const id = buildingIdSchema.safeParse(buildingId);
  const building = id.success ? await findBuilding({ userId: user.id, buildingId: id.data }) : null;
  if (!building) return { status: 'error', message: 'That building is not in your portfolio.' };

  const fields = ['name', 'thermostatId', 'hvacMode', 'isResidentMode'] as const;
  // A file where text belongs fails the schema as it is, instead of becoming "[object File]".
  const posted = Object.fromEntries(fields.map((key) => [key, form.get(key) ?? '']));
  const raw = Object.fromEntries(
    fields.map((key) => {
      const value = form.get(key);
      return [key, typeof value === 'string' ? value : ''];
    }),
  );
  const parsed = newThermostatSchema.safeParse(posted);
  if (!parsed.success)
    return { status: 'error', fieldErrors: fieldErrorsOf(parsed.error), values: raw };
  const { name, thermostatId, hvacMode, isResidentMode } = parsed.data;
  const request = {
    isResidentMode: isResidentMode === 'on',
    name,
    hvacMode,
    ...(thermostatId ? { thermostatId } : {}),
  };

  let createdId: string;
  try {
    const status = await createThermostat({
      userId: user.id,
      buildingId: building.buildingId,
      thermostat: request,
    });
    createdId = status.thermostatId;
    await addThermostat({
      userId: user.id,
      thermostatId: createdId,
      buildingId: building.buildingId,
      unitLabel: name,
    });
    rememberStatus({ userId: user.id, status });
    await logActivity({
      user,
      action: 'create_thermostat',
      thermostatId: createdId,
      buildingId: building.buildingId,
      summary: `Created ${name || createdId} in ${building.name}`,
      changes: request,
    });
  } catch (error) {
    await logActivity({
      user,
      action: 'create_thermostat',
      buildingId: building.buildingId,
      summary: `Failed to create ${name || 'a thermostat'} in ${building.name}`,
      changes: request,
      error,
    });
    const fieldErrors =
      error instanceof ServiceError
        ? Object.fromEntries(
            Object.entries(error.fieldErrors).map(([field, message]) => [field, [message]]),
          )
        : {};
    return { status: 'error', message: describeServiceError(error), fieldErrors, values: raw };
  }
  revalidatePath('/', 'layout');
  redirect(`/thermostats/${createdId}`);
}
