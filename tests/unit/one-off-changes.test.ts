import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BulkRun, findBulkRun, listBulkRunItems } from '@/lib/runs/store';
import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import { addThermostat, ensureBuilding } from '@/lib/portfolio/store';
import { stopBoss } from '@/lib/queue/queue';
import { parseTemplateForm } from '@/lib/templates/form';
import {
  type PlanSummary,
  planTemplate,
  readsFor,
  scheduleUpdateOf,
  type ThermostatPlan,
} from '@/lib/templates/plan';
import { isOneOff, runTitle } from '@/lib/runs/words';
import { applyPlannedRun, planOneOffRun, planUndoOfRun } from '@/lib/templates/runs';
import { type Template, type TemplateInput, templateSchema } from '@/lib/templates/schema';
import type { TemplateService } from '@/lib/templates/service';
import { workPlannedRun } from '../support/runs';
import { ServiceError } from '@/lib/service/errors';
import {
  defaultAlertSettings,
  defaultComfortSettings,
  defaultSettings,
  residentialSchedule,
} from '@/sandbox/src/store';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, inviteAndAccept } from '../support/members';
import { applyOperations, type FullState } from '../support/template-service';

/**
 * One-off changes: a template body planned and applied on many thermostats without saving a
 * template, through the same job as template runs, against a stand-in for the service that
 * refuses what the service refuses (tests/support/template-service.ts).
 */

const A = '00000000000000000000a0a2';
const B = '00000000000000000000b0b2';
const id = (n: number) => String(310000000000 + n);
const IDS = Array.from({ length: 8 }, (_, n) => id(n));
const BUILDING_OF = (n: number) => (n < 4 ? A : B);

function freshThermostat(): FullState {
  return {
    isResidentMode: true,
    heatCoolMinDelta: 5,
    comfortSettings: defaultComfortSettings().map((setting) => ({ ...setting })),
    week: residentialSchedule(),
    configuration: defaultSettings(),
    alerts: { ...defaultAlertSettings() },
    accessControl: null,
  };
}

/** The service in memory: each thermostat's state, and the calls made. */
function fakeService() {
  const states = new Map<string, FullState>(IDS.map((t) => [t, freshThermostat()]));
  const calls = { read: 0, write: 0 };
  const state = (thermostatId: string) => {
    const found = states.get(thermostatId);
    if (!found) throw new ServiceError('not_found', { status: 404 });
    return found;
  };
  const service: TemplateService = {
    async read({ thermostatId, reads, accessControl }) {
      calls.read += reads.length;
      const now = structuredClone(state(thermostatId));
      const { accessControl: locks, ...rest } = now;
      return { ...rest, ...(accessControl ? { accessControl: locks } : {}) };
    },
    async configuration({ thermostatIds, changes }) {
      calls.write += 1;
      const results = thermostatIds.map((thermostatId) => {
        states.set(
          thermostatId,
          applyOperations(state(thermostatId), [
            { kind: 'configuration', stage: 'before', changes },
          ]),
        );
        return { thermostatId, status: 'success' as const, data: {} };
      });
      return { succeeded: results.length, failed: 0, results };
    },
    async perform({ thermostatId, operation, created }) {
      calls.write += 1;
      const resolved =
        operation.kind === 'schedule'
          ? {
              ...operation,
              comfortSetting: { ref: scheduleUpdateOf(operation, created).comfortSettingRef },
            }
          : operation;
      const next = applyOperations(state(thermostatId), [resolved]);
      states.set(thermostatId, next);
      if (operation.kind === 'createComfortSetting') {
        const made = next.comfortSettings.find((s) => s.name === operation.fields.name);
        return { createdRef: made?.comfortSettingRef };
      }
      return {};
    },
    async findComfortSetting({ thermostatId, name }) {
      return (
        state(thermostatId).comfortSettings.find(
          (s) => s.name.toLowerCase() === name.toLowerCase(),
        ) ?? null
      );
    },
  };
  return { service, states, calls };
}

