'use server';

import { revalidatePath } from 'next/cache';
import { requireUser } from '@/lib/auth/session';
import { listThermostats } from '@/lib/db/queries';
import { forgetStatuses } from '@/lib/portfolio/status-cache';
import { buildingIdSchema } from '@/lib/thermostat-api/schemas';

/** Reads every thermostat of the building from the service again, instead of the cache. */
export async function refreshBuilding(buildingId: string): Promise<void> {
  const user = await requireUser();
  const id = buildingIdSchema.safeParse(buildingId);
  if (!id.success) return;
  const thermostats = await listThermostats({ userId: user.id, buildingId: id.data });
  forgetStatuses({ userId: user.id, thermostatIds: thermostats.map((t) => t.thermostatId) });
  revalidatePath(`/buildings/${id.data}`);
}
