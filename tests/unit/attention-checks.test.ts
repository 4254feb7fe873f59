import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Before anything reads the configuration: listAttention and the checks' progress ask it for the
// freshness target.
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-attention-checks-')),
  READINGS_TARGET_MINUTES: '5',
  NEXTAUTH_URL: 'http://localhost',
});

const { slowChecksLine } = await import('@/lib/attention/checks');
const { attentionByThermostat, listAttention, slowCheckProgress } = await import(
  '@/lib/attention/list'
);
const { listDueReminders } = await import('@/lib/attention/store');
const { rememberReminder, saveReminder, saveReminderFailure } = await import(
  '@/lib/readings/reminders'
);
const { addThermostat, ensureBuilding } = await import('@/lib/portfolio/store');
const { templates } = await import('@/lib/db/schema');
const { saveReading } = await import('@/lib/readings/store');
const { defaultAlertSettings } = await import('@/sandbox/src/store');
const { connectEveryOrganization, databaseTargets, useDatabase } = await import(
  '../support/database'
);
const { createFirstOwner, createOrganizationWithOwner, inviteAndAccept } = await import(
  '../support/members'
);

import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import type { AlertSettings } from '@/lib/service/schemas';

describe('what the slow checks have not yet checked, in words', () => {
  const done = { checked: 4, total: 4 };
  it('says how far each has come until all have run once, then nothing', () => {
    expect(
      slowChecksLine({
        maintenance: { checked: 12, total: 35 },
        templates: done,
        background: true,
      }),
    ).toBe(
      'Still checking: maintenance dates read for 12 of 35 thermostats. More items may appear as the rest are read, a few a minute.',
    );
    expect(
      slowChecksLine({
        maintenance: { checked: 1200, total: 1500 },
        templates: { checked: 0, total: 3 },
        background: true,
      }),
    ).toBe(
      'Still checking: maintenance dates read for 1,200 of 1,500 thermostats; 0 of 3 thermostats compared with their templates. More items may appear as the rest are read, a few a minute.',
    );
    expect(slowChecksLine({ maintenance: done, templates: done, background: true })).toBeNull();
    // Nothing to check at all (no thermostats, no templates): nothing to say.
    const none = { checked: 0, total: 0 };
    expect(slowChecksLine({ maintenance: none, templates: none, background: true })).toBeNull();
  });

  it('says the checks wait for background reading when it is off', () => {
    expect(
      slowChecksLine({
        maintenance: { checked: 0, total: 35 },
        templates: done,
        background: false,
      }),
    ).toBe(
      'Not yet checked: maintenance dates read for 0 of 35 thermostats. Setpoint reads these in the background, which is turned off here.',
    );
  });
});

const NORTH = 'aaaaaaaaaaaaaaaaaaaaaaa7';
const SOUTH = 'cccccccccccccccccccccccc7';
const OTHER = 'bbbbbbbbbbbbbbbbbbbbbbb7';
const N1 = '700000000001';
const N2 = '700000000002';
const S1 = '700000000003';
const O1 = '800000000001';

/** Alert settings as the service answers them, with the reminder given. */
const alerts = (reminder: Partial<AlertSettings['hvacMaintenanceReminder']>): AlertSettings => {
  const base = defaultAlertSettings();
  return {
    ...base,
    hvacMaintenanceReminder: { ...base.hvacMaintenanceReminder, ...reminder },
  } as AlertSettings;
};

