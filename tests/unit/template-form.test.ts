import { describe, expect, it } from 'vitest';
import {
  comfortField,
  INCLUDE_FIELDS,
  lockField,
  ORIGINALS_FIELD,
  parseTemplateForm,
  readTemplateForm,
  SCHEDULE_FIELD,
  type TemplateDraft,
  templateFormStrings,
  templateFormValues,
} from '@/lib/templates/form';
import { PASSCODE_REFUSED, type Template } from '@/lib/templates/schema';

/**
 * The template form both ways: posted fields in the member's unit into a template in °F (two
 * decimals at most), a template back into fields; errors under their fields; sections only when
 * ticked; a passcode refused.
 */

const WEEK = Array.from({ length: 7 }, (_, day) =>
  Array.from({ length: 48 }, (_, block) =>
    day < 5 && block >= 16 && block < 36 ? 'Away' : 'Home',
  ),
);

const FULL: Template = {
  name: 'Vacant unit',
  comfortSettings: [
    { name: 'Home', desiredHeat: 69, desiredCool: 77.5, fanHeat: 'auto', fanCool: 'on' },
    { name: 'Away', desiredHeat: 60.13, desiredCool: 85, fanHeat: 'auto', fanCool: 'auto' },
  ],
  schedule: WEEK,
  configuration: {
    heatRange: { min: 50.5, max: 75 },
    coolRange: { min: 70, max: 88.37 },
    holdAction: 'nextTransition',
    fanMinimumOnTime: 10,
  },
  alerts: {
    hvacMaintenanceReminder: {
      enabled: true,
      maintenanceInterval: 6,
      maintenanceIntervalUnits: 'month',
    },
    lowTemperatureAlert: { enabled: true, value: 41.3 },
    highTemperatureAlert: { enabled: false, value: 95 },
    lowHumidityAlert: { enabled: false, value: 20 },
    highHumidityAlert: { enabled: true, value: 70 },
  },
  accessControl: {
    enabled: true,
    settings: {
      temperature: true,
      systemMode: true,
      schedule: false,
      vacation: false,
      other: true,
    },
  },
};

/** A FormData of the values, as a browser posts them (unticked boxes absent). */
function post(values: Record<string, string>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) {
    if (value === '' && /^include|Enabled$|^lock\./.test(key)) continue;
    form.append(key, value);
  }
  return form;
}

const blank = (extra: Record<string, string>) =>
  post({ ...templateFormValues({ name: 'T' }, 'F').values, ...extra });

