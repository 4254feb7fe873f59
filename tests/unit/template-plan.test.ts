import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  estimateSeconds,
  type PlannedThermostat,
  planTemplate,
  readsFor,
  scheduleUpdateOf,
  summarisePlan,
  type TemplateOperation,
  type ThermostatPlan,
} from '@/lib/templates/plan';
import { type Template, type TemplateInput, templateSchema } from '@/lib/templates/schema';
import { budgetWindows } from '@/lib/service/budget';
import { DAYS, HOLD_ACTIONS, LOCK_AREAS } from '@/lib/service/schemas';
import { PRODUCTION_RATE_LIMIT } from '@/sandbox/src/config';
import {
  defaultAccessControl,
  defaultAlertSettings,
  defaultComfortSettings,
  defaultSettings,
  fillDay,
  residentialSchedule,
} from '@/sandbox/src/store';
import { applyOperations, type FullState } from '../support/template-service';

// ---------------------------------------------------------------------------------------------
// A thermostat as the sandbox creates one (sandbox/src/store.ts defaults).

const fill = fillDay;
const residentialWeek = residentialSchedule;

const OFF_LOCKS = defaultAccessControl().settings;

function thermostat(overrides: Partial<FullState> = {}): FullState {
  return {
    heatCoolMinDelta: 5,
    // Spread: the sandbox's interfaces, as the client's open (looseObject) types.
    comfortSettings: defaultComfortSettings().map((setting) => ({ ...setting })),
    week: residentialSchedule(),
    configuration: defaultSettings(),
    alerts: { ...defaultAlertSettings() },
    accessControl: { enabled: false, settings: { ...OFF_LOCKS } },
    ...overrides,
  };
}

const template = (input: Omit<TemplateInput, 'name'>): Template =>
  templateSchema.parse({ name: 'Test template', ...input });

/** The template's week by name: the residential week with names for refs. */
const residentialByName = (rename: Record<string, string> = {}) =>
  residentialWeek().map((day) =>
    day.map((ref) => rename[ref] ?? { home: 'Home', away: 'Away', sleep: 'Sleep' }[ref] ?? ref),
  );

const kinds = (plan: ThermostatPlan) => plan.operations.map((op) => op.kind);

/** Plans, runs the plan against the simulated service, and plans again. */
function applyAndReplan(tpl: Template, state: FullState) {
  const plan = planTemplate(tpl, state);
  const after = applyOperations(state, plan.operations);
  return { plan, after, again: planTemplate(tpl, after) };
}

// ---------------------------------------------------------------------------------------------

describe('planTemplate: nothing to do', () => {
  it('gives no operations and no diff when the thermostat already matches', () => {
    const tpl = template({
      comfortSettings: [
        { name: 'Home', desiredHeat: 70, desiredCool: 76 },
        { name: 'Sleep', desiredHeat: 66, desiredCool: 78 },
      ],
      schedule: residentialByName(),
      configuration: { heatRange: { min: 45, max: 79 }, holdAction: 'nextTransition' },
      alerts: { lowTemperatureAlert: { enabled: true, value: 45 } },
      accessControl: { enabled: false },
    });
    const plan = planTemplate(tpl, thermostat());
    expect(plan).toMatchObject({ operations: [], diff: [], unchanged: true, problems: [] });
  });
});

