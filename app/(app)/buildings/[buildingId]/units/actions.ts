'use server';

import { revalidatePath } from 'next/cache';
import { openBuilding } from '@/lib/access/actions';
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
