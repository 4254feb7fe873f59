import { describe, expect, it } from 'vitest';
import { TEMPERATURE_ALERT_LIMITS } from '@/lib/settings/alerts';
import { DEVICE_LIMITS } from '@/lib/service/schemas';
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
} from '@/lib/platform/units';

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

  it('states limits to the nearest step, as values are shown, and the gap rounded up', () => {
    expect(displayRange(heatRange, 'C')).toEqual({ min: 7.2, max: 26.1 });
    expect(displayRange(coolRange, 'C')).toEqual({ min: 18.3, max: 33.3 });
    expect(displayRange(heatRange, 'F')).toEqual(heatRange);
    expect(displayRange({ min: 44.991, max: 70.009 }, 'F')).toEqual({ min: 44.99, max: 70.01 });
    expect(displayRange(TEMPERATURE_ALERT_LIMITS, 'C')).toEqual({ min: -23.3, max: 48.9 });
    for (const [, range] of RANGES)
      expect(displayRange(range, 'C')).toEqual({
        min: toDisplay(range.min, 'C'),
        max: toDisplay(range.max, 'C'),
      });
    expect(formatRange(heatRange, 'C')).toBe('7.2 °C to 26.1 °C');
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

  it('takes a stated limit as that limit, never rounding it out of range', () => {
    // 45 °F is stated as 7.2 °C; 7.2 °C is 44.96 °F, below the limit, but means the limit.
    expect(toDisplay(45, 'C')).toBe(7.2);
    expect(toFahrenheit(7.2, 'C')).toBeLessThan(45);
    expect(toServiceFahrenheit(7.2, 'C', heatRange)).toBe(45);
    // 79 °F is stated as 26.1 °C (78.98 °F), and means 79.
    expect(toServiceFahrenheit(26.1, 'C', heatRange)).toBe(79);
    expect(toServiceFahrenheit(18.3, 'C', coolRange)).toBe(65);
    expect(toServiceFahrenheit(33.3, 'C', coolRange)).toBe(92);
    expect(toServiceFahrenheit(48.9, 'C', TEMPERATURE_ALERT_LIMITS)).toBe(120);
    expect(toServiceFahrenheit(-23.3, 'C', TEMPERATURE_ALERT_LIMITS)).toBe(-10);
  });

  it('accepts exactly the entries within the stated range, clamped into the °F range', () => {
    // 7.21 °C = 44.978 °F: within the stated 7.2, so accepted, and clamped up to 45.
    expect(toServiceFahrenheit(7.21, 'C', heatRange)).toBe(45);
    expect(toServiceFahrenheit(7.22, 'C', heatRange)).toBe(45);
    // 7.23 °C = 45.014 °F → 45.01.
    expect(toServiceFahrenheit(7.23, 'C', heatRange)).toBe(45.01);
    // 7.19 °C and 7.1 °C are below the stated 7.2: refused.
    expect(toServiceFahrenheit(7.19, 'C', heatRange)).toBeNull();
    expect(toServiceFahrenheit(7.1, 'C', heatRange)).toBeNull();
    // 26.09 °C = 78.962 °F → 78.96; 26.11 °C is above the stated 26.1 (though 78.998 °F): refused.
    expect(toServiceFahrenheit(26.09, 'C', heatRange)).toBe(78.96);
    expect(toServiceFahrenheit(26.11, 'C', heatRange)).toBeNull();
    expect(toServiceFahrenheit(26.2, 'C', heatRange)).toBeNull();
    // 48.85 °C = 119.93 °F; 48.89 °C = 120.002 °F rounds to 120.00, not beyond.
    expect(toServiceFahrenheit(48.85, 'C', TEMPERATURE_ALERT_LIMITS)).toBe(119.93);
    expect(toServiceFahrenheit(48.89, 'C', TEMPERATURE_ALERT_LIMITS)).toBe(120);
    expect(toServiceFahrenheit(48.91, 'C', TEMPERATURE_ALERT_LIMITS)).toBeNull();
    // A range edge with more decimals than the service takes (stated 44.99–70.01): rounding and
    // clamping stay inside it.
    expect(toServiceFahrenheit(70.007, 'F', { min: 45, max: 70.009 })).toBe(70);
    expect(toServiceFahrenheit(70.01, 'F', { min: 45, max: 70.009 })).toBe(70);
    expect(toServiceFahrenheit(70.011, 'F', { min: 45, max: 70.009 })).toBeNull();
    expect(toServiceFahrenheit(44.996, 'F', { min: 44.991, max: 79 })).toBe(45);
    expect(toServiceFahrenheit(44.99, 'F', { min: 44.991, max: 79 })).toBe(45);
    expect(toServiceFahrenheit(44.989, 'F', { min: 44.991, max: 79 })).toBeNull();
    expect(toServiceFahrenheit(Number.NaN, 'C', heatRange)).toBeNull();
    expect(toServiceFahrenheit(Number.POSITIVE_INFINITY, 'F', heatRange)).toBeNull();
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
      'a °%s figure is accepted exactly when it is within the stated limits',
      (unit) => {
        const stated = displayRange(range, unit);
        const step = 10 ** -DECIMALS[unit];
        for (const figure of figures(stated.min - 1, stated.max + 1, DECIMALS[unit])) {
          const back = toServiceFahrenheit(figure, unit, range);
          const inside = figure >= stated.min && figure <= stated.max;
          const ok =
            inside === (back !== null) &&
            (back === null ||
              (back >= range.min && back <= range.max && hasServicePrecision(back)));
          if (!ok) expect({ figure, back }).toBe(inside ? 'accepted in range' : 'refused');
        }
        // Just outside the stated limits, by one step: refused.
        expect(toServiceFahrenheit(stated.min - step, unit, range)).toBeNull();
        expect(toServiceFahrenheit(stated.max + step, unit, range)).toBeNull();
      },
    );

    it.each(UNITS)(
      'every °%s figure inside the stated range is accepted and lands inside the °F range, at any number of decimals',
      (unit) => {
        const stated = displayRange(range, unit);
        for (const decimals of [DECIMALS[unit] + 1, DECIMALS[unit] + 2]) {
          const step = 10 ** -decimals;
          for (const figure of figures(stated.min - 0.2, stated.max + 0.2, decimals)) {
            const inside = figure >= stated.min && figure <= stated.max;
            const back = toServiceFahrenheit(figure, unit, range);
            const ok = inside
              ? back !== null && back >= range.min && back <= range.max && hasServicePrecision(back)
              : back === null;
            if (!ok) expect({ figure, back }).toBe(inside ? 'accepted in range' : 'refused');
          }
          expect(toServiceFahrenheit(stated.min - step, unit, range)).toBeNull();
          expect(toServiceFahrenheit(stated.max + step, unit, range)).toBeNull();
        }
      },
    );
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

  // At a stated limit the entry means the limit itself (26.1 °C is 79 °F, not 78.98 °F), which can
  // take up to 0.09 °F of the gap's rounding-up margin: over the whole ranges, check the
  // thermostats' own gaps.
  it('keeping the stated °C gap keeps the °F gap up to the limits, for the thermostats’ gaps', () => {
    const heatStated = displayRange(heatRange, 'C');
    for (const delta of [2, 3, 4, 5]) {
      const gap = displayDelta(delta, 'C');
      for (const heat of figures(heatStated.min, heatStated.max, 1)) {
        const low = toServiceFahrenheit(heat, 'C', heatRange);
        const high = toServiceFahrenheit(Math.round((heat + gap) * 10) / 10, 'C', coolRange);
        if (low === null || high === null) continue;
        if (high - low < delta - 1e-9) expect({ delta, heat, low, high }).toBe('at least the gap');
      }
    }
  });

  it('keeping the stated °C gap keeps the °F gap between alerts, for the thermostats’ gaps', () => {
    const stated = displayRange(TEMPERATURE_ALERT_LIMITS, 'C');
    for (const delta of [2, 3, 4, 5]) {
      const gap = displayDelta(delta, 'C');
      for (const lowFigure of figures(stated.min, stated.max, 1)) {
        const low = toServiceFahrenheit(lowFigure, 'C', TEMPERATURE_ALERT_LIMITS);
        const highFigure = Math.round((lowFigure + gap) * 10) / 10;
        const high = toServiceFahrenheit(highFigure, 'C', TEMPERATURE_ALERT_LIMITS);
        if (low === null || high === null) continue;
        if (high - low < delta - 1e-9) expect({ delta, lowFigure, low, high }).toBe('the gap');
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