describe('the template form', () => {
  it.each(['F', 'C'] as const)('round-trips a full template in °%s exactly', (unit) => {
    const { values } = templateFormValues(FULL, unit);
    const edited = parseTemplateForm(post(values), {
      unit,
      source: { kind: 'edit', current: FULL },
    });
    expect(edited).toEqual({ ok: true, template: FULL });
    // A new one, pre-filled the same way, keeps the exact °F through its hidden fields too.
    const created = parseTemplateForm(post(values), { unit, source: { kind: 'new' } });
    expect(created).toEqual({ ok: true, template: FULL });
  });

  it('shows °C to one decimal and stores a typed °C value as °F with at most two decimals', () => {
    const { values } = templateFormValues(FULL, 'C');
    expect(values[comfortField(0, 'desiredHeat')]).toBe('20.6');
    const changed = parseTemplateForm(
      post({ ...values, [comfortField(0, 'desiredHeat')]: '20.3' }),
      { unit: 'C', source: { kind: 'edit', current: FULL } },
    );
    expect(changed.ok && changed.template.comfortSettings?.[0]?.desiredHeat).toBe(68.54);
    // Without the originals, a °C value shown rounded is taken as typed.
    const fresh = parseTemplateForm(post({ ...values, [ORIGINALS_FIELD]: '' }), {
      unit: 'C',
      source: { kind: 'new' },
    });
    expect(fresh.ok && fresh.template.comfortSettings?.[0]?.desiredHeat).toBe(69.08);
  });

  it('keeps only ticked sections, ignores blank comfort rows and can leave the schedule out', () => {
    const { values } = templateFormValues(FULL, 'F');
    expect(values[INCLUDE_FIELDS.schedule]).toBe('on');
    const form = post({
      ...values,
      [INCLUDE_FIELDS.alerts]: '',
      [INCLUDE_FIELDS.accessControl]: '',
      [INCLUDE_FIELDS.schedule]: '',
      [comfortField(0, 'name')]: '',
      [comfortField(0, 'desiredHeat')]: '',
      [comfortField(0, 'desiredCool')]: '',
      [comfortField(5, 'name')]: '',
      [comfortField(5, 'desiredHeat')]: '',
    });
    const parsed = parseTemplateForm(form, { unit: 'F', source: { kind: 'edit', current: FULL } });
    expect(parsed).toEqual({
      ok: true,
      template: {
        name: 'Vacant unit',
        comfortSettings: [FULL.comfortSettings?.[1]],
        configuration: FULL.configuration,
      },
    });
  });

  it('places errors under their fields, in the member’s unit, by the row posted', () => {
    const form = blank({
      [INCLUDE_FIELDS.comfortSettings]: 'on',
      [comfortField(2, 'name')]: 'Home',
      [comfortField(2, 'desiredHeat')]: '22',
      [comfortField(2, 'desiredCool')]: '22.5',
      [comfortField(3, 'name')]: 'Sleep',
      [comfortField(3, 'desiredHeat')]: '40',
      [comfortField(3, 'desiredCool')]: 'warm',
      [comfortField(4, 'name')]: 'home',
      [comfortField(4, 'desiredHeat')]: '18',
      [comfortField(4, 'desiredCool')]: '26',
      [INCLUDE_FIELDS.configuration]: 'on',
      heatMin: '15',
      [INCLUDE_FIELDS.accessControl]: 'on',
    });
    const parsed = parseTemplateForm(form, { unit: 'C', source: { kind: 'new' } });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const errors = parsed.fieldErrors;
    expect(errors[comfortField(2, 'desiredCool')]?.[0]).toMatch(/at least 1\.2 °C above heat/);
    expect(errors[comfortField(3, 'desiredHeat')]?.[0]).toMatch(/between 7\.2 °C and 26\.1 °C/);
    expect(errors[comfortField(3, 'desiredCool')]?.[0]).toMatch(/Enter a number/);
    expect(errors[comfortField(4, 'name')]?.[0]).toMatch(/already used by comfort setting 3/);
    expect(errors.heatMax?.[0]).toMatch(/both the minimum and the maximum/);
    expect(errors.accessControl?.[0]).toMatch(/on or off/);
    // Nothing said in °F to a member who reads °C.
    expect(Object.values(errors).flat().join(' ')).not.toMatch(/°F/);
  });

  it('says every problem of a section at once: the template’s limits beside the form’s own words', () => {
    const form = blank({
      [INCLUDE_FIELDS.alerts]: 'on',
      lowTemperatureValue: 'warm',
      lowHumidityValue: '200',
      lastMaintenanceDate: '2024-02-30',
      maintenanceInterval: '61',
      maintenanceIntervalUnits: 'month',
      [INCLUDE_FIELDS.comfortSettings]: 'on',
      [comfortField(0, 'name')]: 'Home',
      // A decimal comma is read as a point.
      [comfortField(0, 'desiredHeat')]: '20,5',
      [comfortField(0, 'desiredCool')]: '',
    });
    expect(parseTemplateForm(form, { unit: 'C', source: { kind: 'new' } })).toEqual({
      ok: false,
      fieldErrors: {
        [comfortField(0, 'desiredCool')]: ['Enter the cool setpoint.'],
        lowTemperatureValue: ['Enter a number, such as 20.'],
        lowHumidityValue: ['Enter a percent from 1 to 95.'],
        lastMaintenanceDate: ['Enter a date (YYYY-MM-DD).'],
        maintenanceInterval: ['Enter 1 to 60 months.'],
      },
    });
  });

  it('says so when nothing is included, or a ticked section sets nothing', () => {
    const nothing = parseTemplateForm(blank({}), { unit: 'F', source: { kind: 'new' } });
    expect(nothing).toEqual({ ok: false, fieldErrors: { form: ['Add at least one section.'] } });
    const empty = parseTemplateForm(
      blank({ [INCLUDE_FIELDS.configuration]: 'on', [INCLUDE_FIELDS.comfortSettings]: 'on' }),
      { unit: 'F', source: { kind: 'new' } },
    );
    expect(empty.ok || empty.fieldErrors).toMatchObject({
      configuration: ['Set at least one configuration setting.'],
      comfortSettings: ['Add a comfort setting, or leave the section out.'],
    });
    // A ticked section refused for a value: that value is the one problem, not "no section".
    const refused = parseTemplateForm(
      blank({ [INCLUDE_FIELDS.configuration]: 'on', fanMinimumOnTime: '56' }),
      { unit: 'F', source: { kind: 'new' } },
    );
    expect(refused).toEqual({
      ok: false,
      fieldErrors: { fanMinimumOnTime: ['Enter whole minutes from 0 to 55.'] },
    });
  });

  it('takes a new template’s captured schedule from the post, and an edit’s from the store', () => {
    const form = blank({ [INCLUDE_FIELDS.schedule]: 'on', [SCHEDULE_FIELD]: JSON.stringify(WEEK) });
    expect(parseTemplateForm(form, { unit: 'F', source: { kind: 'new' } })).toEqual({
      ok: true,
      template: { name: 'T', schedule: WEEK },
    });
    // Captured but not ticked: left out, like any section.
    expect(
      parseTemplateForm(blank({ [SCHEDULE_FIELD]: JSON.stringify(WEEK) }), {
        unit: 'F',
        source: { kind: 'new' },
      }),
    ).toEqual({ ok: false, fieldErrors: { form: ['Add at least one section.'] } });
    // An edit ignores a posted schedule: it keeps the stored one (here: none).
    const edit = parseTemplateForm(form, {
      unit: 'F',
      source: { kind: 'edit', current: { name: 'T', configuration: { fanMinimumOnTime: 5 } } },
    });
    expect(edit.ok).toBe(false);
    const broken = parseTemplateForm(
      blank({ [INCLUDE_FIELDS.schedule]: 'on', [SCHEDULE_FIELD]: '[["Home"]]' }),
      { unit: 'F', source: { kind: 'new' } },
    );
    expect(broken.ok || broken.fieldErrors.schedule?.[0]).toMatch(/7 days of 48/);
  });

  it('refuses a posted passcode, under any name, and never echoes it', () => {
    for (const field of ['passcode', 'accessControl.passcode', 'lockPasscode']) {
      const form = blank({
        [INCLUDE_FIELDS.accessControl]: 'on',
        accessControl: 'on',
        [lockField('temperature')]: 'on',
        [field]: '1234',
      });
      expect(parseTemplateForm(form, { unit: 'F', source: { kind: 'new' } })).toEqual({
        ok: false,
        fieldErrors: { form: [PASSCODE_REFUSED] },
      });
      expect(Object.values(templateFormStrings(form))).not.toContain('1234');
    }
  });

  it('reads a form for an action: its errors under a given message, refilled but for a passcode', () => {
    const form = blank({ [INCLUDE_FIELDS.accessControl]: 'on', passcode: '1234' });
    const read = readTemplateForm(form, { unit: 'F', source: { kind: 'new' } }, 'Nothing saved.');
    expect(read).toEqual({
      ok: false,
      state: {
        status: 'error',
        message: 'Nothing saved.',
        fieldErrors: { form: [PASSCODE_REFUSED] },
        values: templateFormStrings(form),
      },
    });
    expect(JSON.stringify(read)).not.toContain('1234');
  });

  it('fills a draft read from a thermostat, and blank values for a blank template', () => {
    const draft: TemplateDraft = {
      name: 'Like 101',
      configuration: { heatRange: { min: 45, max: 79 }, fanMinimumOnTime: 0 },
    };
    const { values } = templateFormValues(draft, 'C');
    expect(values).toMatchObject({
      name: 'Like 101',
      [INCLUDE_FIELDS.configuration]: 'on',
      [INCLUDE_FIELDS.alerts]: '',
      heatMin: '7.2',
      heatMax: '26.1',
      coolMin: '',
      holdAction: '',
      fanMinimumOnTime: '0',
      accessControl: '',
    });
    const parsed = parseTemplateForm(post(values), { unit: 'C', source: { kind: 'new' } });
    expect(parsed).toEqual({
      ok: true,
      template: {
        name: 'Like 101',
        configuration: { heatRange: { min: 45, max: 79 }, fanMinimumOnTime: 0 },
      },
    });
  });
});

