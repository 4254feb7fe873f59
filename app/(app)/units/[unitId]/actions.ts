'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import type { FormState } from '@/lib/platform/forms';
import { runPath } from '@/lib/runs/requests';
import { applyUnitSettings } from '@/lib/units/settings';
import { changeOccupancy, type OccupancyState, readOccupancyForm } from '@/lib/units/change';
import { editUnit, type UnitEditState } from '@/lib/units/edit';
import { openUnit } from '@/lib/units/open';
import { buildingUnitsPath, unitPath } from '@/lib/units/paths';
import { type ReplaceState, replaceUnitThermostat } from '@/lib/units/replace';

/** Records what happened to a unit (its id bound by the page, so checked again here). */
export async function recordOccupancy(
  unitId: string,
  _previous: OccupancyState,
  form: FormData,
): Promise<OccupancyState> {
  const opened = await openUnit(unitId, 'change_occupancy');
  if (!opened.ok) return opened.state;
  const { member, unit } = opened;
  const read = readOccupancyForm(form, unit);
  if (!read.ok) return read.state;
  const state = await changeOccupancy({ member, unit, event: read.event });
  revalidatePath(unitPath(unit));
  revalidatePath(buildingUnitsPath(unit));
  return state;
}

/** Puts another thermostat in the unit (confirmed on its page); the old one leaves. */
export async function replaceThermostatAction(
  unitId: string,
  _previous: ReplaceState,
  form: FormData,
): Promise<ReplaceState> {
  const opened = await openUnit(unitId, 'manage_portfolio');
  if (!opened.ok) return opened.state;
  const { member, unit } = opened;
  const state = await replaceUnitThermostat({
    member,
    unit,
    thermostatId: form.get('thermostatId'),
  });
  revalidatePath(unitPath(unit));
  revalidatePath(buildingUnitsPath(unit));
  revalidatePath(`/buildings/${unit.buildingId}`);
  return state;
}

/** Saves a unit's label (its thermostat's too) and external id (building managers and up). */
export async function saveUnit(
  unitId: string,
  _previous: UnitEditState,
  form: FormData,
): Promise<UnitEditState> {
  const opened = await openUnit(unitId, 'manage_building');
  if (!opened.ok) return opened.state;
  const { member, unit } = opened;
  const state = await editUnit({ member, unit, form });
  revalidatePath(unitPath(unit));
  revalidatePath(buildingUnitsPath(unit));
  revalidatePath(`/buildings/${unit.buildingId}`);
  if (unit.thermostatId) revalidatePath(`/thermostats/${unit.thermostatId}`);
  return state;
}

/** Puts the unit's thermostat in its state's settings again (confirmed on its page). */
export async function applySettingsAction(
  unitId: string,
  _previous: FormState,
  _form: FormData,
): Promise<FormState> {
  const opened = await openUnit(unitId, 'change_occupancy');
  if (!opened.ok) return opened.state;
  const { member, unit } = opened;
  const started = await applyUnitSettings({ member, unit });
  if (!started.runId) return started;
  revalidatePath(unitPath(unit));
  redirect(runPath({ id: started.runId, kind: 'occupancy', changes: {} }));
}
