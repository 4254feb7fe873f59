import { describe, expect, it } from 'vitest';
import { applyRange } from '@/lib/schedule/blocks';
import type { AlertChanges } from '@/lib/settings/alerts';
import { settingsDiff } from '@/lib/settings/configuration';
import { planTemplate, type TemplateOperation } from '@/lib/templates/plan';
import type { Template } from '@/lib/templates/schema';
import type { SettingsChanges } from '@/lib/service/resources';
import type { AlertSettings, ComfortSetting } from '@/lib/service/schemas';
import {
  accessControlUndo,
  alertsUndo,
  comfortDeleteUndo,
  comfortUpdateUndo,
  configurationUndo,
  REASONS,
  residentModeUndo,
  scheduleUndo,
  type UndoData,
  type UndoRecord,
  undoOf,
  withoutUndo,
} from '@/lib/templates/undo/entries';
import {
  defaultAccessControl,
  defaultAlertSettings,
  defaultComfortSettings,
  defaultSettings,
  residentialSchedule,
} from '@/sandbox/src/store';
import { applyOperations, type FullState } from '../support/template-service';

// ---------------------------------------------------------------------------------------------
// Thermostats as the sandbox keeps them, changed as each action changes them.

const THERMOSTAT_ID = '612345678901';
const OFF_LOCKS = defaultAccessControl().settings;
// Spread: the sandbox's interfaces, as the client's open (looseObject) types.
const defaultSettingsRead = (): ComfortSetting[] =>
  defaultComfortSettings().map((setting) => ({ ...setting }));
const defaultAlertsRead = (): AlertSettings => ({ ...structuredClone(defaultAlertSettings()) });

function thermostat(overrides: Partial<FullState> = {}): FullState {
  return {
    heatCoolMinDelta: 5,
    comfortSettings: defaultSettingsRead(),
    week: residentialSchedule(),
    configuration: defaultSettings(),
    alerts: defaultAlertsRead(),
    accessControl: { enabled: false, settings: { ...OFF_LOCKS } },
    ...overrides,
  };
}

const PRE_HEAT: ComfortSetting = {
  comfortSettingRef: 'smart1',
  name: 'Pre-heat',
  desiredHeat: 72,
  desiredCool: 80,
  fanHeat: 'on',
  fanCool: 'auto',
};

/** The recorded undo, as the database gives it back (JSON), read by `undoOf`. */
function recorded(action: string, record: UndoRecord, extra: Record<string, unknown> = {}) {
  const changes = JSON.parse(JSON.stringify({ ...extra, ...record })) as Record<string, unknown>;
  return undoOf({ action, changes, outcome: 'success', thermostatId: THERMOSTAT_ID });
}

function undoable(
  action: string,
  record: UndoRecord,
  extra: Record<string, unknown> = {},
): UndoData {
  const undo = recorded(action, record, extra);
  if (!undo.ok) throw new Error(`not undoable: ${undo.reason}`);
  expect(undo.thermostatId).toBe(THERMOSTAT_ID);
  return undo;
}

/** Plans the target against the state the change left, applies it, and plans once more. */
function undoOn(after: FullState, target: Template) {
  const plan = planTemplate(target, after);
  expect(plan.problems).toEqual([]);
  const restored = applyOperations(after, plan.operations);
  expect(planTemplate(target, restored).operations).toEqual([]);
  return { operations: plan.operations, restored };
}

/** Each setting without its ref (refs are each thermostat's own), by name. */
const settingsByName = (state: FullState) =>
  Object.fromEntries(
    state.comfortSettings.map(({ comfortSettingRef: _ref, ...fields }) => [fields.name, fields]),
  );

/** The week by name (refs differ once a setting is created again). */
const weekByName = (state: FullState) => {
  const names = new Map(state.comfortSettings.map((s) => [s.comfortSettingRef, s.name]));
  return state.week.map((day) => day.map((ref) => names.get(ref)));
};