describe('a new template started from a thermostat', () => {
  // All a thermostat gives: its comfort settings, week, configuration and alerts.
  const { accessControl: _none, ...read } = FULL;
  const draft: TemplateDraft = { ...read, name: 'Like 101' };

  it('ticks no section, and has every section filled in to tick', () => {
    const { values } = templateFormValues(draft, 'F', { tick: 'none' });
    for (const include of Object.values(INCLUDE_FIELDS)) expect(values[include], include).toBe('');
    expect(values).toMatchObject({
      name: 'Like 101',
      [comfortField(0, 'name')]: 'Home',
      [SCHEDULE_FIELD]: JSON.stringify(WEEK),
      heatMin: '50.5',
      fanMinimumOnTime: '10',
      maintenanceInterval: '6',
    });
    // Saved as it comes, it sets nothing: the member is asked to choose.
    expect(parseTemplateForm(post(values), { unit: 'F', source: { kind: 'new' } })).toEqual({
      ok: false,
      fieldErrors: { form: ['Add at least one section.'] },
    });
  });

  it('sets only the sections ticked, with the thermostat’s values', () => {
    const { values } = templateFormValues(draft, 'C', { tick: 'none' });
    const onlyFan = parseTemplateForm(
      post({ ...values, [INCLUDE_FIELDS.configuration]: 'on', fanMinimumOnTime: '20' }),
      { unit: 'C', source: { kind: 'new' } },
    );
    // The fan on-time changed; the rest of the configuration as the thermostat has it, to the
    // hundredth of a °F; no comfort settings, schedule or alerts.
    expect(onlyFan).toEqual({
      ok: true,
      template: {
        name: 'Like 101',
        configuration: { ...FULL.configuration, fanMinimumOnTime: 20 },
      },
    });
    const withWeek = parseTemplateForm(
      post({ ...values, [INCLUDE_FIELDS.schedule]: 'on', [INCLUDE_FIELDS.comfortSettings]: 'on' }),
      { unit: 'C', source: { kind: 'new' } },
    );
    expect(withWeek).toEqual({
      ok: true,
      template: { name: 'Like 101', comfortSettings: FULL.comfortSettings, schedule: WEEK },
    });
  });

  it('still ticks every section a stored template has, to edit it', () => {
    const { values } = templateFormValues(FULL, 'F');
    for (const section of ['comfortSettings', 'schedule', 'configuration', 'alerts'] as const) {
      expect(values[INCLUDE_FIELDS[section]], section).toBe('on');
    }
    expect(values[INCLUDE_FIELDS.accessControl]).toBe('on');
    expect(values[INCLUDE_FIELDS.residentMode]).toBe('');
  });
});