describe('planTemplate: each section', () => {
  it('sends only the configuration fields that differ, and says them in words', () => {
    const tpl = template({
      configuration: {
        heatRange: { min: 45, max: 79 },
        holdAction: 'indefinite',
        fanMinimumOnTime: 0,
      },
    });
    const plan = planTemplate(tpl, thermostat());
    expect(plan.operations).toEqual([
      { kind: 'configuration', stage: 'before', changes: { holdAction: 'indefinite' } },
    ]);
    expect(plan.diff).toEqual([
      {
        section: 'configuration',
        title: 'Configuration',
        summary: '1 setting to change.',
        lines: [
          {
            field: 'Hold action',
            before: 'Until the next scheduled period',
            after: 'Indefinitely',
          },
        ],
      },
    ]);
  });

  it('creates missing comfort settings before the schedule updates that name them', () => {
    const tpl = template({
      comfortSettings: [{ name: 'Quiet Hours', desiredHeat: 67, desiredCool: 79 }],
      schedule: residentialByName().map((day) =>
        fill(fill(day, 0, 11, 'Quiet Hours'), 44, 47, 'quiet hours'),
      ),
    });
    const state = thermostat();
    const { plan, after, again } = applyAndReplan(tpl, state);
    expect(kinds(plan)).toEqual(['createComfortSetting', 'schedule', 'schedule']);
    const [, first, second] = plan.operations as Extract<TemplateOperation, { kind: 'schedule' }>[];
    expect(first?.comfortSetting).toEqual({ newName: 'Quiet Hours' });
    expect(second?.comfortSetting).toEqual({ newName: 'Quiet Hours' });
    // At apply time the new setting's ref comes from the service's answer.
    expect(scheduleUpdateOf(first as never, new Map([['quiet hours', 'smart4']]))).toMatchObject({
      days: [...DAYS],
      comfortSettingRef: 'smart4',
    });
    expect(plan.scheduleProvenFewest).toBe(true);
    expect(after.comfortSettings.at(-1)?.name).toBe('Quiet Hours');
    expect(again.operations).toEqual([]);
    expect(again.unchanged).toBe(true);
  });

  it('says the schedule’s changes per stretch of days and times, by name', () => {
    const tpl = template({
      schedule: residentialByName().map((day, d) => (d < 5 ? fill(day, 17, 34, 'Home') : day)),
    });
    const plan = planTemplate(tpl, thermostat());
    expect(plan.diff).toEqual([
      {
        section: 'schedule',
        title: 'Schedule',
        summary: '1 range update, the fewest possible.',
        lines: [{ field: 'Monday–Friday 08:30–17:30', before: 'Away', after: 'Home' }],
      },
    ]);
  });

  it('updates only the alert fields that differ, nested', () => {
    const tpl = template({
      alerts: {
        hvacMaintenanceReminder: { maintenanceInterval: 12, maintenanceIntervalUnits: 'month' },
        lowTemperatureAlert: { enabled: true, value: 40 },
        highHumidityAlert: { enabled: true },
      },
    });
    const plan = planTemplate(tpl, thermostat());
    expect(plan.operations).toEqual([
      {
        kind: 'alerts',
        changes: {
          hvacMaintenanceReminder: { maintenanceInterval: 12 },
          lowTemperatureAlert: { value: 40 },
          highHumidityAlert: { enabled: true },
        },
      },
    ]);
    expect(plan.diff[0]?.lines).toEqual([
      { field: 'Maintenance interval', before: '6 months', after: '12 months' },
      { field: 'Low temperature alert threshold', before: '45 °F', after: '40 °F' },
      { field: 'High humidity alert', before: 'off', after: 'on' },
    ]);
  });

  it('sets locks when they differ or are not known, never a passcode', () => {
    const tpl = template({
      accessControl: {
        enabled: true,
        settings: { ...OFF_LOCKS, temperature: true, schedule: true },
      },
    });
    const locks = { enabled: true, settings: { ...OFF_LOCKS, temperature: true, schedule: true } };
    const expected = [{ kind: 'accessControl', changes: locks }];
    expect(planTemplate(tpl, thermostat()).operations).toEqual(expected);
    expect(planTemplate(tpl, thermostat({ accessControl: null })).operations).toEqual(expected);
    expect(planTemplate(tpl, thermostat({ accessControl: null })).diff[0]?.lines[0]).toEqual({
      field: 'Access control',
      before: 'not known (the service has no read for it)',
      after: 'on (each thermostat keeps its own passcode)',
    });
    expect(planTemplate(tpl, thermostat({ accessControl: locks })).unchanged).toBe(true);
  });

  it('renames a setting to the template’s spelling', () => {
    const tpl = template({ comfortSettings: [{ name: 'HOME', desiredHeat: 70, desiredCool: 76 }] });
    const plan = planTemplate(tpl, thermostat());
    expect(plan.operations).toEqual([
      { kind: 'updateComfortSetting', comfortSettingRef: 'home', changes: { name: 'HOME' } },
    ]);
    expect(plan.diff[0]?.lines).toEqual([{ field: '“Home” name', before: 'Home', after: 'HOME' }]);
  });
});

