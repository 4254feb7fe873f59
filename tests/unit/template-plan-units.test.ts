import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PlanItems } from '@/components/templates/plan-view';
import type { BulkRunItemRow } from '@/lib/runs/store';
import { driftWords } from '@/lib/templates/drift';
import { planTemplate } from '@/lib/templates/plan';
import { noteWords, runChangesSchema } from '@/lib/templates/run-words';
import { type Template, type TemplateInput, templateSchema } from '@/lib/templates/schema';
import { undoTargetOf } from '@/lib/templates/undo/of-run';
import { problemsIn } from '@/lib/templates/words';
import {
  defaultAccessControl,
  defaultAlertSettings,
  defaultComfortSettings,
  defaultSettings,
  residentialSchedule,
} from '@/sandbox/src/store';
import type { FullState } from '../support/template-service';

/**
 * Why a template cannot be applied is read in the reader's unit, like the rest of the plan: when
 * planned in °C, and when a plan stored in one unit is read by a member who reads the other.
 */

const thermostat = (overrides: Partial<FullState> = {}): FullState => ({
  heatCoolMinDelta: 5,
  comfortSettings: defaultComfortSettings().map((setting) => ({ ...setting })),
  week: residentialSchedule(),
  configuration: defaultSettings(),
  alerts: { ...defaultAlertSettings() },
  accessControl: { enabled: false, settings: { ...defaultAccessControl().settings } },
  ...overrides,
});

const template = (input: Omit<TemplateInput, 'name'>): Template =>
  templateSchema.parse({ name: 'Test template', ...input });

/** Heat and cool 3 °F apart where the thermostat keeps 5 °F. */
const tooClose = template({
  comfortSettings: [{ name: 'Home', desiredHeat: 72, desiredCool: 75 }],
});
/** A heat range the thermostat's Away (heats to 62 °F) would be outside of. */
const narrow = template({ configuration: { heatRange: { min: 68, max: 75 } } });
/** Temperature alerts closer than the thermostat's gap. */
const closeAlerts = template({
  alerts: { lowTemperatureAlert: { value: 45 }, highTemperatureAlert: { value: 48 } },
});

