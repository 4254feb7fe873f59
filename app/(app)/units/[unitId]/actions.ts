'use server';

import { revalidatePath } from 'next/cache';
import { notYours } from '@/lib/access/not-yours';
import { openRecord } from '@/lib/access/actions';
import { changeOccupancy, type OccupancyState, readOccupancyForm } from '@/lib/units/change';
import { findUnit } from '@/lib/units/store';
import { unitIdSchema } from '@/lib/units/paths';

/** Records what happened to a unit (its id bound by the page, so checked again here). */
export async function recordOccupancy(
  unitId: string,
  _previous: OccupancyState,
  form: FormData,
): Promise<OccupancyState> {
  const opened = await openRecord(
    unitId,
    'change_occupancy',
    async (member, id) => {
      const parsed = unitIdSchema.safeParse(id);
      return parsed.success ? findUnit({ scope: member, unitId: parsed.data }) : null;
    },
    notYours('unit'),
  );
  if (!opened.ok) return opened.state;
  const { member, record: unit } = opened;
  const read = readOccupancyForm(form, unit);
  if (!read.ok) return read.state;
  const state = await changeOccupancy({ member, unit, event: read.event });
  revalidatePath(`/units/${unit.id}`);
  revalidatePath(`/buildings/${unit.buildingId}/units`);
  return state;
}
