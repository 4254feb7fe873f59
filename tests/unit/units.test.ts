import { describe, expect, it } from 'vitest';
import { TEMPERATURE_ALERT_LIMITS } from '@/lib/settings/alerts';
import { DEVICE_LIMITS } from '@/lib/thermostat-api/schemas';
import {
  DECIMALS,
  displayDelta,
  displayRange,
  formatDelta,
  formatRange,
  formatTemperature,
  type TemperatureRange,
  type TemperatureUnit,
  toDisplay,
  toFahrenheit,
  toServiceFahrenheit,
} from '@/lib/units';

const heatRange = { min: 45, max: 79 };
const coolRange = { min: 65, max: 92 };
const UNITS: TemperatureUnit[] = ['F', 'C'];
/** Every range a manager edits against: the device limits and the alert limits. */
const RANGES: [string, TemperatureRange][] = [
  ['heat', DEVICE_LIMITS.heat],
  ['cool', DEVICE_LIMITS.cool],
  ['alerts', TEMPERATURE_ALERT_LIMITS],
];

/** Integers in hundredths, so the steps carry no float drift. */
const hundredths = (range: TemperatureRange) => {
  const values: number[] = [];
  for (let h = Math.round(range.min * 100); h <= Math.round(range.max * 100); h += 1)
    values.push(h / 100);
  return values;
};
/** Figures a manager can type at `decimals`, from `from` to `to`. */
const figures = (from: number, to: number, decimals: number) => {
  const scale = 10 ** decimals;
  const values: number[] = [];
  for (let n = Math.round(from * scale); n <= Math.round(to * scale); n += 1)
    values.push(n / scale);
  return values;
};
/** What a form posts back for a value it showed: the shown figure as text, read as a number. */
const postedBack = (fahrenheit: number, unit: TemperatureUnit) =>
  Number(String(toDisplay(fahrenheit, unit)));
const hasServicePrecision = (fahrenheit: number) =>
  Math.abs(Math.round(fahrenheit * 100) - fahrenheit * 100) < 1e-6;

describe('showing temperatures', () => {
  it('shows °F to two decimals and °C to one, to the nearest', () => {
    expect(toDisplay(45, 'C')).toBe(7.2);
    expect(toDisplay(70.01, 'C')).toBe(21.1);
    expect(toDisplay(68, 'C')).toBe(20);
    expect(toDisplay(70.005, 'F')).toBe(70.01);
    expect(formatTemperature(68, 'C')).toBe('20 °C');
    expect(formatTemperature(65.5, 'F')).toBe('65.5 °F');
    expect(formatTemperature(null, 'C')).toBe('—');
    expect(DECIMALS).toEqual({ F: 2, C: 1 });
  });

  it('states limits rounded inwards and the gap rounded up', () => {
    expect(displayRange(heatRange, 'C')).toEqual({ min: 7.3, max: 26.1 });
    expect(displayRange(coolRange, 'C')).toEqual({ min: 18.4, max: 33.3 });
    expect(displayRange(heatRange, 'F')).toEqual(heatRange);
    expect(displayRange(TEMPERATURE_ALERT_LIMITS, 'C')).toEqual({ min: -23.3, max: 48.8 });
    expect(formatRange(heatRange, 'C')).toBe('7.3 °C to 26.1 °C');
    expect(formatRange(coolRange, 'F', '–')).toBe('65 °F–92 °F');
    expect(displayDelta(5, 'C')).toBe(2.8);
    expect(displayDelta(2, 'C')).toBe(1.2);
    expect(displayDelta(4, 'C')).toBe(2.3);
    expect(displayDelta(5, 'F')).toBe(5);
    expect(formatDelta(5, 'C')).toBe('2.8 °C');
  });
});