const noPasscode = (value: unknown) => {
  const json = JSON.stringify(value);
  expect(json).not.toMatch(/"passcode"/);
  expect(json).not.toMatch(/0420/);
};

// ---------------------------------------------------------------------------------------------

describe('configuration.update', () => {
  const before = thermostat({ configuration: { ...defaultSettings(), holdAction: 'indefinite' } });
  const changes: SettingsChanges = {
    heatRange: { min: 50, max: 76 },
    fanMinimumOnTime: 10,
    holdAction: 'nextTransition',
  };
  const after = thermostat({ configuration: { ...before.configuration, ...changes } });
  const record = configurationUndo({
    label: 'Unit 4B',
    diff: settingsDiff(before.configuration, changes),
  });

  it('targets the changed fields as they were and expects them as set', () => {
    const undo = undoable('configuration.update', record);
    expect(undo.target).toEqual({
      name: 'Undo: configuration of Unit 4B',
      configuration: {
        heatRange: { min: 45, max: 79 },
        fanMinimumOnTime: 0,
        holdAction: 'indefinite',
      },
    });
    expect(undo.expected?.configuration).toEqual(changes);
    expect(undo.needsPasscode).toBe(false);
  });

  it('plans exactly the calls that restore the configuration', () => {
    const undo = undoable('configuration.update', record);
    const { operations, restored } = undoOn(after, undo.target);
    expect(operations).toEqual([
      {
        kind: 'configuration',
        stage: 'before',
        changes: { heatRange: { min: 45, max: 79 }, holdAction: 'indefinite', fanMinimumOnTime: 0 },
      },
    ]);
    expect(restored.configuration).toEqual(before.configuration);
    // What the change left is what the thermostat shows: nothing to warn of.
    expect(planTemplate(undo.expected as Template, after).operations).toEqual([]);
  });

  it('leaves out a hold action no thermostat accepts, and says so', () => {
    const odd = { ...defaultSettings(), holdAction: 'untilMidnight' };
    const both = configurationUndo({
      label: 'Unit 4B',
      diff: settingsDiff(odd, { holdAction: 'indefinite', fanMinimumOnTime: 5 }),
    });
    const undo = undoable('configuration.update', both);
    expect(undo.target.configuration).toEqual({ fanMinimumOnTime: 0 });
    expect(undo.notes.join(' ')).toMatch(/hold action.*untilMidnight/);
    const only = configurationUndo({
      label: 'Unit 4B',
      diff: settingsDiff(odd, { holdAction: 'indefinite' }),
    });
    expect(only).toEqual({ undo: null, undoReason: expect.stringMatching(/hold action/) });
  });
});

describe('alert_settings.update', () => {
  const before = thermostat();
  const changes: AlertChanges = {
    lowHumidityAlert: { enabled: true, value: 30 },
    highTemperatureAlert: { value: 88 },
    hvacMaintenanceReminder: { maintenanceInterval: 3 },
  };
  const after = thermostat({
    alerts: {
      ...before.alerts,
      lowHumidityAlert: { enabled: true, value: 30 },
      highTemperatureAlert: { enabled: true, value: 88 },
      hvacMaintenanceReminder: { ...before.alerts.hvacMaintenanceReminder, maintenanceInterval: 3 },
    },
  });
  const record = alertsUndo({ label: 'Unit 4B', before: before.alerts, changes });

  it('targets the old values of the changed fields only (an interval with its unit)', () => {
    const undo = undoable('alert_settings.update', record);
    expect(undo.target.alerts).toEqual({
      lowHumidityAlert: { enabled: false, value: 15 },
      highTemperatureAlert: { value: 92 },
      hvacMaintenanceReminder: { maintenanceInterval: 6, maintenanceIntervalUnits: 'month' },
    });
    expect(undo.expected?.alerts).toEqual({
      lowHumidityAlert: { enabled: true, value: 30 },
      highTemperatureAlert: { value: 88 },
      hvacMaintenanceReminder: { maintenanceInterval: 3, maintenanceIntervalUnits: 'month' },
    });
  });

  it('plans one call that restores the alert settings', () => {
    const undo = undoable('alert_settings.update', record);
    const { operations, restored } = undoOn(after, undo.target);
    expect(operations.map((op) => op.kind)).toEqual(['alerts']);
    expect(restored.alerts).toEqual(before.alerts);
    expect(planTemplate(undo.expected as Template, after).operations).toEqual([]);
  });

  it('keeps the rest when the reminder had no date', () => {
    const noDate = structuredClone(before.alerts);
    noDate.hvacMaintenanceReminder.lastMaintenanceDate = null;
    const undo = undoable(
      'alert_settings.update',
      alertsUndo({
        label: 'Unit 4B',
        before: noDate,
        changes: { hvacMaintenanceReminder: { lastMaintenanceDate: '2024-07-15', enabled: true } },
      }),
    );
    expect(undo.target.alerts).toEqual({ hvacMaintenanceReminder: { enabled: false } });
    expect(undo.notes.join(' ')).toMatch(/last maintenance date is not restored/);
  });
});