describe('planTemplate: ranges and setpoints in an order the service accepts', () => {
  const homeAt = (heat: number, cool = 76) => ({
    comfortSettingRef: 'home',
    name: 'Home',
    desiredHeat: heat,
    desiredCool: cool,
    fanHeat: 'auto',
    fanCool: 'auto',
  });
  const withHome = (heat: number, heatRange: { min: number; max: number }) =>
    thermostat({
      comfortSettings: [homeAt(heat)],
      configuration: { ...thermostat().configuration, heatRange },
    });

  it('widens first when today’s setpoints fit the new ranges', () => {
    const tpl = template({
      comfortSettings: [{ name: 'Home', desiredHeat: 55, desiredCool: 76 }],
      configuration: { heatRange: { min: 50, max: 79 } },
    });
    const { plan, again } = applyAndReplan(tpl, withHome(70, { min: 60, max: 79 }));
    expect(plan.operations.map((op) => (op.kind === 'configuration' ? op.stage : op.kind))).toEqual(
      ['before', 'updateComfortSetting'],
    );
    expect(again.unchanged).toBe(true);
  });

  it('changes setpoints first when the new ranges would leave today’s outside', () => {
    const tpl = template({
      comfortSettings: [{ name: 'Home', desiredHeat: 65, desiredCool: 76 }],
      configuration: { heatRange: { min: 60, max: 75 } },
    });
    const { plan, again } = applyAndReplan(tpl, withHome(58, { min: 45, max: 79 }));
    expect(plan.operations.map((op) => (op.kind === 'configuration' ? op.stage : op.kind))).toEqual(
      ['updateComfortSetting', 'after'],
    );
    expect(again.unchanged).toBe(true);
  });

  it('widens to hold both, then narrows, when neither order works', () => {
    const tpl = template({
      comfortSettings: [{ name: 'Home', desiredHeat: 50, desiredCool: 76 }],
      configuration: { heatRange: { min: 45, max: 60 }, fanMinimumOnTime: 10 },
    });
    const { plan, again } = applyAndReplan(tpl, withHome(70, { min: 55, max: 79 }));
    expect(plan.operations).toEqual([
      { kind: 'configuration', stage: 'before', changes: { heatRange: { min: 45, max: 79 } } },
      { kind: 'updateComfortSetting', comfortSettingRef: 'home', changes: { desiredHeat: 50 } },
      {
        kind: 'configuration',
        stage: 'after',
        changes: { heatRange: { min: 45, max: 60 }, fanMinimumOnTime: 10 },
      },
    ]);
    expect(again.unchanged).toBe(true);
  });
});

