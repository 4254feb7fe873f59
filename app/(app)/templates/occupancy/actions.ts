'use server';

import { revalidatePath } from 'next/cache';
import { openAction } from '@/lib/access/actions';
import {
  type LeadState,
  type PolicyState,
  saveLeadForm,
  savePolicyForm,
} from '@/lib/units/manage-policies';

/** Saves the organisation's occupancy policy (owners and admins). */
export async function saveOrganisationPolicy(
  _previous: PolicyState,
  form: FormData,
): Promise<PolicyState> {
  const opened = await openAction('manage_policies');
  if (!opened.ok) return opened.state;
  const state = await savePolicyForm({
    member: opened.member,
    buildingId: '',
    whose: 'the organisation',
    form,
  });
  revalidatePath('/templates/occupancy');
  return state;
}

/** Saves how long before a scheduled move-in its thermostat is prepared (owners and admins). */
export async function saveMoveInLeadAction(
  _previous: LeadState,
  form: FormData,
): Promise<LeadState> {
  const opened = await openAction('manage_policies');
  if (!opened.ok) return opened.state;
  const state = await saveLeadForm({ member: opened.member, form });
  revalidatePath('/templates/occupancy');
  return state;
}