describe('toServiceFahrenheit: an entry back to the service’s °F', () => {
  const wide = TEMPERATURE_ALERT_LIMITS;

  it('takes °C back to °F with two decimals', () => {
    expect(toServiceFahrenheit(20, 'C', wide)).toBe(68);
    expect(toServiceFahrenheit(21.5, 'C', wide)).toBe(70.7);
    expect(toServiceFahrenheit(25.5, 'C', wide)).toBe(77.9);
    expect(toServiceFahrenheit(21.3, 'C', wide)).toBe(70.34);
    expect(toServiceFahrenheit(64.5, 'F', wide)).toBe(64.5);
  });

  it('never rounds a shown limit out of range', () => {
    // 45 °F is shown as 7.2 °C; 7.2 °C is 44.96 °F, below the limit, but means the limit.
    expect(toDisplay(45, 'C')).toBe(7.2);
    expect(toFahrenheit(7.2, 'C')).toBeLessThan(45);
    expect(toServiceFahrenheit(7.2, 'C', heatRange)).toBe(45);
    expect(toServiceFahrenheit(toDisplay(79, 'C'), 'C', heatRange)).toBe(79);
    expect(toServiceFahrenheit(toDisplay(65, 'C'), 'C', coolRange)).toBe(65);
  });

  it('never rounds a value out of range, and refuses values whose exact °F is outside', () => {
    // 26.11 °C = 78.998 °F: inside 79, rounds to 79.00 (not beyond).
    expect(toServiceFahrenheit(26.11, 'C', heatRange)).toBe(79);
    // 26.12 °C = 79.016 °F: outside.
    expect(toServiceFahrenheit(26.12, 'C', heatRange)).toBeNull();
    // 7.23 °C = 45.014 °F → 45.01; 7.22 °C = 44.996 °F is outside, even though it rounds to 45.00.
    expect(toServiceFahrenheit(7.23, 'C', heatRange)).toBe(45.01);
    expect(toServiceFahrenheit(7.22, 'C', heatRange)).toBeNull();
    // A range edge with more decimals than the service takes: rounding stays inside it.
    expect(toServiceFahrenheit(70.007, 'F', { min: 45, max: 70.009 })).toBe(70);
    expect(toServiceFahrenheit(44.996, 'F', { min: 44.991, max: 79 })).toBe(45);
    expect(toServiceFahrenheit(44.99, 'F', { min: 44.991, max: 79 })).toBeNull();
    expect(toServiceFahrenheit(7.1, 'C', heatRange)).toBeNull();
    expect(toServiceFahrenheit(Number.NaN, 'C', heatRange)).toBeNull();
  });

  it('keeps the value being edited exactly when its shown figure comes back', () => {
    // 70.01 °F shows as 21.1 °C; converting 21.1 would give 69.98 °F.
    expect(toServiceFahrenheit(21.1, 'C', heatRange, 70.01)).toBe(70.01);
    expect(toServiceFahrenheit(21.1, 'C', heatRange)).toBe(69.98);
    expect(toServiceFahrenheit(21, 'C', heatRange, 70.01)).toBe(69.8);
    // The edited value wins over a limit shown the same way (45.04 °F and 45 °F are both 7.2 °C).
    expect(toServiceFahrenheit(7.2, 'C', heatRange, 45.04)).toBe(45.04);
    // An unchanged value stays itself even if the range has since narrowed.
    expect(toServiceFahrenheit(80, 'F', heatRange, 80)).toBe(80);
  });
});

describe('properties over the service’s whole ranges', () => {
  describe.each(RANGES)('%s range', (_name, range) => {
    const values = hundredths(range);

    it.each(UNITS)(
      'every °F value, shown in °%s and submitted unchanged, returns the same °F',
      (unit) => {
        for (const fahrenheit of values) {
          const back = toServiceFahrenheit(postedBack(fahrenheit, unit), unit, range, fahrenheit);
          if (back !== fahrenheit)
            expect({ fahrenheit, back }).toEqual({ fahrenheit, back: fahrenheit });
        }
      },
    );

    it.each(UNITS)(
      'every °F value, shown in °%s and typed into a new form, is accepted in range and reads back the same',
      (unit) => {
        for (const fahrenheit of values) {
          const figure = postedBack(fahrenheit, unit);
          const back = toServiceFahrenheit(figure, unit, range);
          const ok =
            back !== null &&
            back >= range.min &&
            back <= range.max &&
            hasServicePrecision(back) &&
            toDisplay(back, unit) === figure &&
            (unit === 'C' || back === fahrenheit);
          if (!ok) expect({ fahrenheit, back }).toBe('accepted in range, shown as typed');
        }
      },
    );

    it.each(UNITS)(
      'a °%s figure is accepted exactly when it is within the limits as shown',
      (unit) => {
        const step = 10 ** -DECIMALS[unit];
        const lowest = toDisplay(range.min, unit);
        const highest = toDisplay(range.max, unit);
        for (const figure of figures(lowest - 1, highest + 1, DECIMALS[unit])) {
          const back = toServiceFahrenheit(figure, unit, range);
          const inside = figure >= lowest - step / 2 && figure <= highest + step / 2;
          const ok =
            inside === (back !== null) &&
            (back === null ||
              (back >= range.min && back <= range.max && hasServicePrecision(back)));
          if (!ok) expect({ figure, back }).toBe(inside ? 'accepted in range' : 'refused');
        }
      },
    );

    it('every figure inside the stated °C range is accepted, at any number of decimals', () => {
      const stated = displayRange(range, 'C');
      for (const figure of figures(stated.min, stated.max, 2)) {
        const back = toServiceFahrenheit(figure, 'C', range);
        const ok =
          back !== null && back >= range.min && back <= range.max && hasServicePrecision(back);
        if (!ok) expect({ figure, back }).toBe('accepted in range');
      }
    });
  });

  it('keeping the stated °C gap always keeps the °F gap', () => {
    for (const delta of figures(2, 10, 2)) {
      const gap = displayDelta(delta, 'C');
      for (const heat of figures(10, 20, 1)) {
        const low = toServiceFahrenheit(heat, 'C', heatRange);
        const high = toServiceFahrenheit(Math.round((heat + gap) * 10) / 10, 'C', coolRange);
        if (low === null || high === null) continue;
        if (high - low < delta - 1e-9) expect({ delta, heat, low, high }).toBe('at least the gap');
      }
    }
  });

  it('results always have the service’s precision, even for ranges with more decimals', () => {
    const odd = { min: 44.991, max: 70.009 };
    for (const figure of figures(7, 21.2, 2)) {
      const back = toServiceFahrenheit(figure, 'C', odd);
      if (back !== null && !(hasServicePrecision(back) && back >= odd.min && back <= odd.max))
        expect({ figure, back }).toBe('two decimals, in range');
    }
  });
});
