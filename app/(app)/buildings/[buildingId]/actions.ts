'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { openBuilding } from '@/lib/access/actions';
import { logActivity } from '@/lib/activity/sink';
import { listOrganizationBuildings, listThermostats, updateBuilding } from '@/lib/portfolio/store';
import { markWanted } from '@/lib/readings/store';
import { type FormState, fieldErrorsOf } from '@/lib/platform/forms';

/** Asks for every reading of the building fresh: the page reads them again as it renders. */
export async function refreshBuilding(buildingId: string): Promise<void> {
  const opened = await openBuilding(buildingId, 'view');
  if (!opened.ok) return;
  const { member, building } = opened;
  const thermostats = await listThermostats({ scope: member, buildingId: building.buildingId });
  await markWanted({ orgId: member.orgId, thermostatIds: thermostats.map((t) => t.thermostatId) });
  revalidatePath(`/buildings/${building.buildingId}`);
}

const detailsSchema = z.object({
  name: z
    .string('Enter a name.')
    .trim()
    .min(1, 'Enter a name.')
    .max(32, 'Use at most 32 characters.')
    .regex(/^[\p{L}\p{N}\p{P}\p{Zs}]+$/u, 'Use printable characters only.'),
  address: z.string('Enter the address as text.').trim().max(200, 'Use at most 200 characters.'),
});

/** Renames a building and sets its address (Setpoint's own record; the service has neither). */
export async function updateBuildingDetails(
  buildingId: string,
  _previous: FormState<'name' | 'address'>,
  form: FormData,
): Promise<FormState<'name' | 'address'>> {
  const opened = await openBuilding(buildingId);
  if (!opened.ok) return opened.state;
  const { member, building } = opened;
  const posted = { name: form.get('name') ?? '', address: form.get('address') ?? '' };
  const values = {
    name: typeof posted.name === 'string' ? posted.name : '',
    address: typeof posted.address === 'string' ? posted.address : '',
  };
  // The posted values as they are: a file where text belongs is an error, not "[object File]".
  const parsed = detailsSchema.safeParse(posted);
  if (!parsed.success) return { status: 'error', fieldErrors: fieldErrorsOf(parsed.error), values };
  // Names are unique in the organisation, including buildings outside a manager's own.
  const taken = (await listOrganizationBuildings({ orgId: member.orgId })).some(
    (other) =>
      other.buildingId !== building.buildingId &&
      other.name.toLowerCase() === parsed.data.name.toLowerCase(),
  );
  if (taken) {
    return { status: 'error', fieldErrors: { name: ['Another building has this name.'] }, values };
  }
  await updateBuilding({ orgId: member.orgId, buildingId: building.buildingId, ...parsed.data });
  await logActivity({
    actor: member,
    action: 'building.update',
    buildingId: building.buildingId,
    summary:
      building.name === parsed.data.name
        ? `Changed the details of ${building.name}`
        : `Renamed ${building.name} to ${parsed.data.name}`,
    changes: { name: parsed.data.name, address: parsed.data.address },
  });
  revalidatePath('/', 'layout');
  return { status: 'success', message: 'Saved.', values: parsed.data };
}
