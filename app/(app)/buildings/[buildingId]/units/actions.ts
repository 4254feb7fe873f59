'use server';

import { revalidatePath } from 'next/cache';
import { openBuilding } from '@/lib/access/actions';
import { can, refusal } from '@/lib/auth/permissions';
import { importUnits, readUnitsCsvForm, setsAState, type UnitsCsvState } from '@/lib/units/import';
import { buildingUnitsPath } from '@/lib/units/paths';
import { addUnit, type UnitEditState } from '@/lib/units/edit';
import { type PolicyState, savePolicyForm } from '@/lib/units/manage-policies';

/** Saves a building's own occupancy policy (owners and admins; the building in their scope). */
export async function saveBuildingPolicy(
  buildingId: string,
  _previous: PolicyState,
  form: FormData,
): Promise<PolicyState> {
  const opened = await openBuilding(buildingId, 'manage_policies');
  if (!opened.ok) return opened.state;
  const state = await savePolicyForm({
    member: opened.member,
    buildingId: opened.building.buildingId,
    whose: opened.building.name,
    form,
  });
  revalidatePath(`/buildings/${opened.building.buildingId}/units`);
  return state;
}

/**
 * Adds and changes a building's units from CSV (building managers and up): a line that sets a
 * state takes `change_occupancy` too, checked for the whole file before any line is written.
 */
export async function importUnitsCsv(
  buildingId: string,
  _previous: UnitsCsvState,
  form: FormData,
): Promise<UnitsCsvState> {
  const opened = await openBuilding(buildingId, 'manage_building');
  if (!opened.ok) return opened.state;
  const { member, building } = opened;
  const read = await readUnitsCsvForm(form);
  if (!read.ok) return read.state;
  if (setsAState(read.lines) && !can(member, 'change_occupancy', building)) {
    return { status: 'error', message: refusal(member.role, 'change_occupancy') };
  }
  const state = await importUnits({ member, building, lines: read.lines });
  revalidatePath(buildingUnitsPath(building));
  revalidatePath(`/buildings/${building.buildingId}`);
  return state;
}

/** Adds an empty unit to the building (building managers and up). */
export async function addUnitAction(
  buildingId: string,
  _previous: UnitEditState,
  form: FormData,
): Promise<UnitEditState> {
  const opened = await openBuilding(buildingId, 'manage_building');
  if (!opened.ok) return opened.state;
  const state = await addUnit({ member: opened.member, building: opened.building, form });
  revalidatePath(buildingUnitsPath(opened.building));
  return state;
}
