import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { notificationSubscriptions, users } from '@/lib/db/schema';

/**
 * A member's own reading preferences: the zone organisation-wide pages show times in and the
 * unit temperatures are read in. The zone their notification digest and quiet hours keep follows
 * it, in the same transaction, so a member has one clock.
 */
export async function savePreferences(input: {
  userId: string;
  timeZone: string;
  temperatureUnit: 'F' | 'C';
}): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ timeZone: input.timeZone, temperatureUnit: input.temperatureUnit })
      .where(eq(users.id, input.userId));
    await tx
      .update(notificationSubscriptions)
      .set({ timeZone: input.timeZone, updatedAt: new Date() })
      .where(eq(notificationSubscriptions.userId, input.userId));
  });
}
