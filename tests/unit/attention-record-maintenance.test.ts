import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { rowsOf } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import type { ScopedThermostat } from '@/lib/portfolio/store';
import type { RunningSandbox } from '@/sandbox/src/server';
import { useDatabase } from '../support/database';
import { callCount, connectedOwner, control, startServiceForTests } from '../support/service';

/**
 * "Record maintenance done" on a maintenance item of Needs attention, against the sandbox: the
 * last maintenance date set at the service, the activity log's entry (with Undo), the store told
 * at once so the item goes; refused, before any call, to members who may not change the
 * thermostat, and for a day the form must not take.
 */

let sandbox: RunningSandbox;
let handle: DatabaseHandle;
let owner: Member;
let viewer: Member;
let elsewhere: Member;
let unit: ScopedThermostat;
let offline: ScopedThermostat;
let today: string;
/** Today in the offline thermostat's own building, which may be a day behind the other's. */
let offlineToday: string;

type Lib = {
  recordMaintenanceDone: typeof import('@/lib/attention/record-maintenance').recordMaintenanceDone;
  listAttention: typeof import('@/lib/attention/list').listAttention;
  getAlertSettings: typeof import('@/lib/service/resources').getAlertSettings;
  readDueReminders: typeof import('@/lib/attention/maintenance').readDueReminders;
};
let lib: Lib;

const PATCH = 'PATCH /api/v2/thermostats/:id/alertSettings';

beforeAll(async () => {
  // The configuration first (the sandbox's address, background reading on), then the app's code.
  sandbox = await startServiceForTests({ READINGS_TARGET_MINUTES: '5' });
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  const [{ recordMaintenanceDone }, { listAttention }, resources, maintenance, portfolio, time] =
    await Promise.all([
      import('@/lib/attention/record-maintenance'),
      import('@/lib/attention/list'),
      import('@/lib/service/resources'),
      import('@/lib/attention/maintenance'),
      import('@/lib/portfolio/store'),
      import('@/lib/platform/time-format'),
    ]);
  const { inviteAndAccept } = await import('../support/members');
  lib = {
    recordMaintenanceDone,
    listAttention,
    getAlertSettings: resources.getAlertSettings,
    readDueReminders: maintenance.readDueReminders,
  };

  owner = await connectedOwner(sandbox);
  const demo = (await control(sandbox, 'GET', '/portfolio?user=demo')) as {
    buildings: { buildingId: string; name: string; timeZone: string }[];
    thermostats: { thermostatId: string; name: string; buildingId: string }[];
  };
  const online = demo.thermostats.find((t) => !t.name.endsWith('(offline)'));
  const down = demo.thermostats.find((t) => t.name.endsWith('(offline)'));
  if (!online || !down) throw new Error('the demo has no online and offline thermostats');
  for (const thermostat of [online, down]) {
    const building = demo.buildings.find((b) => b.buildingId === thermostat.buildingId);
    if (!building) throw new Error('no building');
    await portfolio.ensureBuilding({ orgId: owner.orgId, ...building });
    await portfolio.addThermostat({
      orgId: owner.orgId,
      thermostatId: thermostat.thermostatId,
      buildingId: thermostat.buildingId,
      unitLabel: thermostat.name,
    });
  }
  const find = async (thermostatId: string) => {
    const found = await portfolio.findThermostat({ scope: owner, thermostatId });
    if (!found) throw new Error(`not found: ${thermostatId}`);
    return found;
  };
  unit = await find(online.thermostatId);
  offline = await find(down.thermostatId);
  today = time.todayIn(unit.building?.timeZone ?? 'UTC');
  offlineToday = time.todayIn(offline.building?.timeZone ?? 'UTC');

  viewer = await inviteAndAccept(owner.orgId, 'viewer@example.com', 'viewer');
  // A building manager of another building than the unit's.
  const another = demo.buildings.find((b) => b.buildingId !== unit.buildingId);
  if (!another) throw new Error('the demo has one building');
  await portfolio.ensureBuilding({ orgId: owner.orgId, ...another });
  elsewhere = await inviteAndAccept(owner.orgId, 'keeper@example.com', 'building_manager', [
    another.buildingId,
  ]);

  // The unit's maintenance overdue since 2020, at the service; the store reads it on its cycle.
  await resources.updateAlertSettings({
    orgId: owner.orgId,
    thermostatId: unit.thermostatId,
    changes: {
      hvacMaintenanceReminder: {
        enabled: true,
        lastMaintenanceDate: '2020-01-10',
        maintenanceInterval: 6,
        maintenanceIntervalUnits: 'month',
      },
    },
  });
  await maintenance.readDueReminders();
});
afterAll(async () => {
  await handle?.close();
  await sandbox?.close();
});

