'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { openAction, refusedTo } from '@/lib/access/actions';
import { logActivity } from '@/lib/activity/sink';
import { withNotice } from '@/lib/platform/notice';
import { disconnect } from '@/lib/service/connection/connection';

/** Forgets the organisation's service tokens. The service account itself is untouched. */
export async function disconnectService(): Promise<void> {
  const opened = await openAction('manage_connection');
  if (!opened.ok) redirect(await refusedTo('/connection', opened));
  const { member } = opened;
  if (await disconnect(member.orgId)) {
    await logActivity({
      actor: member,
      action: 'connection.disconnect',
      summary: 'Disconnected the thermostat service account',
    });
  }
  revalidatePath('/', 'layout');
  redirect(withNotice('/connection', member, 'disconnected'));
}