describe.each(databaseTargets)('slow checks and the reminder store on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let owner: Member;
  let manager: Member;
  let other: Member;

  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`truncate users, organizations cascade`);
    owner = await createFirstOwner();
    other = await createOrganizationWithOwner('other@example.com');
    for (const [member, building, ids] of [
      [owner, NORTH, [N1, N2]],
      [owner, SOUTH, [S1]],
      [other, OTHER, [O1]],
    ] as const) {
      await ensureBuilding({
        orgId: member.orgId,
        buildingId: building,
        name: building.slice(0, 1),
        timeZone: 'America/New_York',
      });
      for (const id of ids) {
        await addThermostat({
          orgId: member.orgId,
          thermostatId: id,
          buildingId: building,
          unitLabel: `Unit ${id.slice(-1)}`,
        });
      }
    }
    manager = await inviteAndAccept(owner.orgId, 'manager@example.com', 'building_manager', [
      SOUTH,
    ]);
    await connectEveryOrganization(handle);
  });

  async function assign(member: Member, thermostatId: string, checked: boolean) {
    const [row] = await handle.db
      .insert(templates)
      .values({
        orgId: member.orgId,
        name: `Template for ${thermostatId}`,
        body: {},
        updatedByName: member.name,
      })
      .returning({ id: templates.id });
    await handle.db.execute(sql`
      insert into template_assignments
        (org_id, thermostat_id, template_id, assigned_at, checked_at, drift)
      values (${member.orgId}::uuid, ${thermostatId}, ${row?.id}::uuid, now(),
        ${checked ? sql`now()` : sql`null`}, null)`);
  }

  it('counts, in each member’s scope, the thermostats each slow check has run on once', async () => {
    expect(await slowCheckProgress({ scope: owner })).toEqual({
      maintenance: { checked: 0, total: 3 },
      templates: { checked: 0, total: 0 },
      background: true,
    });

    // Read, and failed (tried: it waits for its retry, and counts as checked).
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: N1,
      enabled: false,
      nextReminderDate: null,
    });
    await saveReminderFailure({ orgId: owner.orgId, thermostatId: S1, failure: 'unavailable' });
    await saveReminder({
      orgId: other.orgId,
      thermostatId: O1,
      enabled: false,
      nextReminderDate: null,
    });
    await assign(owner, N1, true);
    await assign(owner, N2, false);
    await assign(other, O1, false);

    expect(await slowCheckProgress({ scope: owner })).toMatchObject({
      maintenance: { checked: 2, total: 3 },
      templates: { checked: 1, total: 2 },
    });
    expect(await slowCheckProgress({ scope: manager })).toMatchObject({
      maintenance: { checked: 1, total: 1 },
      templates: { checked: 0, total: 0 },
    });
    expect(await slowCheckProgress({ scope: other })).toMatchObject({
      maintenance: { checked: 1, total: 1 },
      templates: { checked: 0, total: 1 },
    });
    expect(await slowCheckProgress({ scope: { ...manager, buildingIds: [] } })).toMatchObject({
      maintenance: { checked: 0, total: 0 },
    });

    // All run once: nothing left to say.
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: N2,
      enabled: false,
      nextReminderDate: null,
    });
    await handle.db.execute(sql`update template_assignments set checked_at = now()`);
    expect(slowChecksLine(await slowCheckProgress({ scope: owner }))).toBeNull();
  });

  it('clears a maintenance item at once when a write tells the store the new date', async () => {
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: N1,
      enabled: true,
      nextReminderDate: '2020-09-13',
    });
    const maintenance = async () =>
      (await listAttention({ scope: owner })).items
        .filter((item) => item.kind.startsWith('maintenance'))
        .map((item) => [item.kind, item.thermostatId]);
    expect(await maintenance()).toEqual([['maintenance_overdue', N1]]);

    // The alert settings the service answered after the last maintenance date was set today.
    await rememberReminder({
      orgId: owner.orgId,
      thermostatId: N1,
      settings: alerts({
        enabled: true,
        lastMaintenanceDate: '2026-08-01',
        maintenanceInterval: 6,
        nextReminderDate: '2099-02-01',
      }),
    });
    expect(await maintenance()).toEqual([]);

    // Turned off: nothing is due, whatever the date was.
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: N1,
      enabled: true,
      nextReminderDate: '2020-09-13',
    });
    await rememberReminder({
      orgId: owner.orgId,
      thermostatId: N1,
      settings: alerts({ enabled: false, nextReminderDate: null }),
    });
    expect(await maintenance()).toEqual([]);
  });

  it('reads a reminder again first thing when a write could not say what it made', async () => {
    const day = 24 * 3_600_000;
    for (const id of [N1, N2, S1]) {
      await saveReminder({
        orgId: owner.orgId,
        thermostatId: id,
        enabled: true,
        nextReminderDate: '2099-01-01',
      });
    }
    await saveReminder({
      orgId: other.orgId,
      thermostatId: O1,
      enabled: true,
      nextReminderDate: '2099-01-01',
    });
    const due = () => listDueReminders({ readEvery: day, retryEvery: 3_600_000, limit: 1 });
    expect(await due()).toEqual([]);

    await rememberReminder({ orgId: owner.orgId, thermostatId: N2, settings: null });
    expect(await due()).toEqual([{ orgId: owner.orgId, thermostatId: N2 }]);
    // What was known stays meanwhile, and it still counts as checked.
    const [row] = await handle.db
      .execute(
        sql`select enabled, next_reminder_date::text as date from maintenance_reminders
          where org_id = ${owner.orgId}::uuid and thermostat_id = ${N2}`,
      )
      .then((result) => (result as unknown as { rows: Record<string, unknown>[] }).rows);
    expect(row).toEqual({ enabled: true, date: '2099-01-01' });
    expect((await slowCheckProgress({ scope: owner })).maintenance).toEqual({
      checked: 3,
      total: 3,
    });
  });

  it('flags a building’s thermostats with the titles of what they need attention for', async () => {
    const now = new Date();
    const status = (fields: Record<string, unknown>) => ({
      isResidentMode: true,
      setPoint: { desiredHeat: 70, desiredCool: 76 },
      hvacMode: 'auto',
      temperature: 71,
      connected: true,
      ...fields,
    });
    const read = async (thermostatId: string, fields: Record<string, unknown>) => {
      const s = status(fields);
      await saveReading({
        orgId: owner.orgId,
        thermostatId,
        status: s,
        sample: {
          temperature: s.temperature as number,
          humidity: 40,
          desiredHeat: 70,
          desiredCool: 76,
          hvacMode: 'auto',
          equipment: '',
          connected: s.connected as boolean,
        },
        at: now,
      });
    };
    await read(N1, { connected: false });
    await read(N2, {});
    await read(S1, { temperature: 40 });
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: N1,
      enabled: true,
      nextReminderDate: '2020-09-13',
    });

    const north = await attentionByThermostat({ scope: owner, buildingId: NORTH });
    expect([...north.entries()]).toEqual([[N1, ['Offline', 'Maintenance overdue']]]);
    const south = await attentionByThermostat({ scope: owner, buildingId: SOUTH });
    expect([...south.entries()]).toEqual([[S1, ['Freeze risk']]]);
    // Not another member's buildings, nor another organisation's.
    expect((await attentionByThermostat({ scope: manager, buildingId: NORTH })).size).toBe(0);
    expect((await attentionByThermostat({ scope: other, buildingId: NORTH })).size).toBe(0);
  });
});