/** A thermostat set up by hand: a custom setting in its week, its own ranges and alerts. */
function customised(): FullState {
  const state = freshThermostat();
  return applyOperations(state, [
    {
      kind: 'createComfortSetting',
      fields: { name: 'Guest', desiredHeat: 68, desiredCool: 77, fanHeat: 'on', fanCool: 'auto' },
    },
    {
      kind: 'updateComfortSetting',
      comfortSettingRef: 'away',
      changes: { desiredHeat: 60 },
    },
    {
      kind: 'schedule',
      days: ['saturday', 'sunday'],
      firstSlot: 20,
      lastSlot: 30,
      comfortSetting: { ref: 'smart1' },
    },
    {
      kind: 'configuration',
      stage: 'before',
      changes: { heatRange: { min: 50, max: 75 }, holdAction: 'indefinite' },
    },
    { kind: 'alerts', changes: { lowTemperatureAlert: { value: 48 } } },
  ]);
}

/** A thermostat's state in names, as a manager compares it (refs are each thermostat's own). */
function byName(state: FullState) {
  const names = new Map(state.comfortSettings.map((s) => [s.comfortSettingRef, s.name]));
  return {
    isResidentMode: state.isResidentMode,
    comfortSettings: state.comfortSettings
      .map(({ comfortSettingRef: _ref, ...fields }) => fields)
      .sort((a, b) => a.name.localeCompare(b.name)),
    week: state.week.map((day) => day.map((ref) => names.get(ref))),
    configuration: state.configuration,
    alerts: state.alerts,
  };
}

const plannedOn = (change: Omit<TemplateInput, 'name'>, state: FullState): ThermostatPlan =>
  planTemplate(templateSchema.parse({ name: 'One-off', ...change }), state);

describe('resident mode in a change', () => {
  it('is refused off together with any other section, and allowed on with them', () => {
    const off = templateSchema.safeParse({ name: 'x', residentMode: false, alerts: ALERTS.alerts });
    expect(off.success).toBe(false);
    expect(off.error?.issues[0]?.path).toEqual(['residentMode']);
    expect(off.error?.issues[0]?.message).toMatch(/resets every other setting/);
    expect(templateSchema.safeParse({ name: 'x', residentMode: true, ...ALERTS }).success).toBe(
      true,
    );
    expect(templateSchema.safeParse({ name: 'x', residentMode: false }).success).toBe(true);
  });

  it('off reads the whole state, warns of the reset, and is one call, last', () => {
    const template = templateSchema.parse({ name: 'x', residentMode: false });
    expect(readsFor(template)).toEqual([
      'status',
      'comfortSettings',
      'schedule',
      'settings',
      'alertSettings',
    ]);
    const plan = plannedOn({ residentMode: false }, customised());
    expect(plan.operations).toEqual([{ kind: 'residentMode', changes: { isResidentMode: false } }]);
    expect(plan.warnings?.[0]).toMatch(/resets the thermostat’s comfort settings/);
    expect(plan.diff[0]?.lines[0]).toMatchObject({ field: 'Resident mode', before: 'on' });
    // Already off: nothing to do, no warning.
    const off = { ...customised(), isResidentMode: false };
    expect(plannedOn({ residentMode: false }, off)).toMatchObject({ unchanged: true });
    expect(plannedOn({ residentMode: false }, off).warnings).toBeUndefined();
    // On with alerts: the alerts first, resident mode last.
    const on = plannedOn({ residentMode: true, ...ALERTS }, off);
    expect(on.operations.map((o) => o.kind)).toEqual(['alerts', 'residentMode']);
  });
});

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;

/** The plan's operations applied, as the service would; throws where the service refuses. */
const applied = (state: FullState, plan: ThermostatPlan) => applyOperations(state, plan.operations);

