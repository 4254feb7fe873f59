import type { HistoryPoint } from '@/lib/readings/store';

/**
 * A thermostat's stored history as a chart draws it: the period asked for (kept in the
 * address), points grouped into buckets (a 7-day chart does not draw a thousand points), lines
 * broken where readings are missing, and what the equipment was doing. Pure: the chart
 * (components/charts/history-chart.tsx) turns it into SVG.
 */

export const HISTORY_RANGES = {
  '24h': { label: '24 hours', ms: 24 * 3_600_000, bucketMs: 5 * 60_000, tableMs: 3_600_000 },
  '7d': {
    label: '7 days',
    ms: 7 * 24 * 3_600_000,
    bucketMs: 30 * 60_000,
    tableMs: 24 * 3_600_000,
  },
} as const;
export type HistoryRange = keyof typeof HISTORY_RANGES;

/** The shortest span a chart draws, however recently its thermostat was added. */
export const SHORTEST_SPAN_MS = 30 * 60_000;

/**
 * The span a chart draws: the period asked for, or, for a thermostat added to Setpoint within it,
 * from when it was added (its history starts there: nothing was read before). A span shorter
 * than SHORTEST_SPAN_MS runs on past now to fill it: the first readings are drawn from the left
 * edge, and the chart fills up as readings come, rather than two dots against the right edge.
 */
export function chartSpan(
  range: HistoryRange,
  now: number,
  addedAt: number | null,
): { from: number; to: number; sinceAdded: boolean } {
  const period = HISTORY_RANGES[range];
  const start = now - period.ms;
  if (addedAt === null || addedAt <= start) return { from: start, to: now, sinceAdded: false };
  return { from: addedAt, to: Math.max(now, addedAt + SHORTEST_SPAN_MS), sinceAdded: true };
}

/**
 * How far apart the time axis's labels are for a span: every 3 hours over a day, every day over a
 * week, closer for a shorter span (a thermostat added lately), so that a few labels always show.
 */
export function tickStepMs(spanMs: number): number {
  const hour = 3_600_000;
  for (const step of [15 * 60_000, 30 * 60_000, hour, 3 * hour, 6 * hour, 24 * hour]) {
    if (spanMs / step <= 8) return step;
  }
  return 24 * hour;
}

export function parseHistoryRange(value: string | string[] | undefined): HistoryRange {
  const first = Array.isArray(value) ? value[0] : value;
  return first === '7d' ? '7d' : '24h';
}

/** What was running, from the service's equipment words (`heatPump,fan`, `compCool1` ...). */
export function equipmentOf(equipment: string | null): {
  heat: boolean;
  cool: boolean;
  fan: boolean;
} {
  const words = (equipment ?? '').toLowerCase().split(',');
  return {
    heat: words.some((word) => word.includes('heat')),
    cool: words.some((word) => word.includes('cool')),
    fan: words.some((word) => word.startsWith('fan')),
  };
}

/** One bucket of history: averages, the last setpoints, and the share of readings running each. */
export type Bucket = {
  /** The bucket's start. */
  at: number;
  count: number;
  temperature: { mean: number; min: number; max: number } | null;
  humidity: number | null;
  desiredHeat: number | null;
  desiredCool: number | null;
  heat: number;
  cool: number;
  fan: number;
};

/** Groups points (oldest first) into buckets of `bucketMs` from `from`; empty buckets are left out. */
export function bucketHistory(points: HistoryPoint[], from: number, bucketMs: number): Bucket[] {
  const groups = new Map<number, HistoryPoint[]>();
  for (const point of points) {
    const time = point.at.getTime();
    if (time < from) continue;
    const start = from + Math.floor((time - from) / bucketMs) * bucketMs;
    const group = groups.get(start);
    if (group) group.push(point);
    else groups.set(start, [point]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([at, group]) => {
      const values = (pick: (point: HistoryPoint) => number | null) =>
        group.map(pick).filter((value): value is number => value !== null);
      const temperatures = values((point) => point.temperature);
      const humidities = values((point) => point.humidity);
      const last = (pick: (point: HistoryPoint) => number | null) => values(pick).at(-1) ?? null;
      const running = group.map((point) => equipmentOf(point.equipment));
      const share = (key: 'heat' | 'cool' | 'fan') =>
        running.filter((state) => state[key]).length / group.length;
      return {
        at,
        count: group.length,
        temperature: temperatures.length
          ? {
              mean: mean(temperatures),
              min: Math.min(...temperatures),
              max: Math.max(...temperatures),
            }
          : null,
        humidity: humidities.length ? mean(humidities) : null,
        desiredHeat: last((point) => point.desiredHeat),
        desiredCool: last((point) => point.desiredCool),
        heat: share('heat'),
        cool: share('cool'),
        fan: share('fan'),
      };
    });
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Runs of buckets with a value, for a line: a gap longer than `maxGapMs` (readings missing:
 * an outage, the thermostat offline) starts a new run instead of drawing across it.
 */
export function runsOf<T>(
  buckets: Bucket[],
  value: (bucket: Bucket) => T | null,
  maxGapMs: number,
): { at: number; value: T }[][] {
  const runs: { at: number; value: T }[][] = [];
  let run: { at: number; value: T }[] = [];
  let previous: number | null = null;
  for (const bucket of buckets) {
    const v = value(bucket);
    if (v === null || (previous !== null && bucket.at - previous > maxGapMs)) {
      if (run.length) runs.push(run);
      run = [];
    }
    if (v !== null) {
      run.push({ at: bucket.at, value: v });
      previous = bucket.at;
    }
  }
  if (run.length) runs.push(run);
  return runs;
}

/** Round limits and a step for an axis over `values` (at least `minSpan` wide). */
export function niceScale(
  values: number[],
  minSpan: number,
): { min: number; max: number; step: number } {
  if (values.length === 0) return { min: 0, max: minSpan, step: minSpan / 2 };
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < minSpan) {
    const middle = (high + low) / 2;
    low = middle - minSpan / 2;
    high = middle + minSpan / 2;
  }
  const span = high - low;
  const step = [1, 2, 5, 10, 20, 25, 50].find((candidate) => span / candidate <= 5) ?? 100;
  return { min: Math.floor(low / step) * step, max: Math.ceil(high / step) * step, step };
}