describe('schedule.update', () => {
  const settings = [...defaultSettingsRead(), PRE_HEAT];
  const before = thermostat({ comfortSettings: settings });
  const range = { days: ['monday', 'tuesday'] as const, firstSlot: 20, lastSlot: 23 };
  const after = thermostat({
    comfortSettings: settings,
    week: applyRange(before.week, { ...range, days: [...range.days] }, 'smart1'),
  });
  const record = scheduleUndo({
    label: 'Unit 203',
    settings,
    week: before.week,
    range: { ...range, days: [...range.days] },
    comfortSettingRef: 'smart1',
  });

  it('targets the whole week before by name, and expects the range applied', () => {
    const undo = undoable('schedule.update', record);
    expect(undo.target.schedule?.[0]?.slice(18, 24)).toEqual([
      'Away',
      'Away',
      'Away',
      'Away',
      'Away',
      'Away',
    ]);
    expect(undo.expected?.schedule?.[1]?.slice(19, 25)).toEqual([
      'Away',
      'Pre-heat',
      'Pre-heat',
      'Pre-heat',
      'Pre-heat',
      'Away',
    ]);
    expect(undo.target.comfortSettings).toBeUndefined();
  });

  it('plans the range update that restores the week', () => {
    const undo = undoable('schedule.update', record);
    const { operations, restored } = undoOn(after, undo.target);
    // One range update back to Away (the planner may paint more of Away over Away).
    expect(operations).toEqual([
      expect.objectContaining({
        kind: 'schedule',
        lastSlot: 23,
        comfortSetting: { ref: 'away' },
      }),
    ]);
    const [update] = operations as Extract<TemplateOperation, { kind: 'schedule' }>[];
    expect(update?.days).toEqual(expect.arrayContaining(['monday', 'tuesday']));
    expect(restored.week).toEqual(before.week);
    expect(planTemplate(undo.expected as Template, after).operations).toEqual([]);
  });

  it('is not undoable when the week names a setting the thermostat did not list', () => {
    const week = before.week.map((day) => [...day]);
    (week[3] as string[])[0] = 'ghost';
    const ghost = scheduleUndo({
      label: 'Unit 203',
      settings,
      week,
      range: { ...range, days: [...range.days] },
      comfortSettingRef: 'smart1',
    });
    expect(ghost.undo).toBeNull();
    expect(recorded('schedule.update', ghost)).toEqual({
      ok: false,
      reason: expect.stringMatching(/did not list/),
    });
  });
});

