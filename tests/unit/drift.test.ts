import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Before anything reads the configuration: the check and listAttention ask it for the freshness
// target and the service's limits.
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-drift-')),
  READINGS_TARGET_MINUTES: '5',
  NEXTAUTH_URL: 'http://localhost',
  SERVICE_ALLOW_REDIRECT_PORT: 'true',
});

const { listAttention } = await import('@/lib/attention/list');
const { replanHref } = await import('@/lib/attention/query');
const { describeItem } = await import('@/lib/attention/words');
const { listDrift } = await import('@/lib/templates/drift-store');
const { addThermostat, ensureBuilding } = await import('@/lib/portfolio/store');
const { templates } = await import('@/lib/db/schema');
const { incidentKindOf, INCIDENT_KINDS } = await import('@/lib/notifications/kinds');
const { causesOfItems } = await import('@/lib/notifications/reconcile');
const { incidentWords } = await import('@/lib/notifications/words');
const { CHECK_EVERY_MS, checkDrift, driftCallsPerMinute } = await import('@/lib/templates/drift');
const { planTemplate } = await import('@/lib/templates/plan');
const { templateSchema } = await import('@/lib/templates/schema');
const { LOCK_AREAS } = await import('@/lib/service/schemas');
const { ServiceError } = await import('@/lib/service/errors');
const { defaultAlertSettings, defaultComfortSettings, defaultSettings, residentialSchedule } =
  await import('@/sandbox/src/store');
const { connectEveryOrganization, databaseTargets, useDatabase } = await import(
  '../support/database'
);
const { createFirstOwner, inviteAndAccept } = await import('../support/members');
const { applyOperations } = await import('../support/template-service');

import type { ListedItem } from '@/lib/attention/list';
import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import type { TemplateRead } from '@/lib/templates/plan';
import type { TemplateService } from '@/lib/templates/service';
import type { Priority } from '@/lib/service/budget';
import type { FullState } from '../support/template-service';

/**
 * Drift: thermostats a template was applied to are read again on a slow cycle, at background
 * priority, and planned against their template; what differs is listed in needs attention with a
 * link to plan the template again. Access control is never counted (the service cannot read it).
 */

const NORTH = 'aaaaaaaaaaaaaaaaaaaaaaa1';
const SOUTH = 'aaaaaaaaaaaaaaaaaaaaaaa2';
const N1 = '400000000001';
const N2 = '400000000002';
const N3 = '400000000003';
const S1 = '400000000004';
const S2 = '400000000005';
const ALL = [N1, N2, N3, S1, S2];
const HOUR = 60 * 60_000;

const TEMPLATE = templateSchema.parse({
  name: 'Office hours',
  configuration: { holdAction: 'indefinite', fanMinimumOnTime: 10 },
  alerts: { lowTemperatureAlert: { enabled: true, value: 45 } },
  accessControl: {
    enabled: true,
    settings: Object.fromEntries(LOCK_AREAS.map((area) => [area, true])),
  },
});
/** What the template reads of each thermostat: status, settings, alert settings. */
const READS_PER_CHECK = 3;

function freshThermostat(): FullState {
  return {
    heatCoolMinDelta: 5,
    comfortSettings: defaultComfortSettings().map((setting) => ({ ...setting })),
    week: residentialSchedule(),
    configuration: defaultSettings(),
    alerts: { ...defaultAlertSettings() },
    accessControl: null,
  };
}

/** A thermostat as the template leaves it (its locks included, as a run sets them). */
function matching(): FullState {
  const state = freshThermostat();
  return applyOperations(state, planTemplate(TEMPLATE, state).operations);
}

