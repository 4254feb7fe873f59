import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle, DatabaseTarget } from '@/lib/db/client';
import { type Subscription, saveSubscription } from '@/lib/notifications/store';
import { saveReading } from '@/lib/readings/store';
import { getBoss, stopBoss } from '@/lib/queue/queue';
import { workDeliveryJob } from '@/lib/notifications/delivery';
import { INCIDENT_KIND_NAMES } from '@/lib/notifications/kinds';
import { useDatabase } from './database';

/**
 * For notifications' tests: a database with its job queue for a describe block, a member's
 * subscription, a reading as the poller stores one, and the delivery worker the runner starts.
 * Import it after the test has set the configuration it needs.
 */

/** Opens the database (and its job queue) before the block's tests, closes both after. */
export function databaseWithQueue(target: () => Promise<DatabaseTarget>) {
  const opened = {} as { handle: DatabaseHandle; boss: PgBoss };
  beforeAll(async () => {
    opened.handle = await useDatabase(await target());
    opened.boss = await getBoss();
  });
  afterAll(async () => {
    await stopBoss();
    await opened.handle.close();
  });
  return opened;
}

/** A member's email subscription: at once, every kind, every building, unless `choice` says. */
export async function subscribe(
  member: { orgId: string; userId: string },
  choice: Partial<Omit<Subscription, 'userId' | 'orgId' | 'updatedAt' | 'lastDigestDate'>> = {},
): Promise<Awaited<ReturnType<typeof saveSubscription>>> {
  return saveSubscription({
    userId: member.userId,
    orgId: member.orgId,
    mode: 'immediate',
    kinds: [...INCIDENT_KIND_NAMES],
    buildingIds: null,
    timeZone: 'UTC',
    digestHour: 7,
    quietStart: null,
    quietEnd: null,
    ...choice,
  });
}

/**
 * A good reading of a thermostat as the poller stores it (in its comfort band unless `fields`).
 * `lastSeen`, for one offline: when it was last seen connected, which is a reading of its own
 * then (the service says only whether it is connected; Setpoint's readings say since when).
 */
export async function storeReading(
  orgId: string,
  thermostatId: string,
  { lastSeen, ...fields }: Record<string, unknown> & { lastSeen?: string } = {},
  at = new Date(),
): Promise<void> {
  if (lastSeen) await storeReading(orgId, thermostatId, { connected: true }, new Date(lastSeen));
  const status = {
    isResidentMode: true,
    setPoint: { desiredHeat: 68, desiredCool: 76 },
    hvacMode: 'auto',
    temperature: 71,
    connected: true,
    ...fields,
  };
  await saveReading({
    orgId,
    thermostatId,
    status,
    sample: {
      temperature: status.temperature as number,
      humidity: 40,
      desiredHeat: 68,
      desiredCool: 76,
      hvacMode: 'auto',
      equipment: '',
      connected: status.connected as boolean,
    },
    at,
  });
}

/** Works the delivery queue in this process, as the job runner does. */
export function startDeliveryWorker(boss: PgBoss): Promise<string> {
  return boss.work('deliver-notification', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
    await workDeliveryJob(job?.data);
  });
}