describe('comfort_setting.update', () => {
  const home = defaultSettingsRead()[0] as ComfortSetting;
  const before = thermostat();
  const changes = { desiredHeat: 68, fanHeat: 'on' as const };
  const after = thermostat({
    comfortSettings: before.comfortSettings.map((s) =>
      s.comfortSettingRef === 'home' ? { ...s, ...changes } : s,
    ),
  });

  it('targets the old fields under the old name and restores them in one call', () => {
    const undo = undoable(
      'comfort_setting.update',
      comfortUpdateUndo({ label: 'Unit 4B', before: home, changes }),
    );
    expect(undo.target.comfortSettings).toEqual([
      { name: 'Home', desiredHeat: 70, desiredCool: 76, fanHeat: 'auto', fanCool: 'auto' },
    ]);
    expect(undo.expected?.comfortSettings).toEqual([
      { name: 'Home', desiredHeat: 68, desiredCool: 76, fanHeat: 'on', fanCool: 'auto' },
    ]);
    const { operations, restored } = undoOn(after, undo.target);
    expect(operations).toEqual([
      {
        kind: 'updateComfortSetting',
        comfortSettingRef: 'home',
        changes: { desiredHeat: 70, fanHeat: 'auto' },
      },
    ]);
    expect(restored.comfortSettings).toEqual(before.comfortSettings);
    expect(planTemplate(undo.expected as Template, after).operations).toEqual([]);
  });

  it('restores a change of case in the name (the same setting by name)', () => {
    const undo = undoable(
      'comfort_setting.update',
      comfortUpdateUndo({ label: 'Unit 4B', before: home, changes: { name: 'HOME' } }),
    );
    const renamed = thermostat({
      comfortSettings: before.comfortSettings.map((s) =>
        s.comfortSettingRef === 'home' ? { ...s, name: 'HOME' } : s,
      ),
    });
    const { restored } = undoOn(renamed, undo.target);
    expect(restored.comfortSettings).toEqual(before.comfortSettings);
  });

  it('does not guess after a rename: rename it back on its page', () => {
    const record = comfortUpdateUndo({
      label: 'Unit 4B',
      before: home,
      changes: { name: 'Casa', desiredHeat: 68 },
    });
    expect(record).toEqual({ undo: null, undoReason: REASONS.renamed });
    expect(
      recorded('comfort_setting.update', record, { renamed: { from: 'Home', to: 'Casa' } }),
    ).toEqual({ ok: false, reason: 'It was renamed; rename it back on its page.' });
  });
});

describe('a value Setpoint cannot set again', () => {
  it('says why in both units, for members who read °F and °C alike', () => {
    // A setting the service keeps below the heat setpoints any thermostat takes.
    const cold = { ...(defaultSettingsRead()[1] as ComfortSetting), desiredHeat: 40 };
    const record = comfortUpdateUndo({
      label: 'Unit 4B',
      before: cold,
      changes: { desiredHeat: 50 },
    });
    expect(record).toEqual({
      undo: null,
      undoReason: `Comfort setting “${cold.name}” is not restored: The heat setpoint must be between 45 °F and 79 °F (7.2 °C and 26.1 °C).`,
    });
  });
});

describe('comfort_setting.delete and create', () => {
  const before = thermostat({ comfortSettings: [...defaultSettingsRead(), PRE_HEAT] });
  const after = thermostat();

  it('creates the setting again with its values, and says the schedule is not restored', () => {
    const undo = undoable(
      'comfort_setting.delete',
      comfortDeleteUndo({ label: 'Unit 4B', setting: PRE_HEAT }),
    );
    expect(undo.expected).toBeNull();
    expect(undo.notes.join(' ')).toMatch(/schedule times that used “Pre-heat” are not restored/);
    const { operations, restored } = undoOn(after, undo.target);
    expect(operations).toEqual([
      {
        kind: 'createComfortSetting',
        fields: {
          name: 'Pre-heat',
          desiredHeat: 72,
          desiredCool: 80,
          fanHeat: 'on',
          fanCool: 'auto',
        },
      },
    ]);
    expect(settingsByName(restored)).toEqual(settingsByName(before));
  });

  it('a created setting is deleted on its page, never by an undo', () => {
    expect(recorded('comfort_setting.create', { undo: null, undoReason: REASONS.created })).toEqual(
      { ok: false, reason: 'Delete it on its comfort settings page.' },
    );
    // Whatever is stored: Setpoint never deletes through a template.
    const forged = comfortDeleteUndo({ label: 'x', setting: PRE_HEAT });
    expect(recorded('comfort_setting.create', forged).ok).toBe(false);
  });
});

