import { describe, expect, it } from 'vitest';
import {
  type ComfortSettingContext,
  changedFields,
  comfortSettingFormSchema,
  comfortSettingRulesSchema,
} from '@/lib/comfort/schemas';
import { describeSetpointRules } from '@/lib/comfort/setpoint-rules';

const rules = {
  heatRange: { min: 45, max: 79 },
  coolRange: { min: 65, max: 92 },
  heatCoolMinDelta: 5,
};
const others = [
  { comfortSettingRef: 'home', name: 'Home' },
  { comfortSettingRef: 'smart4', name: 'Guest Stay' },
];
const context = (extra: Partial<ComfortSettingContext> = {}): ComfortSettingContext => ({
  ...rules,
  unit: 'F',
  others,
  ...extra,
});
const form = {
  name: '  Holiday ',
  desiredHeat: '64',
  desiredCool: '80',
  fanHeat: 'auto',
  fanCool: 'on',
};
const errorsOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe('comfortSettingFormSchema (checks that need no service call)', () => {
  it.each([
    [{ name: '   ' }, 'name', 'Enter a name.'],
    [{ name: 'x'.repeat(33) }, 'name', 'Use at most 32 characters.'],
    [{ desiredHeat: '' }, 'desiredHeat', 'Enter the heat setpoint.'],
    [{ desiredCool: 'warm' }, 'desiredCool', 'Enter a number, such as 70 or 21.5.'],
    [{ fanHeat: 'turbo' }, 'fanHeat', 'Choose the heating fan: auto or on.'],
    [{ fanCool: undefined }, 'fanCool', 'Choose the cooling fan: auto or on.'],
  ])('refuses %j', (change, field, message) => {
    const result = comfortSettingFormSchema.safeParse({ ...form, ...change });
    expect(errorsOf(result)[field]).toBe(message);
  });

  it('accepts a decimal comma', () => {
    expect(comfortSettingFormSchema.parse({ ...form, desiredHeat: '64,5' }).desiredHeat).toBe(64.5);
  });
});

