import { describe, expect, it } from 'vitest';
import type { UNIT_STATES } from '@/lib/units/lifecycle';
import {
  defaultTemplatesOf,
  type PolicyRow,
  policyFor,
  policyFormSchema,
  policyInputFromForm,
} from '@/lib/units/policies';

// What each occupancy state means for a thermostat (issue 36): a building's own row, else the
// organisation's, else the defaults (vacant and make-ready: the vacant template, resident mode
// off; occupied: resident mode on; the rest: nothing).

const B = 'aaaaaaaaaaaaaaaaaaaaaaa1';
const VACANT = '11111111-1111-4111-8111-111111111111';
const QUIET = '22222222-2222-4222-8222-222222222222';

describe('occupancy policies', () => {
  it('has defaults that make sense with no rows at all', () => {
    const of = (state: (typeof UNIT_STATES)[number]) =>
      policyFor({ state, buildingId: B, rows: [], defaults: { vacant: VACANT, occupied: null } });
    expect(of('vacant')).toEqual({ templateId: VACANT, residentMode: 'off', source: 'default' });
    expect(of('make_ready')).toEqual({
      templateId: VACANT,
      residentMode: 'off',
      source: 'default',
    });
    expect(of('occupied')).toEqual({ templateId: null, residentMode: 'on', source: 'default' });
    expect(of('notice_given')).toEqual({
      templateId: null,
      residentMode: 'unchanged',
      source: 'default',
    });
    expect(
      policyFor({
        state: 'vacant',
        buildingId: B,
        rows: [],
        defaults: { vacant: null, occupied: null },
      }),
    ).toEqual({ templateId: null, residentMode: 'off', source: 'default' });
  });

  it('finds the default templates by name, case aside, and applies the occupied one when occupied', () => {
    const defaults = defaultTemplatesOf([
      { id: QUIET, name: 'quiet hours' },
      { id: VACANT, name: 'VACANT UNIT' },
      { id: 'occ', name: 'Occupied unit' },
    ]);
    expect(defaults).toEqual({ vacant: VACANT, occupied: 'occ' });
    expect(policyFor({ state: 'occupied', buildingId: B, rows: [], defaults })).toEqual({
      templateId: 'occ',
      residentMode: 'on',
      source: 'default',
    });
    expect(defaultTemplatesOf([])).toEqual({ vacant: null, occupied: null });
  });

  it('takes a building’s own row over the organisation’s, and the organisation’s over the default', () => {
    const rows: PolicyRow[] = [
      { buildingId: '', state: 'vacant', templateId: QUIET, residentMode: 'off' },
      { buildingId: B, state: 'vacant', templateId: null, residentMode: 'unchanged' },
      { buildingId: '', state: 'occupied', templateId: null, residentMode: 'unchanged' },
    ];
    const of = (state: 'vacant' | 'occupied', buildingId: string) =>
      policyFor({ state, buildingId, rows, defaults: { vacant: VACANT, occupied: null } });
    expect(of('vacant', B)).toEqual({
      templateId: null,
      residentMode: 'unchanged',
      source: 'building',
    });
    expect(of('vacant', 'bbbbbbbbbbbbbbbbbbbbbbb2')).toEqual({
      templateId: QUIET,
      residentMode: 'off',
      source: 'organisation',
    });
    expect(of('occupied', B)).toMatchObject({ residentMode: 'unchanged', source: 'organisation' });
    // The organisation's own page: its rows are the organisation's, not a building's.
    expect(of('vacant', '')).toEqual({
      templateId: QUIET,
      residentMode: 'off',
      source: 'organisation',
    });
  });

  it('reads a posted form: a state that follows, one with its own values, and refuses what is not offered', () => {
    const form = new FormData();
    form.set('vacant.templateId', VACANT);
    form.set('vacant.residentMode', 'off');
    form.set('occupied.inherit', 'on');
    form.set('occupied.residentMode', 'bogus');
    for (const state of ['notice_given', 'make_ready', 'move_in_scheduled']) {
      form.set(`${state}.templateId`, '');
      form.set(`${state}.residentMode`, 'unchanged');
    }
    const parsed = policyFormSchema([VACANT]).safeParse(policyInputFromForm(form));
    expect(parsed.success && parsed.data).toMatchObject({
      vacant: { templateId: VACANT, residentMode: 'off' },
      occupied: 'inherit',
      make_ready: { templateId: null, residentMode: 'unchanged' },
    });

    form.set('vacant.templateId', QUIET);
    form.set('make_ready.residentMode', 'sideways');
    const refused = policyFormSchema([VACANT]).safeParse(policyInputFromForm(form));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['vacant.templateId', 'Choose one of your templates, or none.'],
      ['make_ready.residentMode', 'Choose on, off or as it is.'],
    ]);
  });
});