describe('access_control.update', () => {
  const locked = { ...OFF_LOCKS, temperature: true, schedule: true };
  const before = thermostat({ accessControl: { enabled: true, settings: locked } });

  it('turned off: back to the locks Setpoint knew, and the passcode must be entered again', () => {
    const record = accessControlUndo({
      label: 'Lobby',
      before: { enabled: true, settings: locked },
      changes: { enabled: false },
      passcode: 'removed',
    });
    const undo = undoable('access_control.update', record);
    expect(undo.needsPasscode).toBe(true);
    expect(undo.target.accessControl).toEqual({ enabled: true, settings: locked });
    expect(undo.expected?.accessControl).toEqual({ enabled: false });
    const after = thermostat();
    const { operations, restored } = undoOn(after, undo.target);
    expect(operations).toEqual([
      { kind: 'accessControl', changes: { enabled: true, settings: locked } },
    ]);
    expect(restored.accessControl).toEqual(before.accessControl);
    noPasscode(record);
  });

  it('never records the passcode a change sent', () => {
    const changes = {
      enabled: true as const,
      passcode: '0420',
      settings: { ...OFF_LOCKS, other: true },
    };
    const record = accessControlUndo({
      label: 'Lobby',
      before: { enabled: true, settings: locked },
      changes,
      passcode: 'changed',
    });
    noPasscode(record);
    const undo = undoable('access_control.update', record);
    expect(undo.needsPasscode).toBe(false);
    expect(undo.notes.join(' ')).toMatch(/passcode it set stays/);
    expect(undo.expected?.accessControl).toEqual({
      enabled: true,
      settings: { ...OFF_LOCKS, other: true },
    });
    const after = thermostat({ accessControl: { enabled: true, settings: changes.settings } });
    expect(undoOn(after, undo.target).restored.accessControl).toEqual(before.accessControl);
  });

  it('is not undoable when Setpoint did not know it before', () => {
    const record = accessControlUndo({
      label: 'Lobby',
      before: null,
      changes: { enabled: false },
      passcode: 'removed',
    });
    expect(recorded('access_control.update', record)).toEqual({
      ok: false,
      reason: expect.stringMatching(/did not know its access control/),
    });
  });
});

