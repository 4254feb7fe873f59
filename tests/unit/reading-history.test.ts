import { describe, expect, it } from 'vitest';
import type { HistoryPoint } from '@/lib/readings/store';
import {
  bucketHistory,
  chartSpan,
  equipmentOf,
  HISTORY_RANGES,
  niceScale,
  parseHistoryRange,
  runsOf,
  SHORTEST_SPAN_MS,
  tickStepMs,
} from '@/lib/readings/history';

const FROM = Date.parse('2026-11-22T12:00:00Z');
const MINUTE = 60_000;

const point = (minutes: number, values: Partial<HistoryPoint> = {}): HistoryPoint => ({
  orgId: 'o',
  thermostatId: 't',
  at: new Date(FROM + minutes * MINUTE),
  temperature: 70,
  humidity: 40,
  desiredHeat: 68,
  desiredCool: 76,
  hvacMode: 'auto',
  equipment: '',
  connected: true,
  ...values,
});

describe('history for a chart', () => {
  it('keeps the period in the address: 24 hours unless 7 days is asked for', () => {
    expect(parseHistoryRange(undefined)).toBe('24h');
    expect(parseHistoryRange('7d')).toBe('7d');
    expect(parseHistoryRange(['7d', '24h'])).toBe('7d');
    expect(parseHistoryRange('1y')).toBe('24h');
  });

  it('reads the equipment words of every system kind', () => {
    expect(equipmentOf('heatPump,fan')).toEqual({ heat: true, cool: false, fan: true });
    expect(equipmentOf('auxHeat1,auxHeat2')).toEqual({ heat: true, cool: false, fan: false });
    expect(equipmentOf('compCool1,compCool2,fan')).toEqual({ heat: false, cool: true, fan: true });
    expect(equipmentOf('')).toEqual({ heat: false, cool: false, fan: false });
    expect(equipmentOf(null)).toEqual({ heat: false, cool: false, fan: false });
  });

  it('groups points into buckets: means, ranges, the last setpoints and shares of equipment', () => {
    const buckets = bucketHistory(
      [
        point(-5), // before the period: left out
        point(1, { temperature: 69, humidity: null, equipment: 'auxHeat1,fan' }),
        point(10, { temperature: 71, desiredHeat: 70, equipment: 'fan' }),
        point(20, { temperature: null, desiredHeat: null, equipment: '' }),
        point(95, { temperature: 72 }),
      ],
      FROM,
      30 * MINUTE,
    );
    expect(buckets.map((b) => (b.at - FROM) / MINUTE)).toEqual([0, 90]);
    expect(buckets[0]).toMatchObject({
      count: 3,
      temperature: { mean: 70, min: 69, max: 71 },
      humidity: 40,
      desiredHeat: 70,
      heat: 1 / 3,
      cool: 0,
      fan: 2 / 3,
    });
    expect(buckets[1]?.temperature).toEqual({ mean: 72, min: 72, max: 72 });
  });

  it('breaks a line where readings are missing', () => {
    const buckets = bucketHistory(
      [point(0), point(5), point(10, { temperature: null }), point(15), point(60), point(65)],
      FROM,
      5 * MINUTE,
    );
    const runs = runsOf(buckets, (b) => b.temperature?.mean ?? null, 20 * MINUTE);
    expect(runs.map((run) => run.map((p) => (p.at - FROM) / MINUTE))).toEqual([
      [0, 5],
      [15],
      [60, 65],
    ]);
  });

  it('chooses round axis limits with a few steps, at least as wide as asked', () => {
    expect(niceScale([68.2, 75.9], 6)).toEqual({ min: 68, max: 76, step: 2 });
    expect(niceScale([70, 70], 6)).toEqual({ min: 66, max: 74, step: 2 });
    expect(niceScale([20, 65], 20)).toEqual({ min: 20, max: 70, step: 10 });
    expect(niceScale([], 20)).toEqual({ min: 0, max: 20, step: 10 });
  });
});

describe('a chart of a thermostat added lately', () => {
  const now = FROM;
  it('draws the period asked for when the thermostat is older than it', () => {
    expect(chartSpan('24h', now, now - 2 * HISTORY_RANGES['24h'].ms)).toEqual({
      from: now - HISTORY_RANGES['24h'].ms,
      to: now,
      sinceAdded: false,
    });
    expect(chartSpan('7d', now, null).sinceAdded).toBe(false);
  });

  it('starts when it was added within the period, never less than the shortest span', () => {
    expect(chartSpan('24h', now, now - 90 * MINUTE)).toEqual({
      from: now - 90 * MINUTE,
      to: now,
      sinceAdded: true,
    });
    expect(chartSpan('7d', now, now - 26 * 60 * MINUTE).from).toBe(now - 26 * 60 * MINUTE);
    // Added two minutes ago: drawn from then, over half an hour that fills up as readings come,
    // so its first readings start at the left edge, not as a pair of dots at the right one.
    expect(chartSpan('24h', now, now - 2 * MINUTE)).toEqual({
      from: now - 2 * MINUTE,
      to: now - 2 * MINUTE + SHORTEST_SPAN_MS,
      sinceAdded: true,
    });
  });

  it('spaces the time labels for the span: a few, never dozens', () => {
    expect(tickStepMs(30 * MINUTE)).toBe(15 * MINUTE);
    expect(tickStepMs(90 * MINUTE)).toBe(15 * MINUTE);
    expect(tickStepMs(3 * 60 * MINUTE)).toBe(30 * MINUTE);
    expect(tickStepMs(24 * 60 * MINUTE)).toBe(3 * 60 * MINUTE);
    expect(tickStepMs(7 * 24 * 60 * MINUTE)).toBe(24 * 60 * MINUTE);
  });
});