describe('schedule ranges in a change', () => {
  it('plans one update per range that changes something, on the days it changes', () => {
    const state = freshThermostat();
    const change = {
      scheduleRanges: [
        // Weekday mornings 07:00–09:00 Away: Home until 08:30 today.
        { days: [...WEEKDAYS], firstSlot: 14, lastSlot: 17, name: 'Away' },
        // Already Away on weekdays (names ignore case): skipped.
        { days: [...WEEKDAYS], firstSlot: 20, lastSlot: 30, name: 'away' },
        // Away is already so on Monday: only Saturday is sent.
        { days: ['monday', 'saturday'], firstSlot: 18, lastSlot: 20, name: 'Away' },
      ],
    } satisfies Omit<Template, 'name'>;
    const plan = plannedOn(change, state);
    expect(plan.problems).toEqual([]);
    expect(plan.operations).toEqual([
      {
        kind: 'schedule',
        days: [...WEEKDAYS],
        firstSlot: 14,
        lastSlot: 17,
        comfortSetting: { ref: 'away' },
      },
      {
        kind: 'schedule',
        days: ['saturday'],
        firstSlot: 18,
        lastSlot: 20,
        comfortSetting: { ref: 'away' },
      },
    ]);
    const section = plan.diff.find((part) => part.section === 'scheduleRanges');
    expect(section?.summary).toBe('2 range updates; 1 range already so.');
    expect(section?.lines[0]).toEqual({
      field: expect.stringMatching(/^Monday.+Friday 07:00–08:30$/),
      before: 'Home',
      after: 'Away',
    });
    // Applied, the week holds the ranges; planned again, nothing is left to do.
    const after = applied(state, plan);
    expect(after.week[0]?.slice(14, 18)).toEqual(['away', 'away', 'away', 'away']);
    expect(plannedOn(change, after)).toMatchObject({ unchanged: true, operations: [] });
  });

  it('skips a range a later one paints over entirely', () => {
    const plan = plannedOn(
      {
        scheduleRanges: [
          { days: ['monday'], firstSlot: 10, lastSlot: 20, name: 'Home' },
          { days: ['monday'], firstSlot: 10, lastSlot: 20, name: 'Sleep' },
        ],
      },
      freshThermostat(),
    );
    expect(plan.operations).toHaveLength(1);
    expect(plan.operations[0]).toMatchObject({ comfortSetting: { ref: 'sleep' } });
  });

  it('refuses a name the thermostat lacks, and uses one the change creates', () => {
    const range = { days: ['sunday' as const], firstSlot: 0, lastSlot: 47 };
    const unknown = plannedOn(
      { scheduleRanges: [{ ...range, name: 'Vacant' }] },
      freshThermostat(),
    );
    expect(unknown.operations).toEqual([]);
    expect(unknown.problems[0]).toMatch(/“Vacant”.*does not have and the change does not create/);

    const change = {
      comfortSettings: [{ name: 'Vacant', desiredHeat: 55, desiredCool: 85 }],
      scheduleRanges: [{ ...range, name: 'vacant' }],
    };
    const plan = plannedOn(change, freshThermostat());
    expect(plan.operations.map((o) => o.kind)).toEqual(['createComfortSetting', 'schedule']);
    expect(plan.operations[1]).toMatchObject({ comfortSetting: { newName: 'Vacant' } });
    expect(plan.diff.find((part) => part.section === 'scheduleRanges')?.lines).toEqual([
      { field: expect.stringMatching(/^Sunday 00:00–/), before: 'Sleep', after: 'Vacant' },
      { field: expect.stringMatching(/^Sunday 08:00–/), before: 'Home', after: 'Vacant' },
      { field: expect.stringMatching(/^Sunday 23:00–/), before: 'Sleep', after: 'Vacant' },
    ]);
    const after = applied(freshThermostat(), plan);
    const vacant = after.comfortSettings.find((s) => s.name === 'Vacant')?.comfortSettingRef;
    expect(new Set(after.week[6])).toEqual(new Set([vacant]));
    expect(plannedOn(change, after).unchanged).toBe(true);
  });

  it('is refused with a whole week, and with a range past midnight', () => {
    const week = Array.from({ length: 7 }, () => new Array<string>(48).fill('Home'));
    const both = templateSchema.safeParse({
      name: 'x',
      schedule: week,
      scheduleRanges: [{ days: ['monday'], firstSlot: 0, lastSlot: 1, name: 'Home' }],
    });
    expect(both.success).toBe(false);
    expect(both.error?.issues.map((issue) => issue.path[0])).toContain('scheduleRanges');
    const backwards = templateSchema.safeParse({
      name: 'x',
      scheduleRanges: [{ days: ['monday'], firstSlot: 30, lastSlot: 10, name: 'Home' }],
    });
    expect(backwards.success).toBe(false);
  });

  it('reads from the form: days, times in half hours, the name; errors under their fields', () => {
    const form = new FormData();
    form.set('includeScheduleRanges', 'on');
    for (const day of ['monday', 'tuesday']) form.set(`range.0.${day}`, 'on');
    form.set('range.0.from', '18');
    form.set('range.0.to', '34');
    form.set('range.0.name', ' Away ');
    const parsed = parseTemplateForm(form, { unit: 'F', source: { kind: 'new' }, name: 'x' });
    expect(parsed).toEqual({
      ok: true,
      template: {
        name: 'x',
        scheduleRanges: [
          { days: ['monday', 'tuesday'], firstSlot: 18, lastSlot: 33, name: 'Away' },
        ],
      },
    });
    form.set('range.0.to', '18');
    form.set('range.1.name', 'Home');
    const wrong = parseTemplateForm(form, { unit: 'F', source: { kind: 'new' }, name: 'x' });
    expect(wrong.ok ? {} : wrong.fieldErrors).toMatchObject({
      'range.0.to': [expect.stringMatching(/after the start/)],
      'range.1.days': ['Choose at least one day.'],
    });
    const off = new FormData();
    off.set('includeResidentMode', 'on');
    off.set('residentMode', 'off');
    off.set('includeAlerts', 'on');
    const alone = parseTemplateForm(off, { unit: 'F', source: { kind: 'new' }, name: 'x' });
    expect(alone.ok ? {} : alone.fieldErrors).toMatchObject({
      residentMode: [expect.stringMatching(/cannot be combined/)],
    });
  });
});