describe('resident_mode.update', () => {
  const locked = { ...OFF_LOCKS, systemMode: true };
  const home = { ...(defaultSettingsRead()[0] as ComfortSetting), desiredHeat: 68 };
  const settings = [home, ...defaultSettingsRead().slice(1), PRE_HEAT];
  const week = applyRange(
    residentialSchedule(),
    { days: ['saturday', 'sunday'], firstSlot: 12, lastSlot: 15 },
    'smart1',
  );
  const before = thermostat({
    comfortSettings: settings,
    week,
    configuration: {
      heatRange: { min: 55, max: 74 },
      coolRange: { min: 70, max: 85 },
      holdAction: 'indefinite',
      fanMinimumOnTime: 15,
    },
    alerts: {
      ...defaultAlertsRead(),
      lowTemperatureAlert: { enabled: true, value: 50 },
      highHumidityAlert: { enabled: true, value: 65 },
    },
    accessControl: { enabled: true, settings: locked },
  });
  // What the reset leaves (sandbox/src/store.ts resetToDefaults).
  const after = thermostat();
  const read = {
    comfortSettings: before.comfortSettings,
    week: before.week,
    configuration: before.configuration,
    alerts: before.alerts,
    accessControl: before.accessControl,
  };

  it('turned off: the whole state before the reset is the target, and planning it restores it', () => {
    const record = residentModeUndo({ label: 'Unit 4B', on: false, before: read });
    const undo = undoable('resident_mode.update', record, { isResidentMode: false });
    expect(undo.expected).toBeNull();
    expect(undo.needsPasscode).toBe(true);
    expect(undo.notes.join(' ')).toMatch(/Resident mode stays off/);
    const { operations, restored } = undoOn(after, undo.target);
    expect(operations.map((op) => op.kind).sort()).toEqual(
      [
        'accessControl',
        'alerts',
        'configuration',
        'createComfortSetting',
        'schedule',
        'updateComfortSetting',
      ].sort(),
    );
    expect(settingsByName(restored)).toEqual(settingsByName(before));
    expect(weekByName(restored)).toEqual(weekByName(before));
    expect(restored.configuration).toEqual(before.configuration);
    expect(restored.alerts).toEqual(before.alerts);
    expect(restored.accessControl).toEqual(before.accessControl);
    noPasscode(record);
  });

  it('keeps what was read when a read failed, and says what is not restored', () => {
    const record = residentModeUndo({
      label: 'Unit 4B',
      on: false,
      before: { ...read, week: undefined, accessControl: null },
    });
    const undo = undoable('resident_mode.update', record, { isResidentMode: false });
    expect(undo.target.schedule).toBeUndefined();
    expect(undo.target.accessControl).toBeUndefined();
    expect(undo.needsPasscode).toBe(false);
    expect(undo.notes.join(' ')).toMatch(/schedule could not be read/);
    expect(undoOn(after, undo.target).restored.configuration).toEqual(before.configuration);
  });

  it('is not undoable when nothing could be read', () => {
    const record = residentModeUndo({
      label: 'Unit 4B',
      on: false,
      before: { accessControl: null },
    });
    expect(record).toEqual({
      undo: null,
      undoReason: expect.stringMatching(/could not be read before the reset/),
    });
  });

  it('turned on: not undone automatically, because turning it off resets', () => {
    const record = residentModeUndo({ label: 'Unit 4B', on: true });
    expect(recorded('resident_mode.update', record, { isResidentMode: true })).toEqual({
      ok: false,
      reason: expect.stringMatching(/resets the thermostat’s settings/),
    });
  });
});