describe('a plan’s problems in the member’s unit', () => {
  it('are worded in °C when planned in °C', () => {
    const plan = planTemplate(tooClose, thermostat(), { unit: 'C' });
    expect(plan.problems).toEqual([
      '“Home” would heat to 22.2 °C and cool to 23.9 °C; this thermostat keeps them at least 2.8 °C apart.',
    ]);

    const ranges = planTemplate(narrow, thermostat(), { unit: 'C' }).problems;
    expect(ranges.length).toBeGreaterThan(0);
    for (const problem of ranges) {
      expect(problem).toContain('the heat range 20 °C to 23.9 °C');
      expect(problem).not.toContain('°F');
    }

    expect(planTemplate(closeAlerts, thermostat(), { unit: 'C' }).problems).toEqual([
      'Its temperature alerts would be 7.2 °C and 8.9 °C, closer than the 2.8 °C it requires.',
    ]);
  });

  it('keep their °F words when planned in °F', () => {
    expect(planTemplate(tooClose, thermostat()).problems).toEqual([
      '“Home” would heat to 72 °F and cool to 75 °F; this thermostat keeps them at least 5 °F apart.',
    ]);
    expect(planTemplate(closeAlerts, thermostat(), { unit: 'F' }).problems).toEqual([
      'Its temperature alerts would be 45 °F and 48 °F, closer than the 5 °F it requires.',
    ]);
  });

  it('are worded again in the reader’s unit from a plan stored in the other', () => {
    const stored = JSON.parse(JSON.stringify(planTemplate(tooClose, thermostat(), { unit: 'F' })));
    expect(problemsIn(stored, 'C')).toEqual([
      '“Home” would heat to 22.2 °C and cool to 23.9 °C; this thermostat keeps them at least 2.8 °C apart.',
    ]);
    expect(problemsIn(stored, 'F')).toEqual(stored.problems);
    // A plan stored before the facts were kept reads as it was worded.
    expect(problemsIn({ problems: ['Not planned.'] }, 'C')).toEqual(['Not planned.']);
  });

  it('read in the viewer’s unit on a run’s plan', () => {
    const plan = planTemplate(tooClose, thermostat(), { unit: 'F' });
    const item = {
      thermostatId: 't-1',
      unitLabel: 'Apt 1',
      buildingId: 'b-1',
      buildingName: 'Building',
      planState: 'blocked',
      plan: JSON.parse(JSON.stringify(plan)),
      warning: null,
    } as unknown as BulkRunItemRow;
    const html = (unit: 'F' | 'C') =>
      renderToStaticMarkup(createElement(PlanItems, { items: [item], unit }));
    expect(html('C')).toContain('would heat to 22.2 °C and cool to 23.9 °C');
    expect(html('C')).not.toContain('°F');
    expect(html('F')).toContain('would heat to 72 °F and cool to 75 °F');
  });

  it('shows a run’s before → after lines in the viewer’s unit, whoever planned it', () => {
    // A change that applies: comfort settings, a range and an alert, planned by a °F member.
    const change = template({
      comfortSettings: [{ name: 'Home', desiredHeat: 71, desiredCool: 77 }],
      configuration: { coolRange: { min: 66, max: 90 } },
      alerts: { lowTemperatureAlert: { value: 50 } },
    });
    const plan = planTemplate(change, thermostat(), { unit: 'F' });
    expect(plan.problems).toEqual([]);
    expect(plan.diff.map((section) => section.section)).toEqual([
      'comfortSettings',
      'configuration',
      'alerts',
    ]);
    const item = (stored: unknown) =>
      ({
        thermostatId: 't-1',
        unitLabel: 'Apt 1',
        buildingId: 'b-1',
        buildingName: 'Building',
        planState: 'changes',
        plan: stored,
        warning: null,
      }) as unknown as BulkRunItemRow;
    const html = (stored: unknown, unit: 'F' | 'C') =>
      renderToStaticMarkup(createElement(PlanItems, { items: [item(stored)], unit }));
    const stored = JSON.parse(JSON.stringify(plan));

    const inC = html(stored, 'C');
    expect(inC).toContain('21.7 °C'); // Home heats to 71 °F
    expect(inC).toContain('10 °C'); // the low temperature alert at 50 °F
    expect(inC).not.toContain('°F');
    const inF = html(stored, 'F');
    expect(inF).toContain('71 °F');
    expect(inF).toContain('50 °F');
    expect(inF).not.toContain('°C');

    // A plan stored before each unit's lines were kept reads as it was worded.
    const older = {
      ...stored,
      diff: stored.diff.map(({ linesIn: _, ...section }: Record<string, unknown>) => section),
    };
    expect(html(older, 'C')).toContain('71 °F');
  });

  it('in the template drift check, in each unit', () => {
    const words = driftWords(tooClose, thermostat());
    expect(words?.F.some((line) => line.includes('at least 5 °F apart'))).toBe(true);
    expect(words?.C).toContain(
      'Cannot be applied as it is: “Home” would heat to 22.2 °C and cool to 23.9 °C; this thermostat keeps them at least 2.8 °C apart.',
    );
    expect(words?.C.join('\n')).not.toContain('°F');
  });

  it('in an undo’s note of what it cannot put back, in each reader’s unit', () => {
    const before = thermostat({ heatCoolMinDelta: 3, isResidentMode: true });
    const plan = planTemplate(template({ residentMode: false }), before);
    const undo = undoTargetOf({
      title: 'Off',
      plan,
      doneOps: plan.operations.length,
      before,
      applied: null,
    });
    if (!undo.ok) throw new Error(undo.reason);
    // Stored with the undo run as it is, and worded for whoever reads the run.
    const { notes } = runChangesSchema.parse(JSON.parse(JSON.stringify({ notes: undo.notes })));
    const words = (unit: 'F' | 'C') => notes.map((note) => noteWords(note, unit));
    expect(words('C')).toContain(
      'Its heat–cool gap was 1.7 °C; the reset made it 2.8 °C, and no request sets it back.',
    );
    expect(words('C').join(' ')).not.toContain('°F');
    expect(words('F')).toContain(
      'Its heat–cool gap was 3 °F; the reset made it 5 °F, and no request sets it back.',
    );
    // A note stored in words before reads as it was worded.
    expect(noteWords('Its heat–cool gap was 3 °F.', 'C')).toBe('Its heat–cool gap was 3 °F.');
  });
});

describe('undo of a reset followed by more changes (an occupancy run’s turnover)', () => {
  it('puts back the whole state before the reset, not only the sections sent after it', () => {
    const before = thermostat({
      isResidentMode: true,
      comfortSettings: defaultComfortSettings().map((setting) =>
        setting.name === 'Away' ? { ...setting, desiredHeat: 66, desiredCool: 69 } : { ...setting },
      ),
    });
    const vacant = planTemplate(
      templateSchema.parse({
        name: 'Vacant unit',
        comfortSettings: [{ name: 'Away', desiredHeat: 58, desiredCool: 84 }],
        alerts: { lowTemperatureAlert: { enabled: true, value: 45 } },
      }),
      thermostat(),
    );
    const operations = [
      { kind: 'residentMode' as const, changes: { isResidentMode: false } },
      ...vacant.operations,
    ];
    const undo = undoTargetOf({
      title: 'Apt 1: vacant settings',
      plan: { ...vacant, operations },
      doneOps: operations.length,
      before,
      applied: null,
    });
    if (!undo.ok) throw new Error(undo.reason);
    const names = undo.target.comfortSettings?.map((setting) => setting.name);
    expect(names).toEqual(before.comfortSettings.map((setting) => setting.name));
    // Away was closer than the reset's gap: it comes back with its cooling raised, said once.
    expect(undo.target.comfortSettings?.find((s) => s.name === 'Away')).toMatchObject({
      desiredHeat: 66,
      desiredCool: 71,
    });
    expect(
      undo.notes.filter((note) => typeof note !== 'string' && note.kind === 'coolRaised'),
    ).toEqual([{ kind: 'coolRaised', name: 'Away', was: 69, now: 71 }]);
    expect(undo.target.residentMode).toBe(true);
    expect(undo.target.alerts).toEqual(
      expect.objectContaining({ lowTemperatureAlert: before.alerts.lowTemperatureAlert }),
    );
  });
});