const ALERTS: Omit<Template, 'name'> = {
  alerts: {
    lowTemperatureAlert: { enabled: true, value: 50 },
    highHumidityAlert: { enabled: true, value: 65 },
  },
};

describe.each(databaseTargets)('one-off changes on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let owner: Member;
  let managerA: Member;
  let viewer: Member;

  beforeAll(async () => {
    // The worker reads the service's limits from the configuration, for the plan's time.
    process.env.AUTH_SECRET ??= randomBytes(32).toString('base64url');
    process.env.TOKEN_KEYS ??= `1:${randomBytes(32).toString('base64url')}`;
    process.env.SERVICE_ALLOW_REDIRECT_PORT ??= 'true';
    handle = await useDatabase(await target());
    owner = await createFirstOwner('owner@oneoff.example', 'One-off Property');
    for (const [buildingId, name] of [
      [A, 'Aspen House'],
      [B, 'Beech Court'],
    ] as const) {
      await ensureBuilding({ orgId: owner.orgId, buildingId, name, timeZone: 'America/Denver' });
    }
    for (const [n, thermostatId] of IDS.entries()) {
      await addThermostat({
        orgId: owner.orgId,
        thermostatId,
        buildingId: BUILDING_OF(n),
        unitLabel: `Unit ${n + 1}`,
      });
    }
    managerA = await inviteAndAccept(owner.orgId, 'aspen@oneoff.example', 'building_manager', [A]);
    viewer = await inviteAndAccept(owner.orgId, 'viewer@oneoff.example', 'viewer');
  });

  afterAll(async () => {
    await stopBoss();
    await handle.close();
  });

  async function plan(
    member: Member,
    service: TemplateService,
    change: Omit<Template, 'name'>,
    ids = IDS,
  ): Promise<BulkRun> {
    const planned = await planOneOffRun({ member, template: change, thermostatIds: ids });
    if (!planned.ok) throw new Error(planned.message);
    expect(await workPlannedRun({ runId: planned.run.id, service, owner: 'test' })).toBe(
      'finished',
    );
    const run = await findBulkRun({ scope: member, runId: planned.run.id });
    expect(run?.state).toBe('planned');
    return run as BulkRun;
  }

  async function apply(member: Member, run: BulkRun, service: TemplateService) {
    const applied = await applyPlannedRun({ member, runId: run.id });
    if (!applied.ok) throw new Error(applied.message);
    return workPlannedRun({ runId: run.id, service, owner: 'test' });
  }

  it('plans a one-off change without a template, applies it with a result per thermostat, and undoes it', async () => {
    const fake = fakeService();
    const original = structuredClone(fake.states.get(id(0)) as FullState);
    const run = await plan(owner, fake.service, ALERTS);
    expect(run).toMatchObject({ kind: 'template', templateId: null });
    expect(isOneOff(run)).toBe(true);
    expect(runTitle(run)).toBe('One-off: alert settings on 8 thermostats');
    const summary = run.planSummary as unknown as PlanSummary;
    expect(summary).toMatchObject({ thermostats: 8, changing: 8, calls: 8 });

    expect(await apply(owner, run, fake.service)).toBe('finished');
    const done = await findBulkRun({ scope: owner, runId: run.id });
    expect(done).toMatchObject({ state: 'done', applied: 8, failed: 0 });
    const items = await listBulkRunItems({ scope: owner, run, limit: 100 });
    expect(items.map((item) => item.outcome)).toEqual(new Array(8).fill('applied'));
    expect(fake.states.get(id(0))?.alerts.lowTemperatureAlert).toEqual({
      enabled: true,
      value: 50,
    });

    // Planned again: nothing left to change.
    const again = await plan(owner, fake.service, ALERTS);
    expect((again.planSummary as unknown as PlanSummary).unchanged).toBe(8);
    await apply(owner, again, fake.service);

    const undo = await planUndoOfRun({ member: owner, runId: run.id });
    if (!undo.ok) throw new Error(undo.message);
    await workPlannedRun({ runId: undo.run.id, service: fake.service, owner: 'u' });
    await apply(
      owner,
      (await findBulkRun({ scope: owner, runId: undo.run.id })) as BulkRun,
      fake.service,
    );
    expect(fake.states.get(id(0))?.alerts).toEqual(original.alerts);
  });

  it('applies alerts and a schedule range with a comfort setting created where missing', async () => {
    const fake = fakeService();
    // Unit 2 already has Vacant (its own ref): matched by name, not created again.
    fake.states.set(
      id(1),
      applyOperations(freshThermostat(), [
        {
          kind: 'createComfortSetting',
          fields: {
            name: 'VACANT',
            desiredHeat: 55,
            desiredCool: 85,
            fanHeat: 'auto',
            fanCool: 'auto',
          },
        },
      ]),
    );
    const change = {
      ...ALERTS,
      comfortSettings: [
        { name: 'Vacant', desiredHeat: 55, desiredCool: 85, fanHeat: 'auto', fanCool: 'auto' },
      ],
      scheduleRanges: [{ days: [...WEEKDAYS], firstSlot: 18, lastSlot: 33, name: 'Vacant' }],
    } satisfies Omit<Template, 'name'>;
    const run = await plan(owner, fake.service, change, [id(0), id(1), id(2)]);
    expect(runTitle(run)).toBe(
      'One-off: comfort settings, schedule ranges, alert settings on 3 thermostats',
    );
    expect(await apply(owner, run, fake.service)).toBe('finished');
    expect(await findBulkRun({ scope: owner, runId: run.id })).toMatchObject({
      applied: 3,
      failed: 0,
    });
    for (const t of [id(0), id(1), id(2)]) {
      const state = fake.states.get(t) as FullState;
      const vacant = state.comfortSettings.filter((s) => s.name.toLowerCase() === 'vacant');
      expect(vacant).toHaveLength(1);
      expect(state.week[2]?.[20]).toBe(vacant[0]?.comfortSettingRef);
    }
    const again = await plan(owner, fake.service, change, [id(0), id(1), id(2)]);
    expect((again.planSummary as unknown as PlanSummary).unchanged).toBe(3);
    await apply(owner, again, fake.service);
  });

  it('turns resident mode off with the whole state kept, and the undo puts it all back', async () => {
    const fake = fakeService();
    for (const t of [id(2), id(3)]) fake.states.set(t, customised());
    const original = byName(fake.states.get(id(2)) as FullState);
    const run = await plan(owner, fake.service, { residentMode: false }, [id(2), id(3)]);
    expect(runTitle(run)).toBe('One-off: resident mode off on 2 thermostats');
    expect((run.planSummary as unknown as PlanSummary).resets).toBe(2);
    const [item] = await listBulkRunItems({ scope: owner, run, limit: 1 });
    expect((item?.plan as unknown as ThermostatPlan | undefined)?.warnings?.[0]).toMatch(/resets/);
    // The plan read everything: `before` holds the whole state.
    expect(Object.keys(item?.before ?? {}).sort()).toEqual(
      [
        'accessControl',
        'alerts',
        'comfortSettings',
        'configuration',
        'heatCoolMinDelta',
        'isResidentMode',
        'week',
      ].sort(),
    );

    expect(await apply(owner, run, fake.service)).toBe('finished');
    const reset = fake.states.get(id(2)) as FullState;
    expect(reset.isResidentMode).toBe(false);
    expect(reset.comfortSettings.map((s) => s.name)).toEqual(['Home', 'Away', 'Sleep']);
    expect(reset.configuration).toEqual(freshThermostat().configuration);

    const undo = await planUndoOfRun({ member: owner, runId: run.id });
    if (!undo.ok) throw new Error(undo.message);
    expect(await workPlannedRun({ runId: undo.run.id, service: fake.service, owner: 'u' })).toBe(
      'finished',
    );
    const plannedUndo = (await findBulkRun({ scope: owner, runId: undo.run.id })) as BulkRun;
    expect((plannedUndo.planSummary as unknown as PlanSummary).blocked).toBe(0);
    expect(await apply(owner, plannedUndo, fake.service)).toBe('finished');
    expect(byName(fake.states.get(id(2)) as FullState)).toEqual(original);
    expect(byName(fake.states.get(id(3)) as FullState)).toEqual(original);
  });

  it('refuses a viewer, a building manager outside their buildings, and an empty change', async () => {
    const byViewer = await planOneOffRun({ member: viewer, template: ALERTS, thermostatIds: IDS });
    expect(byViewer).toMatchObject({ ok: false, code: 'forbidden' });
    const outside = await planOneOffRun({
      member: managerA,
      template: ALERTS,
      thermostatIds: [id(0), id(5)],
    });
    expect(outside).toMatchObject({ ok: false, code: 'forbidden' });
    expect(outside.ok ? '' : outside.message).toMatch(/not in your portfolio/);
    const empty = await planOneOffRun({ member: owner, template: {}, thermostatIds: IDS });
    expect(empty).toMatchObject({ ok: false, code: 'invalid' });
    const passcode = await planOneOffRun({
      member: owner,
      template: { accessControl: { enabled: true, passcode: '1234' } },
      thermostatIds: IDS,
    });
    expect(passcode).toMatchObject({ ok: false, code: 'invalid' });

    const fake = fakeService();
    const mine = await plan(managerA, fake.service, ALERTS, [id(0), id(1)]);
    expect(await apply(managerA, mine, fake.service)).toBe('finished');
    expect(fake.states.get(id(5))?.alerts).toEqual(defaultAlertSettings());
  });
});