describe('undoOf refuses what it cannot trust, with a reason', () => {
  const good = configurationUndo({
    label: 'Unit 4B',
    diff: { fanMinimumOnTime: { from: 0, to: 10 } },
  });
  const entry = (changes: unknown, more: Partial<Parameters<typeof undoOf>[0]> = {}) =>
    undoOf({
      action: 'configuration.update',
      changes,
      outcome: 'success',
      thermostatId: THERMOSTAT_ID,
      ...more,
    });
  const reasonOf = (result: ReturnType<typeof undoOf>) => (result.ok ? null : result.reason);

  it('accepts a recorded undo', () => {
    expect(entry(JSON.parse(JSON.stringify(good))).ok).toBe(true);
  });

  it('a change that may have been applied can be undone like one that was', () => {
    // Its answer lost and not read back, or not shown by a read at once: it may have landed.
    expect(entry(good, { outcome: 'unconfirmed' }).ok).toBe(true);
    expect(entry(good, { outcome: 'failure', error: 'not_applied' }).ok).toBe(true);
    // Refused by the service: nothing to undo.
    expect(reasonOf(entry(good, { outcome: 'failure', error: 'validation' }))).toBe(REASONS.failed);
  });

  it('a failed entry, a run, an old entry, a kind it cannot undo', () => {
    expect(reasonOf(entry(good, { outcome: 'failure' }))).toBe(REASONS.failed);
    expect(reasonOf(entry(good, { thermostatId: null }))).toBe(REASONS.run);
    expect(reasonOf(entry({ fanMinimumOnTime: { from: 0, to: 10 } }))).toBe(REASONS.notRecorded);
    expect(reasonOf(entry(good, { action: 'member.invite' }))).toBe(REASONS.notUndoable);
    expect(reasonOf(entry(good, { action: 'thermostat.move' }))).toBe(REASONS.moved);
  });

  it('a recorded reason, and a made-up one that is not text', () => {
    expect(reasonOf(entry({ undo: null, undoReason: 'Its schedule could not be read.' }))).toBe(
      'Its schedule could not be read.',
    );
    expect(reasonOf(entry({ undo: null, undoReason: { html: '<b>' } }))).toBe(REASONS.unreadable);
  });

  it('a passcode riding along in an access-control undo', () => {
    const record = accessControlUndo({
      label: 'Lobby',
      before: { enabled: true, settings: { ...OFF_LOCKS, temperature: true } },
      changes: { enabled: false },
      passcode: 'removed',
    });
    if (!record.undo) throw new Error('expected an undo to be recorded');
    const asAccessControl = { action: 'access_control.update' };
    // As recorded it is accepted, so the refusal below is for the passcode alone.
    expect(entry(JSON.parse(JSON.stringify(record)), asAccessControl).ok).toBe(true);
    const withPasscode = {
      undo: {
        ...record.undo,
        target: {
          ...record.undo.target,
          accessControl: { ...record.undo.target.accessControl, passcode: '0420' },
        },
      },
    };
    expect(reasonOf(entry(withPasscode, asAccessControl))).toBe(REASONS.unreadable);
  });

  it.each([
    ['changes that are not an object', 'undo'],
    ['an undo that is a string', { undo: 'target' }],
    ['a target that is not a template', { undo: { ...good.undo, target: { name: 'x' } } }],
    [
      'an unknown key beside the target',
      { undo: { ...good.undo, target: { ...good.undo?.target, extra: 1 } } },
    ],
    ['a missing notes list', { undo: { ...good.undo, notes: undefined } }],
    ['needsPasscode as text', { undo: { ...good.undo, needsPasscode: 'yes' } }],
    [
      'a section the change never touched',
      {
        undo: {
          ...good.undo,
          target: { name: 'x', accessControl: { enabled: false } },
        },
      },
    ],
    [
      'an expected state that breaks the rules',
      {
        undo: {
          ...good.undo,
          expected: { name: 'x', configuration: { fanMinimumOnTime: 999 } },
        },
      },
    ],
  ])('%s', (_what, changes) => {
    const result = entry(changes);
    expect(result.ok).toBe(false);
    expect(reasonOf(result)).toMatch(/\w+/);
  });
});

describe('what the activity log shows', () => {
  it('leaves the undo data out of the changes a person reads', () => {
    const record = configurationUndo({
      label: 'Unit 4B',
      diff: { fanMinimumOnTime: { from: 0, to: 10 } },
    });
    expect(withoutUndo({ fanMinimumOnTime: { from: 0, to: 10 }, ...record })).toEqual({
      fanMinimumOnTime: { from: 0, to: 10 },
    });
    expect(withoutUndo({ isResidentMode: true, undo: null, undoReason: 'x' })).toEqual({
      isResidentMode: true,
    });
  });
});

describe('no passcode anywhere in what is recorded', () => {
  it('holds for every kind, even when the change carried one', () => {
    const sent = { enabled: true as const, passcode: '0420', settings: { ...OFF_LOCKS } };
    const records: UndoRecord[] = [
      accessControlUndo({
        label: 'Lobby',
        before: { enabled: true, settings: { ...OFF_LOCKS, other: true } },
        changes: sent,
        passcode: 'changed',
      }),
      accessControlUndo({
        label: 'Lobby',
        // What Setpoint knew may come from anywhere: only the locks are kept.
        before: { enabled: true, settings: OFF_LOCKS, passcode: '0420' } as never,
        changes: { enabled: false },
        passcode: 'removed',
      }),
      residentModeUndo({
        label: 'Unit 4B',
        on: false,
        before: {
          accessControl: { enabled: true, passcode: '0420', settings: OFF_LOCKS } as never,
        },
      }),
      residentModeUndo({ label: 'Unit 4B', on: true }),
    ];
    for (const record of records) noPasscode(record);
  });
});