const maintenanceItems = async (member: Member) =>
  (await lib.listAttention({ scope: member })).items
    .filter((item) => item.kind === 'maintenance_due' || item.kind === 'maintenance_overdue')
    .map((item) => item.thermostatId);

async function entries() {
  return rowsOf<{ summary: string; outcome: string; changes: Record<string, unknown> }>(
    await handle.db.execute(
      sql`select summary, outcome, changes from activity_log
        where action = 'alert_settings.update' order by id`,
    ),
  );
}

describe('record maintenance done', () => {
  it('is refused, before any call, to members who may not change the thermostat', async () => {
    expect(await maintenanceItems(owner)).toEqual([unit.thermostatId]);
    const before = await callCount(sandbox, PATCH);
    for (const member of [viewer, elsewhere]) {
      const result = await lib.recordMaintenanceDone({ member, thermostat: unit, date: today });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.state.message).toMatch(/change thermostats/);
    }
    expect(await callCount(sandbox, PATCH)).toBe(before);
    expect(await entries()).toEqual([]);
    expect(await maintenanceItems(owner)).toEqual([unit.thermostatId]);
  });

  it('takes only a real day, not after today in the building’s zone, nor before the last one', async () => {
    const before = await callCount(sandbox, PATCH);
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    for (const [date, error] of [
      ['', 'Enter the day the maintenance was done.'],
      [null, 'Enter the day the maintenance was done.'],
      ['2026-02-30', 'Enter a real date (YYYY-MM-DD).'],
      [tomorrow, 'Maintenance cannot be recorded for a day after today.'],
      ['2019-12-31', 'Its last maintenance on record is Jan 10, 2020: enter that day or later.'],
    ] as const) {
      const result = await lib.recordMaintenanceDone({ member: owner, thermostat: unit, date });
      expect(result.ok, String(date)).toBe(false);
      if (!result.ok) expect(result.state.fieldErrors?.date).toEqual([error]);
    }
    expect(await callCount(sandbox, PATCH)).toBe(before);
    expect(await maintenanceItems(owner)).toEqual([unit.thermostatId]);
  });

  it('sets the last maintenance date at the service, logs it with Undo, and the item goes at once', async () => {
    const result = await lib.recordMaintenanceDone({
      member: owner,
      thermostat: unit,
      date: today,
    });
    expect(result).toMatchObject({ ok: true, date: today, unchanged: false });
    const at = await lib.getAlertSettings({ orgId: owner.orgId, thermostatId: unit.thermostatId });
    expect(at.hvacMaintenanceReminder.lastMaintenanceDate).toBe(today);
    if (result.ok) {
      expect(result.nextReminderDate).toBe(at.hvacMaintenanceReminder.nextReminderDate);
      expect(result.nextReminderDate && result.nextReminderDate > today).toBe(true);
    }
    // No wait for tomorrow's read: the store has it now.
    expect(await maintenanceItems(owner)).toEqual([]);
    const [entry] = await entries();
    expect(entry).toMatchObject({ outcome: 'success' });
    expect(entry?.summary).toMatch(/^Recorded HVAC maintenance done on .+ \(\w{3} \d+, \d{4}\)$/);
    expect(entry?.changes).toMatchObject({
      hvacMaintenanceReminder: { lastMaintenanceDate: today },
      undo: expect.anything(),
    });

    // The same day again: nothing to send.
    const before = await callCount(sandbox, PATCH);
    const again = await lib.recordMaintenanceDone({ member: owner, thermostat: unit, date: today });
    expect(again).toMatchObject({ ok: true, unchanged: true });
    expect(await callCount(sandbox, PATCH)).toBe(before);
  });

  it('says why when the service refuses, and the item stays', async () => {
    const result = await lib.recordMaintenanceDone({
      member: owner,
      thermostat: offline,
      date: offlineToday,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.state.status).toBe('error');
      expect(result.state.message).not.toMatch(/thermostat_offline|409/);
    }
    const failed = (await entries()).filter((entry) => entry.outcome !== 'success');
    expect(failed.map((entry) => entry.summary)).toEqual([
      expect.stringMatching(/^Failed to record HVAC maintenance done on /),
    ]);
  });
});
