import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDueReminders, remindersPerMinute } from '@/lib/attention/maintenance';
import type { DatabaseHandle } from '@/lib/db/client';
import { rowsOf } from '@/lib/db/client';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import { getAlertSettings } from '@/lib/service/resources';
import type { RunningSandbox } from '@/sandbox/src/server';
import { useDatabase } from '../support/database';
import { callCount, connectedOwner, control, startServiceForTests } from '../support/service';

// The maintenance reminders' slow cycle against the sandbox: a few alert-settings reads a minute
// at background priority, each thermostat once a day, a failure kept beside the last good value.
let sandbox: RunningSandbox;
let handle: DatabaseHandle;
let orgId: string;
let ids: string[];
const ALERTS = 'GET /api/v2/thermostats/:id/alertSettings';

beforeAll(async () => {
  sandbox = await startServiceForTests({ READINGS_TARGET_MINUTES: '5' });
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  const owner = await connectedOwner(sandbox);
  orgId = owner.orgId;
  const demo = await control(sandbox, 'GET', '/portfolio?user=demo');
  const other = await control(sandbox, 'GET', '/portfolio?user=other');
  const picked = [...demo.thermostats.slice(0, 3), other.thermostats[0]] as {
    thermostatId: string;
    buildingId: string;
  }[];
  for (const thermostat of picked) {
    await ensureBuilding({ orgId, buildingId: thermostat.buildingId, name: 'B', timeZone: 'UTC' });
    await addThermostat({ orgId, ...thermostat, unitLabel: thermostat.thermostatId });
  }
  ids = picked.map((t) => t.thermostatId);
});
afterAll(async () => {
  await handle?.close();
  await sandbox?.close();
});

async function stored() {
  const result = await handle.db.execute(sql`
    select thermostat_id as id, enabled, next_reminder_date::text as date, failure
    from maintenance_reminders order by thermostat_id`);
  return rowsOf<{
    id: string;
    enabled: boolean | null;
    date: string | null;
    failure: string | null;
  }>(result);
}

describe('maintenance reminders', () => {
  it('reads a few a minute, each once, and keeps what the service says', async () => {
    // Production limits: 2 % of the hourly background budget, a sixtieth a minute.
    expect(remindersPerMinute()).toBe(3);
    await control(sandbox, 'DELETE', '/calls');

    const first = await readDueReminders();
    const second = await readDueReminders();
    expect([first.due, second.due]).toEqual([3, 1]);
    expect(first.read + second.read).toBe(3);
    expect(first.failed + second.failed).toBe(1);
    expect(await readDueReminders()).toEqual({ due: 0, read: 0, failed: 0 });
    expect(await callCount(sandbox, ALERTS)).toBe(4);

    const rows = await stored();
    for (const id of ids.slice(0, 3)) {
      const settings = await getAlertSettings({ orgId, thermostatId: id });
      const reminder = settings.hvacMaintenanceReminder;
      expect(rows.find((row) => row.id === id)).toEqual({
        id,
        enabled: reminder.enabled,
        date: reminder.enabled ? reminder.nextReminderDate : null,
        failure: null,
      });
    }
    // Another account's thermostat: the service does not know it for ours.
    expect(rows.find((row) => row.id === ids[3])).toEqual({
      id: ids[3],
      enabled: null,
      date: null,
      failure: 'not_found',
    });
  });

  it('reads again a day later, and retries a failure after an hour', async () => {
    await control(sandbox, 'DELETE', '/calls');
    const later = (hours: number) => new Date(Date.now() + hours * 3_600_000);
    expect(await readDueReminders(later(0.5))).toMatchObject({ due: 0 });
    expect(await readDueReminders(later(1.1))).toMatchObject({ due: 1, failed: 1 });
    // A day on: the three read, at three a minute.
    expect(await readDueReminders(later(25))).toMatchObject({ due: 3, read: 3 });
    expect(await callCount(sandbox, ALERTS)).toBe(4);
  });
});
