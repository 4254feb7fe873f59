'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { withNotice } from '@/lib/platform/notice';
import { openAction } from '@/lib/access/actions';
import type { FormState } from '@/lib/platform/forms';
import type { UnitsCsvState } from '@/lib/units/import';
import { importLeaseCsv, makeInbox, mapLeaseEvent } from '@/lib/units/manage-lease';

/** Makes the lease inbox a new address and secret (owners and admins); the secret shown once. */
export async function makeInboxAction(_previous: FormState, _form: FormData): Promise<FormState> {
  const opened = await openAction('manage_api_keys');
  if (!opened.ok) return opened.state;
  const state = await makeInbox(opened.member);
  revalidatePath('/lease-events');
  return state;
}

/** Records a CSV of lease events (owners and admins). */
export async function importLeaseCsvAction(
  _previous: UnitsCsvState,
  form: FormData,
): Promise<UnitsCsvState> {
  const opened = await openAction('manage_api_keys');
  if (!opened.ok) return opened.state;
  const state = await importLeaseCsv(opened.member, form);
  revalidatePath('/lease-events');
  return state;
}

/**
 * Gives a unit an unmatched event's external id, applying the events waiting for it; the page
 * comes back saying so (the event has left the list its form was in).
 */
export async function mapLeaseEventAction(
  _previous: FormState<'unitId'>,
  form: FormData,
): Promise<FormState<'unitId'>> {
  const opened = await openAction('manage_api_keys');
  if (!opened.ok) return opened.state;
  const { member } = opened;
  const mapped = await mapLeaseEvent(member, form);
  revalidatePath('/lease-events');
  if (!mapped.ok) return mapped.state;
  const { label, externalId, applied } = mapped;
  redirect(withNotice('/lease-events', member, 'leaseMapped', { label, externalId, applied }));
}
