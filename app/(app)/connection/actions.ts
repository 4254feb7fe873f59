'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { requireUser } from '@/lib/auth/session';
import { disconnect } from '@/lib/oauth/connection';

/** Forgets the manager's service tokens. The service account itself is untouched. */
export async function disconnectService(): Promise<void> {
  const user = await requireUser();
  await disconnect(user.id);
  revalidatePath('/', 'layout');
  redirect('/connection?result=disconnected');
}