describe('planTemplate: problems stop the thermostat, with reasons', () => {
  it('when the schedule names a setting the thermostat lacks and the template does not define', () => {
    const plan = planTemplate(
      template({ schedule: residentialByName({ away: 'Office Hours' }) }),
      thermostat(),
    );
    expect(plan.operations).toEqual([]);
    expect(plan.unchanged).toBe(false);
    expect(plan.problems).toEqual([
      'The schedule uses “Office Hours”, which this thermostat does not have and the template does not define.',
    ]);
  });

  it('when setpoints break this thermostat’s gap or ranges, or a 17th setting would be needed', () => {
    const tight = template({
      comfortSettings: [{ name: 'Home', desiredHeat: 72, desiredCool: 75 }],
    });
    expect(planTemplate(tight, thermostat()).problems).toHaveLength(1);
    expect(planTemplate(tight, thermostat({ heatCoolMinDelta: 3 })).problems).toEqual([]);

    const narrow = template({ configuration: { heatRange: { min: 68, max: 75 } } });
    // Away heats to 62 and Sleep to 66: the service would refuse the new range.
    expect(planTemplate(narrow, thermostat()).problems).toHaveLength(2);

    const many = thermostat({
      comfortSettings: Array.from({ length: 16 }, (_, i) => ({
        comfortSettingRef: `smart${i}`,
        name: `Setting ${i}`,
        desiredHeat: 68,
        desiredCool: 76,
        fanHeat: 'auto',
        fanCool: 'auto',
      })),
    });
    const one = template({
      comfortSettings: [{ name: 'Holiday', desiredHeat: 64, desiredCool: 80 }],
    });
    expect(planTemplate(one, many).problems[0]).toMatch(/limit of 16/);
  });

  it('when alerts would end up closer than the thermostat allows', () => {
    const tpl = template({ alerts: { highTemperatureAlert: { value: 48 } } });
    expect(planTemplate(tpl, thermostat()).problems).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties: any thermostat, any template

const NAMES = ['Home', 'Away', 'Sleep', 'Guest Stay', 'Vacant Unit', 'Quiet Hours', 'Holiday'];
const casing = (name: string) => fc.constantFrom(name, name.toLowerCase(), name.toUpperCase());
const half = (min: number, max: number) =>
  fc.integer({ min: min * 2, max: max * 2 }).map((n) => n / 2);

const setpoints = (heatMin: number, heatMax: number, coolMin: number, coolMax: number) =>
  half(heatMin, heatMax).chain((heat) =>
    half(Math.max(heat + 5, coolMin), coolMax).map((cool) => ({
      desiredHeat: heat,
      desiredCool: cool,
    })),
  );

/** A thermostat with custom refs meaning whatever, a week of its refs, and settings that hold. */
const anyThermostat: fc.Arbitrary<FullState> = fc
  .record({
    names: fc.shuffledSubarray(NAMES, { minLength: 3, maxLength: 6 }),
    delta: fc.integer({ min: 2, max: 5 }),
    heatRange: fc.record({
      min: fc.integer({ min: 45, max: 58 }),
      max: fc.integer({ min: 74, max: 79 }),
    }),
    coolRange: fc.record({
      min: fc.integer({ min: 65, max: 70 }),
      max: fc.integer({ min: 86, max: 92 }),
    }),
    holdAction: fc.constantFrom(...HOLD_ACTIONS, 'untilMidnight'),
    fanMinimumOnTime: fc.integer({ min: 0, max: 55 }),
    lowTemperature: fc.integer({ min: 35, max: 50 }),
    highTemperature: fc.integer({ min: 85, max: 100 }),
    locks: fc.option(
      fc.record({ enabled: fc.boolean(), settings: fc.record(OFF_LOCKS_ARBITRARY()) }),
    ),
  })
  .chain((base) =>
    fc
      .tuple(
        fc.tuple(...base.names.map((name) => fc.tuple(casing(name), setpoints(60, 72, 71, 84)))),
        fc.array(fc.array(fc.nat(), { minLength: 48, maxLength: 48 }), {
          minLength: 7,
          maxLength: 7,
        }),
      )
      .map(([settings, cells]): FullState => {
        // The defaults keep their refs; custom ones get smart refs in a shuffled order.
        const refs = base.names.map((name, i) =>
          ['Home', 'Away', 'Sleep'].includes(name) ? name.toLowerCase() : `smart${i + 1}`,
        );
        const state = thermostat({
          heatCoolMinDelta: base.delta,
          comfortSettings: settings.map(([name, points], i) => ({
            comfortSettingRef: refs[i] as string,
            name,
            ...points,
            fanHeat: 'auto',
            fanCool: 'auto',
          })),
          // Runs of refs rather than noise: blocks repeat their neighbour's ref most of the time.
          week: cells.map((day) => {
            let ref = refs[0] as string;
            return day.map((n) => {
              if (n % 6 === 0) ref = refs[n % refs.length] as string;
              return ref;
            });
          }),
          configuration: {
            heatRange: base.heatRange,
            coolRange: base.coolRange,
            holdAction: base.holdAction,
            fanMinimumOnTime: base.fanMinimumOnTime,
          },
          accessControl: base.locks,
        });
        state.alerts.lowTemperatureAlert = { enabled: true, value: base.lowTemperature };
        state.alerts.highTemperatureAlert = { enabled: true, value: base.highTemperature };
        return state;
      }),
  );

function OFF_LOCKS_ARBITRARY() {
  return Object.fromEntries(LOCK_AREAS.map((area) => [area, fc.boolean()])) as Record<
    (typeof LOCK_AREAS)[number],
    fc.Arbitrary<boolean>
  >;
}

/** A valid template: its settings fit its own ranges; its week uses its names and the defaults. */
const anyTemplate: fc.Arbitrary<Template> = fc
  .record({
    names: fc.shuffledSubarray(NAMES, { minLength: 1, maxLength: 4 }),
    withSettings: fc.boolean(),
    withSchedule: fc.boolean(),
    configuration: fc.option(
      fc.record(
        {
          heatRange: fc.record({
            min: fc.integer({ min: 50, max: 60 }),
            max: fc.integer({ min: 72, max: 79 }),
          }),
          coolRange: fc.record({
            min: fc.integer({ min: 65, max: 70 }),
            max: fc.integer({ min: 80, max: 92 }),
          }),
          holdAction: fc.constantFrom(...HOLD_ACTIONS),
          fanMinimumOnTime: fc.integer({ min: 0, max: 55 }),
        },
        { requiredKeys: [] },
      ),
    ),
    alerts: fc.option(
      fc.record(
        {
          lowTemperatureAlert: fc.record(
            { enabled: fc.boolean(), value: fc.integer({ min: 35, max: 50 }) },
            { requiredKeys: ['value'] },
          ),
          highHumidityAlert: fc.record(
            { enabled: fc.boolean(), value: fc.integer({ min: 60, max: 80 }) },
            { requiredKeys: ['enabled'] },
          ),
        },
        { requiredKeys: [] },
      ),
    ),
    locks: fc.option(
      fc.oneof(
        fc.constant({ enabled: false as const }),
        fc.record({
          enabled: fc.constant(true as const),
          settings: fc.record(OFF_LOCKS_ARBITRARY()),
        }),
      ),
    ),
    cells: fc.array(fc.array(fc.nat(), { minLength: 48, maxLength: 48 }), {
      minLength: 7,
      maxLength: 7,
    }),
  })
  .chain((t) =>
    fc
      .tuple(...t.names.map((name) => fc.tuple(casing(name), setpoints(62, 70, 71, 80))))
      .map((settings) => {
        const weekNames = [...new Set([...settings.map(([name]) => name), 'Home', 'Away'])];
        const input: Record<string, unknown> = { name: 'Property test' };
        if (t.withSettings || !t.withSchedule)
          input.comfortSettings = settings.map(([name, points]) => ({ name, ...points }));
        if (t.withSchedule)
          input.schedule = t.cells.map((day) => {
            let name = weekNames[0] as string;
            return day.map((n) => {
              if (n % 8 === 0) name = weekNames[n % weekNames.length] as string;
              return name;
            });
          });
        if (t.configuration && Object.keys(t.configuration).length > 0)
          input.configuration = t.configuration;
        if (t.alerts && Object.keys(t.alerts).length > 0) input.alerts = t.alerts;
        if (t.locks) input.accessControl = t.locks;
        return templateSchema.parse(input);
      }),
  );

describe('planTemplate: properties', () => {
  it('applying the plan and planning again gives no changes; the service accepts every call in order', () => {
    let applied = 0;
    fc.assert(
      fc.property(anyTemplate, anyThermostat, (tpl, state) => {
        const plan = planTemplate(tpl, state, { nodeLimit: 600 });
        if (plan.problems.length > 0) {
          expect(plan.operations).toEqual([]);
          expect(plan.unchanged).toBe(false);
          return;
        }
        applied++;
        const after = applyOperations(state, plan.operations);
        const again = planTemplate(tpl, after, { nodeLimit: 600 });
        expect(again.problems).toEqual([]);
        expect(again.operations).toEqual([]);
        expect(again.unchanged).toBe(true);
        expect(plan.unchanged).toBe(plan.operations.length === 0);
      }),
      { numRuns: 120 },
    );
    // The generators are meant to plan mostly without problems; check that they do.
    expect(applied).toBeGreaterThan(40);
  });

  it('sends only configuration fields that differ from what the thermostat has', () => {
    fc.assert(
      fc.property(anyTemplate, anyThermostat, (tpl, state) => {
        const plan = planTemplate(tpl, state, { nodeLimit: 200 });
        for (const op of plan.operations) {
          if (op.kind !== 'configuration') continue;
          for (const [key, value] of Object.entries(op.changes))
            expect(value).not.toEqual(state.configuration[key as keyof typeof state.configuration]);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('never carries a passcode: not in an operation, a diff, or a problem', () => {
    fc.assert(
      fc.property(anyTemplate, anyThermostat, (tpl, state) => {
        // What the service answers for a set passcode is "****"; it must not travel on either.
        const withPasscode = {
          ...state,
          accessControl: state.accessControl && { ...state.accessControl, passcode: '****' },
        };
        const text = JSON.stringify(planTemplate(tpl, withPasscode, { nodeLimit: 200 }));
        expect(text).not.toMatch(/"passcode"/i);
        expect(text).not.toContain('****');
      }),
      { numRuns: 60 },
    );
  });
});

describe('templateSchema', () => {
  const locks = { enabled: true, settings: { ...OFF_LOCKS } };

  it('refuses a passcode wherever it is put, saying why', () => {
    for (const accessControl of [
      { ...locks, passcode: '0420' },
      { enabled: false, passcode: '0420' },
      { ...locks, settings: { ...OFF_LOCKS, passcode: '0420' } },
    ]) {
      const result = templateSchema.safeParse({ name: 'Locked', accessControl });
      expect(result.success).toBe(false);
      expect(JSON.stringify(result.error?.issues)).toMatch(/never holds a passcode/);
    }
    expect(
      templateSchema.safeParse({ name: 'Locked', passcode: '0420', accessControl: locks }).success,
    ).toBe(false);
  });

  it('refuses the removed AC reminder, unknown fields, duplicate names and empty templates', () => {
    const refused = [
      { name: 'A', alerts: { acMaintenanceReminder: { enabled: true } } },
      { name: 'A', configuration: { holdAction: 'untilMidnight' } },
      { name: 'A', configuration: { holdAction: 'nextPeriod' } },
      { name: 'A', configuration: { heatRange: { min: 60, max: 55 } } },
      {
        name: 'A',
        comfortSettings: [
          { name: 'Home', desiredHeat: 70, desiredCool: 76 },
          { name: ' home ', desiredHeat: 68, desiredCool: 76 },
        ],
      },
      { name: 'A', comfortSettings: [{ name: 'Home', desiredHeat: 70, desiredCool: 71 }] },
      {
        name: 'A',
        comfortSettings: [{ name: 'Home', desiredHeat: 70, desiredCool: 76 }],
        configuration: { heatRange: { min: 45, max: 65 } },
      },
      { name: 'A', alerts: { hvacMaintenanceReminder: { maintenanceInterval: 3 } } },
      {
        name: 'A',
        alerts: {
          hvacMaintenanceReminder: { maintenanceInterval: 61, maintenanceIntervalUnits: 'month' },
        },
      },
      { name: 'A', alerts: { lowHumidityAlert: { value: 40 }, highHumidityAlert: { value: 42 } } },
      { name: 'A', schedule: residentialByName().slice(0, 6) },
      { name: 'A' },
    ];
    for (const input of refused)
      expect(templateSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });

  it('says which reads a template needs', () => {
    expect(readsFor(template({ accessControl: { enabled: false } }))).toEqual([]);
    expect(readsFor(template({ schedule: residentialByName() }))).toEqual([
      'comfortSettings',
      'schedule',
    ]);
    expect(
      readsFor(template({ comfortSettings: [{ name: 'Home', desiredHeat: 70, desiredCool: 76 }] })),
    ).toEqual(['status', 'comfortSettings', 'settings']);
  });
});

// ---------------------------------------------------------------------------------------------

describe('summarisePlan', () => {
  const windows = budgetWindows(PRODUCTION_RATE_LIMIT, 'background');
  const holdIndefinitely = template({ configuration: { holdAction: 'indefinite' } });

  it('counts thermostats, and batches identical configuration changes 25 to a request', () => {
    const planned: PlannedThermostat[] = [
      ...Array.from({ length: 30 }, (_, i) => ({
        thermostatId: String(100000000000 + i),
        plan: planTemplate(holdIndefinitely, thermostat()),
      })),
      {
        thermostatId: '200000000000',
        plan: planTemplate(
          holdIndefinitely,
          thermostat({
            configuration: { ...thermostat().configuration, holdAction: 'indefinite' },
          }),
        ),
      },
      {
        thermostatId: '300000000000',
        plan: planTemplate(
          template({ schedule: residentialByName({ away: 'Office Hours' }) }),
          thermostat(),
        ),
      },
    ];
    const summary = summarisePlan(planned, windows);
    expect(summary).toMatchObject({
      thermostats: 32,
      unchanged: 1,
      changing: 30,
      blocked: 1,
      calls: 2,
    });
    expect(summary.callsByKind.configuration).toBe(2);
  });

  it('estimates the time under the budget as a function of the calls', () => {
    // Background work gets 24 calls a second and 392 a minute (lib/service/budget.ts).
    expect(windows.map((w) => w.cap)).toEqual([24, 392, 9310]);
    expect(estimateSeconds(0, windows)).toBe(0);
    expect(estimateSeconds(24, windows)).toBe(0);
    expect(estimateSeconds(25, windows)).toBe(1);
    expect(estimateSeconds(392, windows)).toBe(16);
    expect(estimateSeconds(393, windows)).toBe(60);
    expect(estimateSeconds(9311, windows)).toBe(3600);
  });
});