/** The service in memory: each thermostat's state, the reads asked of it, and failing reads. */
function fakeService() {
  const states = new Map<string, FullState>(ALL.map((id) => [id, matching()]));
  const failing = new Set<string>();
  const reads: {
    thermostatId: string;
    reads: readonly TemplateRead[];
    accessControl: boolean;
    priority?: Priority;
  }[] = [];
  const service: TemplateService = {
    async read(input) {
      reads.push(input);
      if (failing.has(input.thermostatId)) throw new ServiceError('unavailable', { status: 503 });
      const now = structuredClone(states.get(input.thermostatId) as FullState);
      return {
        heatCoolMinDelta: now.heatCoolMinDelta,
        comfortSettings: now.comfortSettings,
        week: now.week,
        configuration: now.configuration,
        alerts: now.alerts,
        ...(input.accessControl ? { accessControl: now.accessControl } : {}),
      };
    },
    configuration: () => Promise.reject(new Error('a drift check never writes')),
    perform: () => Promise.reject(new Error('a drift check never writes')),
    findComfortSetting: () => Promise.reject(new Error('a drift check never writes')),
  };
  const calls = () => reads.reduce((sum, read) => sum + read.reads.length, 0);
  return { service, states, failing, reads, calls };
}

describe.each(databaseTargets)('template drift on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let owner: Member;
  let north: Member;
  let templateId: string;
  let now: Date;

  const ago = (ms: number) => new Date(now.getTime() - ms);

  /** Assigns the template as a run would, last checked `checkedAgo` before now. */
  async function assign(thermostatId: string, checkedAgo: number) {
    const checkedAt = ago(checkedAgo).toISOString();
    await handle.db.execute(sql`
      insert into template_assignments
        (org_id, thermostat_id, template_id, assigned_at, checked_at, drift)
      values (${owner.orgId}::uuid, ${thermostatId}, ${templateId}::uuid,
        ${checkedAt}::timestamptz, ${checkedAt}::timestamptz, null)
      on conflict (org_id, thermostat_id) do update
        set template_id = excluded.template_id, assigned_at = excluded.assigned_at,
          checked_at = excluded.checked_at, drift = null`);
  }

  async function assignment(thermostatId: string) {
    const result = await handle.db.execute(sql`
      select checked_at as "checkedAt", drift from template_assignments
      where org_id = ${owner.orgId}::uuid and thermostat_id = ${thermostatId}`);
    const row = (result as unknown as { rows: { checkedAt: string | Date; drift: unknown }[] })
      .rows[0];
    return row
      ? {
          checkedAt: new Date(row.checkedAt),
          drift: row.drift as { foundAt: string; lines: { F: string[]; C: string[] } } | null,
        }
      : null;
  }

  const driftItems = async (member: Member) =>
    (await listAttention({ scope: member, now })).items.filter(
      (item): item is Extract<ListedItem, { kind: 'template_drift' }> =>
        item.kind === 'template_drift',
    );

  beforeAll(async () => {
    handle = await useDatabase(await target());
    owner = await createFirstOwner('owner@drift.example', 'Drift Property');
    for (const [buildingId, name] of [
      [NORTH, 'North Tower'],
      [SOUTH, 'South Tower'],
    ] as const) {
      await ensureBuilding({ orgId: owner.orgId, buildingId, name, timeZone: 'America/Chicago' });
    }
    for (const [n, thermostatId] of ALL.entries()) {
      await addThermostat({
        orgId: owner.orgId,
        thermostatId,
        buildingId: n < 3 ? NORTH : SOUTH,
        unitLabel: `Unit ${n + 1}`,
      });
    }
    north = await inviteAndAccept(owner.orgId, 'north@drift.example', 'building_manager', [NORTH]);
    await connectEveryOrganization(handle);
    const [row] = await handle.db
      .insert(templates)
      .values({
        orgId: owner.orgId,
        name: TEMPLATE.name,
        body: TEMPLATE as unknown as Record<string, unknown>,
        updatedByName: owner.name,
      })
      .returning({ id: templates.id });
    templateId = row?.id ?? '';
  });

  afterAll(async () => {
    await handle.close();
  });

  beforeEach(async () => {
    await handle.db.execute(sql`delete from template_assignments`);
    now = new Date();
  });

  it('finds nothing on a thermostat that still matches, reading at background priority', async () => {
    const fake = fakeService();
    await assign(N1, 7 * HOUR);

    const round = await checkDrift({ service: fake.service, now });
    expect(round).toMatchObject({ checked: 1, drifted: 0, failed: 0 });
    expect(await assignment(N1)).toEqual({ checkedAt: now, drift: null });
    expect(fake.reads).toHaveLength(1);
    // Locks are never asked for: the service cannot read them.
    expect(fake.reads[0]).toMatchObject({ accessControl: false, priority: 'background' });
    expect(fake.reads[0]?.reads).toHaveLength(READS_PER_CHECK);
    expect(await driftItems(owner)).toEqual([]);
  });

  it('lists a thermostat changed since, naming what differs and linking to plan it again', async () => {
    const fake = fakeService();
    const changed = fake.states.get(N2) as FullState;
    changed.configuration = { ...changed.configuration, fanMinimumOnTime: 25 };
    changed.alerts = {
      ...changed.alerts,
      lowTemperatureAlert: { enabled: true, value: 40 },
    };
    await assign(N1, 7 * HOUR);
    await assign(N2, 7 * HOUR);

    expect(await checkDrift({ service: fake.service, now })).toMatchObject({
      checked: 2,
      drifted: 1,
    });
    const drift = (await assignment(N2))?.drift?.lines.F ?? [];
    expect(drift).toContain('Configuration: Fan minimum on-time 25 min/h → 10 min/h');
    expect(drift.some((line) => /^Alerts: Low temperature alert threshold 40/.test(line))).toBe(
      true,
    );

    const items = await driftItems(owner);
    expect(items).toHaveLength(1);
    const [item] = items;
    expect(item).toMatchObject({
      thermostatId: N2,
      buildingId: NORTH,
      label: 'Unit 2',
      buildingName: 'North Tower',
      templateId,
      templateName: 'Office hours',
    });
    const words = describeItem(item as ListedItem, { unit: 'F', now });
    expect(words.title).toBe('Differs from its template');
    expect(words.detail).toMatch(/^Not as “Office hours” sets it/);
    expect(words.detail).toContain('Fan minimum on-time 25 min/h → 10 min/h');
    expect(replanHref(item as { templateId: string; thermostatId: string })).toBe(
      `/templates/${templateId}/plan?ids=${N2}`,
    );

    // Counted and filtered under its own kind, and not urgent anywhere.
    const { items: all } = await listAttention({ scope: owner, now });
    expect(all.filter((listed) => listed.kind === 'template_drift')).toHaveLength(1);
    expect(incidentKindOf('template_drift')).toBe('template_drift');
    expect(INCIDENT_KINDS.template_drift).toMatchObject({ severity: 'notice', enabled: false });

    // Set right again (here: by hand), the next check clears it.
    fake.states.set(N2, matching());
    now = new Date(now.getTime() + CHECK_EVERY_MS + 1);
    await checkDrift({ service: fake.service, now });
    expect((await assignment(N2))?.drift).toBeNull();
    expect(await driftItems(owner)).toEqual([]);
  });

  it('says what differs in the reader’s unit, and since when it was found', async () => {
    const fake = fakeService();
    const changed = fake.states.get(N2) as FullState;
    changed.alerts = { ...changed.alerts, lowTemperatureAlert: { enabled: true, value: 40 } };
    await assign(N2, 7 * HOUR);
    const foundAt = now;
    await checkDrift({ service: fake.service, now });

    // Kept without a unit of its own: the words in each, and when it was first found.
    const stored = (await assignment(N2))?.drift;
    expect(stored?.foundAt && new Date(stored.foundAt)).toEqual(foundAt);
    expect(stored?.lines.F).toContain('Alerts: Low temperature alert threshold 40 °F → 45 °F');
    expect(stored?.lines.C).toContain('Alerts: Low temperature alert threshold 4.4 °C → 7.2 °C');

    // Still differing at the next check: found when it was first found, not at the latest check.
    now = new Date(now.getTime() + CHECK_EVERY_MS + 1);
    await checkDrift({ service: fake.service, now });
    expect((await assignment(N2))?.checkedAt).toEqual(now);
    const [item] = await driftItems(owner);
    expect(item).toMatchObject({ thermostatId: N2, since: foundAt });

    const celsius = describeItem(item as ListedItem, { unit: 'C', now });
    expect(celsius.detail).toContain('Low temperature alert threshold 4.4 °C → 7.2 °C');
    expect(celsius.detail).not.toContain('°F');
    expect(celsius.detail).toMatch(/First found 6 h ago\.$/);
    const fahrenheit = describeItem(item as ListedItem, { unit: 'F', now });
    expect(fahrenheit.detail).toContain('Low temperature alert threshold 40 °F → 45 °F');
    expect(fahrenheit.detail).not.toContain('°C');

    // A notice of it, stored as JSON, reads in each recipient's unit too.
    const [cause] = causesOfItems([item as ListedItem]);
    const notice = { kind: 'template_drift', facts: cause?.facts ?? {} };
    expect(incidentWords(notice, { unit: 'C', now }).detail).toContain('4.4 °C → 7.2 °C');
    expect(incidentWords(notice, { unit: 'F', now }).detail).toContain('40 °F → 45 °F');

    // Set right, then drifting again: found anew.
    fake.states.set(N2, matching());
    now = new Date(now.getTime() + CHECK_EVERY_MS + 1);
    await checkDrift({ service: fake.service, now });
    expect((await assignment(N2))?.drift).toBeNull();
    fake.states.set(N2, changed);
    now = new Date(now.getTime() + CHECK_EVERY_MS + 1);
    await checkDrift({ service: fake.service, now });
    expect((await driftItems(owner))[0]?.since).toEqual(now);
  });

  it('still lists a drift kept as °F lines before, until its next check', async () => {
    await assign(N1, 7 * HOUR);
    await handle.db.execute(sql`
      update template_assignments set drift = ${JSON.stringify(['Configuration: Fan minimum on-time 30 min/h → 10 min/h'])}::jsonb
      where org_id = ${owner.orgId}::uuid and thermostat_id = ${N1}`);
    const [item] = await driftItems(owner);
    expect(item).toMatchObject({ thermostatId: N1, since: null });
    expect(describeItem(item as ListedItem, { unit: 'C', now }).detail).toBe(
      'Not as “Office hours” sets it (now → the template’s): Configuration: Fan minimum on-time 30 min/h → 10 min/h.',
    );

    // Its next check keeps it in each unit, found then.
    const fake = fakeService();
    const state = fake.states.get(N1) as FullState;
    state.configuration = { ...state.configuration, fanMinimumOnTime: 30 };
    await checkDrift({ service: fake.service, now });
    const stored = (await assignment(N1))?.drift;
    expect(stored?.foundAt && new Date(stored.foundAt)).toEqual(now);
    expect(stored?.lines.C).toEqual(['Configuration: Fan minimum on-time 30 min/h → 10 min/h']);
  });

  it('never counts access control, which the service cannot read', async () => {
    const fake = fakeService();
    // Its locks unknown or changed: nothing to say, as nothing can be read.
    (fake.states.get(N1) as FullState).accessControl = null;
    (fake.states.get(N3) as FullState).accessControl = {
      enabled: false,
      settings: Object.fromEntries(LOCK_AREAS.map((area) => [area, false])) as never,
    };
    await assign(N1, 7 * HOUR);
    await assign(N3, 7 * HOUR);
    expect(await checkDrift({ service: fake.service, now })).toMatchObject({
      checked: 2,
      drifted: 0,
    });
    expect(fake.reads.every((read) => read.accessControl === false)).toBe(true);
    expect(await driftItems(owner)).toEqual([]);
  });

  it('keeps the last drift when a read fails, and says nothing new', async () => {
    const fake = fakeService();
    const changed = fake.states.get(N3) as FullState;
    changed.configuration = { ...changed.configuration, fanMinimumOnTime: 5 };
    await assign(N3, 7 * HOUR);
    await checkDrift({ service: fake.service, now });
    const found = (await assignment(N3))?.drift;
    expect(found?.lines.F.length).toBeGreaterThan(0);

    // Set right meanwhile, but offline when it is checked again: the drift found stays.
    fake.states.set(N3, matching());
    fake.failing.add(N3);
    now = new Date(now.getTime() + CHECK_EVERY_MS + 1);
    expect(await checkDrift({ service: fake.service, now })).toMatchObject({
      checked: 0,
      failed: 1,
      drifted: 0,
    });
    expect(await assignment(N3)).toEqual({ checkedAt: now, drift: found });
    expect((await driftItems(owner)).map((item) => item.thermostatId)).toEqual([N3]);

    // A failed read does not mark drift either.
    fake.failing.add(N1);
    await assign(N1, 7 * HOUR);
    await checkDrift({ service: fake.service, now });
    expect((await assignment(N1))?.drift).toBeNull();
  });

  it('checks each at most every 6 hours, the longest unchecked first, within the round’s calls', async () => {
    const fake = fakeService();
    await assign(N1, 8 * HOUR);
    await assign(N2, 10 * HOUR);
    await assign(N3, 2 * HOUR); // checked recently: not due
    await assign(S1, 9 * HOUR);
    await assign(S2, 7 * HOUR);

    // Room for two checks of three reads, not three.
    const callCap = 2 * READS_PER_CHECK + 1;
    expect(await checkDrift({ service: fake.service, now, callCap })).toMatchObject({
      checked: 2,
    });
    expect(fake.reads.map((read) => read.thermostatId)).toEqual([N2, S1]);
    expect(fake.calls()).toBeLessThanOrEqual(callCap);

    await checkDrift({ service: fake.service, now, callCap });
    expect(fake.reads.map((read) => read.thermostatId)).toEqual([N2, S1, N1, S2]);

    // All due ones checked: within 6 hours, none is read again.
    now = new Date(now.getTime() + 3 * HOUR);
    expect(await checkDrift({ service: fake.service, now, callCap })).toMatchObject({
      due: 0,
      checked: 0,
    });
    expect(fake.reads).toHaveLength(4);
    // Two hours on, N3 was last checked 7 hours before: due again, and only it.
    now = new Date(now.getTime() + 2 * HOUR);
    await checkDrift({ service: fake.service, now, callCap });
    expect(fake.reads.map((read) => read.thermostatId).slice(4)).toEqual([N3]);

    // The default cap: at least one whole template's read, and a small share of the hour.
    expect(driftCallsPerMinute()).toBeGreaterThanOrEqual(5);
    expect(driftCallsPerMinute() * 60).toBeLessThanOrEqual(10_000 * 0.05);
  });

  it('shows a building manager only their buildings’ drift', async () => {
    const fake = fakeService();
    for (const id of [N1, S1]) {
      const state = fake.states.get(id) as FullState;
      state.configuration = { ...state.configuration, fanMinimumOnTime: 30 };
      await assign(id, 7 * HOUR);
    }
    await checkDrift({ service: fake.service, now });

    expect((await driftItems(owner)).map((item) => item.thermostatId).sort()).toEqual([N1, S1]);
    expect((await driftItems(north)).map((item) => item.thermostatId)).toEqual([N1]);
    expect((await listDrift({ scope: north })).map((row) => row.thermostatId)).toEqual([N1]);
    expect(await listDrift({ scope: { ...north, buildingIds: [] } })).toEqual([]);
  });
});