describe('comfortSettingRulesSchema (one thermostat’s rules)', () => {
  it('gives the service’s fields in °F', () => {
    expect(comfortSettingRulesSchema(context()).parse(form)).toEqual({
      name: 'Holiday',
      desiredHeat: 64,
      desiredCool: 80,
      fanHeat: 'auto',
      fanCool: 'on',
    });
  });

  it('keeps names unique, ignoring case, except the setting’s own name', () => {
    const clash = comfortSettingRulesSchema(context()).safeParse({ ...form, name: 'guest stay' });
    expect(errorsOf(clash).name).toBe('Another comfort setting is already called Guest Stay.');
    const own = comfortSettingRulesSchema(
      context({ current: { comfortSettingRef: 'smart4', desiredHeat: 71, desiredCool: 75 } }),
    ).safeParse({ ...form, name: 'GUEST STAY' });
    expect(own.success).toBe(true);
  });

  it('holds setpoints to the thermostat’s ranges', () => {
    const narrow = context({ heatRange: { min: 50, max: 72 }, coolRange: { min: 70, max: 85 } });
    expect(
      errorsOf(comfortSettingRulesSchema(narrow).safeParse({ ...form, desiredHeat: '49.99' })),
    ).toEqual({ desiredHeat: 'Heat must be between 50 and 72 °F.' });
    expect(
      errorsOf(comfortSettingRulesSchema(narrow).safeParse({ ...form, desiredCool: '85.01' })),
    ).toEqual({ desiredCool: 'Cool must be between 70 and 85 °F.' });
    expect(
      comfortSettingRulesSchema(narrow).safeParse({ ...form, desiredHeat: '50', desiredCool: '85' })
        .success,
    ).toBe(true);
  });

  it('keeps heat and cool at least heatCoolMinDelta apart', () => {
    const two = context({ heatCoolMinDelta: 2 });
    expect(
      comfortSettingRulesSchema(two).safeParse({ ...form, desiredHeat: '70', desiredCool: '72' })
        .success,
    ).toBe(true);
    expect(
      errorsOf(
        comfortSettingRulesSchema(two).safeParse({
          ...form,
          desiredHeat: '70',
          desiredCool: '71.99',
        }),
      ),
    ).toEqual({ desiredCool: 'Cool must be at least 2 °F above heat.' });
    expect(
      errorsOf(
        comfortSettingRulesSchema(context()).safeParse({
          ...form,
          desiredHeat: '75',
          desiredCool: '74',
        }),
      ),
    ).toEqual({ desiredCool: 'Cool must be at least 5 °F above heat.' });
  });

  describe('in °C', () => {
    const celsius = context({ unit: 'C' });

    it('converts to °F at two decimals', () => {
      expect(
        comfortSettingRulesSchema(celsius).parse({
          ...form,
          desiredHeat: '20',
          desiredCool: '25.5',
        }),
      ).toMatchObject({
        desiredHeat: 68,
        desiredCool: 77.9,
      });
      expect(
        comfortSettingRulesSchema(celsius).parse({
          ...form,
          desiredHeat: '21.3',
          desiredCool: '26',
        }),
      ).toMatchObject({
        desiredHeat: 70.34,
        desiredCool: 78.8,
      });
    });

    // The conversion itself (rounding, range edges) is tested in units.test.ts.
    it('accepts figures within the stated limits, clamped into range, and refuses others', () => {
      expect(
        comfortSettingRulesSchema(celsius).parse({
          ...form,
          desiredHeat: '26.09',
          desiredCool: '33.29',
        }),
      ).toMatchObject({ desiredHeat: 78.96, desiredCool: 91.92 });
      // 7.21 °C is 44.978 °F: within the stated 7.2 °C, so it is taken as 45 °F.
      expect(
        comfortSettingRulesSchema(celsius).parse({
          ...form,
          desiredHeat: '7.21',
          desiredCool: '20',
        }),
      ).toMatchObject({ desiredHeat: 45, desiredCool: 68 });
      expect(
        errorsOf(
          comfortSettingRulesSchema(celsius).safeParse({
            ...form,
            desiredHeat: '26.11',
            desiredCool: '33.34',
          }),
        ),
      ).toEqual({
        desiredHeat: 'Heat must be between 7.2 and 26.1 °C.',
        desiredCool: 'Cool must be between 18.3 and 33.3 °C.',
      });
      expect(
        errorsOf(
          comfortSettingRulesSchema(celsius).safeParse({
            ...form,
            desiredHeat: '26.2',
            desiredCool: '33.4',
          }),
        ),
      ).toEqual({
        desiredHeat: 'Heat must be between 7.2 and 26.1 °C.',
        desiredCool: 'Cool must be between 18.3 and 33.3 °C.',
      });
    });

    it('states limits to the nearest step, as values are shown, and the gap rounded up', () => {
      expect(describeSetpointRules(rules, 'C')).toContain(
        'Heat 7.2–26.1 °C, cool 18.3–33.3 °C, and cool at least 2.8 °C above heat.',
      );
      expect(describeSetpointRules({ ...rules, heatCoolMinDelta: 2 }, 'C')).toContain(
        'cool at least 1.2 °C above heat',
      );
      expect(describeSetpointRules(rules, 'F')).toBe(
        'Heat 45–79 °F, cool 65–92 °F, and cool at least 5 °F above heat.',
      );
    });

    it('takes a limit typed as it is shown elsewhere (45 °F is 7.2 °C) as that limit', () => {
      expect(
        comfortSettingRulesSchema(celsius).parse({
          ...form,
          desiredHeat: '7.2',
          desiredCool: '18.3',
        }),
      ).toMatchObject({ desiredHeat: 45, desiredCool: 65 });
    });

    it('accepts values that are exactly the stated gap apart', () => {
      expect(
        comfortSettingRulesSchema(celsius).safeParse({
          ...form,
          desiredHeat: '20',
          desiredCool: '22.8',
        }).success,
      ).toBe(true);
      expect(
        errorsOf(
          comfortSettingRulesSchema(celsius).safeParse({
            ...form,
            desiredHeat: '20',
            desiredCool: '22.7',
          }),
        ),
      ).toEqual({
        desiredCool: 'Cool must be at least 2.8 °C above heat.',
      });
    });

    it('keeps an unchanged setpoint’s stored °F exactly when editing', () => {
      // 70.01 °F shows as 21.1 °C; sending 21.1 back would become 69.98 °F.
      const editing = context({
        unit: 'C',
        current: { comfortSettingRef: 'smart4', desiredHeat: 70.01, desiredCool: 76 },
      });
      const result = comfortSettingRulesSchema(editing).parse({
        ...form,
        desiredHeat: '21.1',
        desiredCool: '24.4',
      });
      expect(result.desiredHeat).toBe(70.01);
      expect(result.desiredCool).toBe(76);
      expect(
        comfortSettingRulesSchema(editing).parse({
          ...form,
          desiredHeat: '21',
          desiredCool: '24.4',
        }).desiredHeat,
      ).toBe(69.8);
    });
  });

  it('lists only the changed fields of an edit', () => {
    const current = {
      name: 'Holiday',
      desiredHeat: 64,
      desiredCool: 80,
      fanHeat: 'auto',
      fanCool: 'on',
    };
    expect(changedFields(current, { ...current, fanHeat: 'on', fanCool: 'on' } as never)).toEqual({
      fanHeat: 'on',
    });
  });
});
