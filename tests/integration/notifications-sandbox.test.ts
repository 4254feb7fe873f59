import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { rowsOf } from '@/lib/db/client';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import { stopBoss } from '@/lib/queue/queue';
import { reconcileOrganization } from '@/lib/notifications/incidents';
import { refreshReading } from '@/lib/readings/read';
import type { RunningSandbox } from '@/sandbox/src/server';
import { useDatabase } from '../support/database';
import { subscribe } from '../support/notifications';
import { connectedOwner, control, startServiceForTests } from '../support/service';

// Incidents from the device to the notice, against the sandbox's device simulation: a thermostat
// goes offline and another freezes at the "device", Setpoint reads them as the poller does, and the
// reconcile job opens one incident each (told once its rule's delay has passed, however many
// readings show it), then resolves each when the device recovers.
let sandbox: RunningSandbox;
let handle: DatabaseHandle;
let orgId: string;
let ids: string[];

const at = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const device = (thermostatId: string, change: Record<string, unknown>) =>
  control(sandbox, 'PATCH', `/thermostats/${thermostatId}`, change);
const readAll = async () => {
  for (const thermostatId of ids) {
    const reading = await refreshReading({ orgId, thermostatId, priority: 'interactive' });
    expect(reading.ok).toBe(true);
  }
};

async function incidents() {
  const result = await handle.db.execute(sql`
    select kind, subject, notified_at is not null as notified, resolution,
      resolved_at is not null as resolved
    from incidents order by opened_at, kind`);
  return rowsOf<{
    kind: string;
    subject: string;
    notified: boolean;
    resolution: string | null;
    resolved: boolean;
  }>(result);
}

async function notices() {
  const result = await handle.db.execute(sql`
    select n.event, i.kind, n.recipient from notifications n
    join incidents i on i.id = n.incident_id order by n.created_at, i.kind`);
  return rowsOf<{ event: string; kind: string; recipient: string }>(result).map(
    (row) => `${row.event} ${row.kind} to ${row.recipient}`,
  );
}

beforeAll(async () => {
  sandbox = await startServiceForTests({ READINGS_TARGET_MINUTES: '5' });
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  const owner = await connectedOwner(sandbox, 'owner@example.com');
  orgId = owner.orgId;
  const demo = (await control(sandbox, 'GET', '/portfolio?user=demo')) as {
    thermostats: { thermostatId: string; buildingId: string }[];
  };
  const picked = demo.thermostats.slice(0, 2);
  for (const thermostat of picked) {
    await ensureBuilding({ orgId, buildingId: thermostat.buildingId, name: 'B', timeZone: 'UTC' });
    await addThermostat({ orgId, ...thermostat, unitLabel: thermostat.thermostatId });
  }
  ids = picked.map((t) => t.thermostatId);
  // Both well at the start, whatever the fixture says of them.
  await control(sandbox, 'PATCH', '/thermostats', {
    thermostatIds: ids,
    connected: true,
    temperature: 70,
  });
  await subscribe(owner);
});
afterAll(async () => {
  await stopBoss();
  await handle?.close();
  await sandbox?.close();
});

describe('incidents from the sandbox’s device simulation', () => {
  it('opens nothing while every device is well', async () => {
    await readAll();
    await reconcileOrganization({ orgId });
    expect(await incidents()).toEqual([]);
  });

  it('opens one incident for a device offline over several readings, told after 30 minutes', async () => {
    const [offline] = ids as [string, string];
    await device(offline, { connected: false });
    await readAll();
    await reconcileOrganization({ orgId, now: at(0) });
    expect(await incidents()).toEqual([
      { kind: 'offline', subject: offline, notified: false, resolution: null, resolved: false },
    ]);
    expect(await notices()).toEqual([]);

    for (const minutes of [31, 36, 41]) {
      await readAll();
      await reconcileOrganization({ orgId, now: at(minutes) });
    }
    expect(await incidents()).toEqual([
      { kind: 'offline', subject: offline, notified: true, resolution: null, resolved: false },
    ]);
    expect(await notices()).toEqual(['opened offline to owner@example.com']);
  });

  it('opens a freeze risk from the device’s temperature, told after 10 minutes', async () => {
    const [, cold] = ids as [string, string];
    await device(cold, { temperature: 38 });
    await readAll();
    await reconcileOrganization({ orgId, now: at(42) });
    await readAll();
    await reconcileOrganization({ orgId, now: at(53) });
    expect((await incidents()).find((incident) => incident.kind === 'freeze')).toEqual({
      kind: 'freeze',
      subject: cold,
      notified: true,
      resolution: null,
      resolved: false,
    });
    expect(await notices()).toEqual([
      'opened offline to owner@example.com',
      'opened freeze to owner@example.com',
    ]);
  });

  it('resolves each when the devices recover, with one resolved notice each', async () => {
    const [offline, cold] = ids as [string, string];
    await device(offline, { connected: true });
    await device(cold, { temperature: 69 });
    await readAll();
    await reconcileOrganization({ orgId, now: at(60) });
    await reconcileOrganization({ orgId, now: at(61) });
    expect(await incidents()).toEqual([
      { kind: 'offline', subject: offline, notified: true, resolution: 'cleared', resolved: true },
      { kind: 'freeze', subject: cold, notified: true, resolution: 'cleared', resolved: true },
    ]);
    expect(await notices()).toEqual([
      'opened offline to owner@example.com',
      'opened freeze to owner@example.com',
      'resolved freeze to owner@example.com',
      'resolved offline to owner@example.com',
    ]);
  });
});
