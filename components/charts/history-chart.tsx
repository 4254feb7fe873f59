import type { ReactNode } from 'react';
import { Link } from '@/components/ui/link';
import type { HistoryPoint } from '@/lib/readings/store';
import {
  type Bucket,
  bucketHistory,
  chartSpan,
  HISTORY_RANGES,
  type HistoryRange,
  niceScale,
  runsOf,
  tickStepMs,
} from '@/lib/readings/history';
import { dateTimeFormat } from '@/lib/platform/time-format';
import { formatTemperature, type TemperatureUnit, toDisplay } from '@/lib/platform/units';
import { timeZoneName } from '@/lib/platform/words';

/**
 * A thermostat's history over 24 hours or 7 days, drawn on the server as SVG (no client code):
 * temperature with the heat and cool setpoints, humidity, and the equipment running, on one
 * time axis in the building's time zone. Each panel stretches to the width it is given, with
 * strokes that keep their width and labels in HTML, so it reads the same on a phone; colours
 * follow the light or dark scheme, and setpoints are dashed so they never depend on colour.
 * A summary and a table say the same for screen readers and anyone who wants the figures.
 */

const WIDTH = 1000;
const HEIGHT = 100;

type Scale = { min: number; max: number; step: number };

/** Setpoints are dashed (heat) and dotted (cool), so that they never depend on colour alone. */
const SETPOINTS = [
  { key: 'desiredHeat', className: 'stroke-orange-600 dark:stroke-orange-400', dash: '6 4' },
  { key: 'desiredCool', className: 'stroke-sky-600 dark:stroke-sky-400', dash: '2 3' },
] as const;

export function HistoryChart({
  points,
  range,
  now,
  addedAt,
  unit,
  timeZone,
  path,
}: {
  points: HistoryPoint[];
  range: HistoryRange;
  now: number;
  /** When the thermostat was added to Setpoint: its history starts there. */
  addedAt: number | null;
  unit: TemperatureUnit;
  timeZone: string;
  /** The status page's path, for the period links. */
  path: string;
}) {
  const period = HISTORY_RANGES[range];
  // Added within the period: drawn from when it was added, not squeezed against the right edge.
  const { from, to, sinceAdded } = chartSpan(range, now, addedAt);
  const span = to - from;
  const buckets = bucketHistory(points, from, period.bucketMs);
  const x = (at: number) => ((at - from) / span) * WIDTH;
  const over = sinceAdded ? 'since it was added' : `over the last ${period.label}`;
  // A gap of three buckets (or 20 minutes) means readings are missing: the line breaks.
  const maxGap = Math.max(3 * period.bucketMs, 20 * 60_000);
  const degrees = (value: number) => toDisplay(value, unit);

  const temperatureScale = niceScale(
    buckets.flatMap((b) =>
      [b.temperature?.min, b.temperature?.max, b.desiredHeat, b.desiredCool]
        .filter((v): v is number => typeof v === 'number')
        .map(degrees),
    ),
    unit === 'F' ? 6 : 3,
  );
  const humidityScale = clampScale(
    niceScale(
      buckets.flatMap((b) => (b.humidity === null ? [] : [b.humidity])),
      20,
    ),
  );

  return (
    <section aria-labelledby="history-title" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="history-title" className="text-lg font-medium">
          History
        </h2>
        <nav aria-label="History period" className="flex gap-1 text-sm">
          {(Object.keys(HISTORY_RANGES) as HistoryRange[]).map((key) => (
            <Link
              key={key}
              href={key === '24h' ? path : `${path}?range=${key}`}
              prefetch={false}
              scroll={false}
              aria-current={key === range ? 'page' : undefined}
              className="rounded-lg px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100 aria-[current=page]:bg-slate-900 aria-[current=page]:text-white dark:text-slate-300 dark:hover:bg-slate-800 dark:aria-[current=page]:bg-slate-100 dark:aria-[current=page]:text-slate-900"
            >
              {HISTORY_RANGES[key].label}
            </Link>
          ))}
        </nav>
      </div>
      <p id="history-summary" className="text-sm text-muted">
        {summaryOf(buckets, over, unit)}
      </p>
      {sinceAdded && addedAt !== null ? (
        <p className="text-sm text-muted">
          Its history starts when it was added to Setpoint, {whenAdded(addedAt, now, timeZone)}:
          Setpoint keeps a reading each time it reads the thermostat.
        </p>
      ) : null}
      {buckets.length === 0 ? null : (
        // Room between panels for the axis labels that sit on their edges.
        <div className="grid gap-5">
          <Panel
            label={`Temperature and setpoints ${over}, in °${unit}`}
            scale={temperatureScale}
            format={(value) => `${value} °${unit}`}
            className="h-44 sm:h-56"
          >
            {SETPOINTS.map((setpoint) =>
              runsOf(buckets, (b) => b[setpoint.key], maxGap).map((run) => (
                <path
                  key={`${setpoint.key}-${run[0]?.at}`}
                  d={stepPath(run, x, (v) => y(degrees(v), temperatureScale), period.bucketMs)}
                  className={`fill-none ${setpoint.className}`}
                  strokeDasharray={setpoint.dash}
                  strokeWidth={1.5}
                  vectorEffect="non-scaling-stroke"
                />
              )),
            )}
            {runsOf(buckets, (b) => b.temperature?.mean ?? null, maxGap).map((run) => (
              <path
                key={`temperature-${run[0]?.at}`}
                data-series="temperature"
                d={linePath(run, x, (v) => y(degrees(v), temperatureScale))}
                className="fill-none stroke-slate-900 dark:stroke-slate-100"
                strokeWidth={2.5}
                strokeLinecap="round"
                strokeLinejoin="round"
                vectorEffect="non-scaling-stroke"
              />
            ))}
          </Panel>
          <Panel
            label={`Humidity ${over}, in percent`}
            scale={humidityScale}
            format={(value) => `${value} %`}
            className="h-20 sm:h-24"
          >
            {runsOf(buckets, (b) => b.humidity, maxGap).map((run) => (
              <path
                key={`humidity-${run[0]?.at}`}
                d={linePath(run, x, (v) => y(v, humidityScale))}
                className="fill-none stroke-teal-600 dark:stroke-teal-400"
                strokeWidth={2}
                strokeLinecap="round"
                strokeLinejoin="round"
                vectorEffect="non-scaling-stroke"
              />
            ))}
          </Panel>
          <Equipment buckets={buckets} x={x} bucketMs={period.bucketMs} label={over} />
          <TimeAxis from={from} to={to} timeZone={timeZone} />
          <p className="-mt-3 text-xs text-muted">
            Times are in the building’s time zone, {timeZoneName(timeZone)}.
          </p>
          <Legend />
          <details className="text-sm">
            <summary className="cursor-pointer font-medium">The history as a table</summary>
            <HistoryTable
              buckets={bucketHistory(points, from, period.tableMs)}
              unit={unit}
              timeZone={timeZone}
              range={range}
            />
          </details>
        </div>
      )}
    </section>
  );
}

/** Humidity stays within 0–100 %. */
function clampScale(scale: Scale): Scale {
  return { ...scale, min: Math.max(0, scale.min), max: Math.min(100, scale.max) };
}

const y = (value: number, scale: Scale) =>
  ((scale.max - value) / (scale.max - scale.min || 1)) * HEIGHT;

const fixed = (value: number) => Math.round(value * 10) / 10;

/** A polyline through a run; a run of one point is a dot (a round cap on a zero-length line). */
function linePath<T>(
  run: { at: number; value: T }[],
  x: (at: number) => number,
  yOf: (value: T) => number,
): string {
  const [first, ...rest] = run;
  if (!first) return '';
  const start = `M${fixed(x(first.at))} ${fixed(yOf(first.value))}`;
  if (rest.length === 0) return `${start}h0`;
  return `${start}${rest.map((p) => `L${fixed(x(p.at))} ${fixed(yOf(p.value))}`).join('')}`;
}

/** A setpoint holds until it changes: horizontal steps, to the end of the last bucket. */
function stepPath<T>(
  run: { at: number; value: T }[],
  x: (at: number) => number,
  yOf: (value: T) => number,
  bucketMs: number,
): string {
  const [first, ...rest] = run;
  if (!first) return '';
  let d = `M${fixed(x(first.at))} ${fixed(yOf(first.value))}`;
  for (const point of rest) d += `H${fixed(x(point.at))}V${fixed(yOf(point.value))}`;
  const last = run.at(-1) ?? first;
  return `${d}H${fixed(x(last.at + bucketMs))}`;
}

function Panel({
  label,
  scale,
  format,
  className,
  children,
}: {
  label: string;
  scale: Scale;
  format: (value: number) => string;
  className: string;
  children: ReactNode;
}) {
  const ticks: number[] = [];
  for (let value = scale.min; value <= scale.max + 1e-9; value += scale.step) ticks.push(value);
  return (
    <div className="grid grid-cols-[2.75rem_1fr]">
      <div aria-hidden="true" className="relative">
        {ticks.map((value) => (
          <span
            key={value}
            className="absolute right-2 -translate-y-1/2 text-xs text-slate-600 tabular-nums dark:text-slate-400"
            style={{ top: `${y(value, scale)}%` }}
          >
            {format(Math.round(value * 10) / 10)}
          </span>
        ))}
      </div>
      <div
        className={`relative border-b border-l border-slate-300 dark:border-slate-700 ${className}`}
      >
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={label}
          className="absolute inset-0 size-full overflow-visible"
        >
          {ticks.map((value) => (
            <line
              key={value}
              x1={0}
              x2={WIDTH}
              y1={y(value, scale)}
              y2={y(value, scale)}
              className="stroke-slate-200 dark:stroke-slate-800"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {children}
        </svg>
      </div>
    </div>
  );
}

const EQUIPMENT = [
  { key: 'heat', label: 'Heat', className: 'fill-orange-500 dark:fill-orange-400' },
  { key: 'cool', label: 'Cool', className: 'fill-sky-500 dark:fill-sky-400' },
  { key: 'fan', label: 'Fan', className: 'fill-slate-500 dark:fill-slate-400' },
] as const;

/** A strip per kind of equipment: solid where it ran for every reading of a bucket. */
function Equipment({
  buckets,
  x,
  bucketMs,
  label,
}: {
  buckets: Bucket[];
  x: (at: number) => number;
  bucketMs: number;
  label: string;
}) {
  return (
    <div className="grid grid-cols-[2.75rem_1fr]">
      <div aria-hidden="true" className="grid text-right text-xs text-muted">
        {EQUIPMENT.map((kind) => (
          <span key={kind.key} className="pr-2 leading-5">
            {kind.label}
          </span>
        ))}
      </div>
      <div className="relative h-15 border-l border-slate-300 dark:border-slate-700">
        <svg
          viewBox={`0 0 ${WIDTH} ${EQUIPMENT.length}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`Equipment running ${label}: heat, cool and fan`}
          className="absolute inset-0 size-full"
        >
          {EQUIPMENT.map((kind, row) =>
            buckets
              .filter((bucket) => bucket[kind.key] > 0)
              .map((bucket) => (
                <rect
                  key={`${kind.key}-${bucket.at}`}
                  x={fixed(x(bucket.at))}
                  y={row + 0.15}
                  width={Math.max(0.5, fixed(x(bucket.at + bucketMs) - x(bucket.at)))}
                  height={0.7}
                  opacity={fixed(0.35 + 0.65 * bucket[kind.key])}
                  className={kind.className}
                />
              )),
          )}
        </svg>
      </div>
    </div>
  );
}

/**
 * Times of day (24-hour clock) or days, in the building's time zone, as far apart as the span
 * wants (every 3 hours over a day, every day over a week, closer for a shorter span).
 */
function TimeAxis({ from, to, timeZone }: { from: number; to: number; timeZone: string }) {
  const clock = dateTimeFormat({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
  const day = dateTimeFormat({ weekday: 'short', day: 'numeric', timeZone });
  const ticks: { at: number; label: string }[] = [];
  const span = to - from;
  const stepMinutes = tickStepMs(span) / 60_000;
  // Every quarter hour, so that zones a half or quarter hour off UTC have their whole hours too.
  const quarter = 15 * 60_000;
  for (let at = Math.ceil(from / quarter) * quarter; at <= to; at += quarter) {
    const [hour, minute] = clock.format(at).split(':');
    const minutes = Number(hour) * 60 + Number(minute);
    if (minutes % stepMinutes !== 0) continue;
    ticks.push({ at, label: stepMinutes >= 24 * 60 ? day.format(at) : `${hour}:${minute}` });
  }
  return (
    <div className="grid grid-cols-[2.75rem_1fr]">
      <span />
      <div aria-hidden="true" className="relative h-5 text-xs text-muted">
        {ticks
          .filter((tick) => (tick.at - from) / span > 0.03 && (tick.at - from) / span < 0.97)
          .map((tick, index) => (
            <span
              key={tick.at}
              // On a phone every other label, so that they do not run into each other.
              className={`absolute -translate-x-1/2 whitespace-nowrap tabular-nums ${index % 2 ? 'max-sm:hidden' : ''}`}
              style={{ left: `${((tick.at - from) / span) * 100}%` }}
            >
              {tick.label}
            </span>
          ))}
      </div>
    </div>
  );
}

const LEGEND = [
  { label: 'Temperature', line: 'border-t-[3px] border-slate-900 dark:border-slate-100' },
  {
    label: 'Heat setpoint',
    line: 'border-t-2 border-dashed border-orange-600 dark:border-orange-400',
  },
  { label: 'Cool setpoint', line: 'border-t-2 border-dotted border-sky-600 dark:border-sky-400' },
  { label: 'Humidity', line: 'border-t-2 border-teal-600 dark:border-teal-400' },
];

function Legend() {
  return (
    <ul className="flex flex-wrap gap-x-5 gap-y-1 pl-11 text-xs text-slate-700 dark:text-slate-300">
      {LEGEND.map((item) => (
        <li key={item.label} className="inline-flex items-center gap-2">
          <span aria-hidden="true" className={`inline-block w-6 align-middle ${item.line}`} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** When a thermostat was added, in its building's zone, with the zone named. */
function whenAdded(addedAt: number, now: number, timeZone: string): string {
  const sameDay =
    dateTimeFormat({ dateStyle: 'short', timeZone }).format(addedAt) ===
    dateTimeFormat({ dateStyle: 'short', timeZone }).format(now);
  const time = dateTimeFormat({
    ...(sameDay ? {} : { weekday: 'short', month: 'short', day: 'numeric' }),
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  }).format(addedAt);
  return sameDay ? `today at ${time}` : time;
}

/** One sentence for the whole period: the range of temperatures, the latest, the equipment. */
function summaryOf(buckets: Bucket[], over: string, unit: TemperatureUnit): string {
  const readings = buckets.reduce((sum, b) => sum + b.count, 0);
  if (readings === 0) {
    return `No readings stored ${over} yet: Setpoint keeps one each time it reads the thermostat.`;
  }
  const temperatures = buckets.flatMap((b) => (b.temperature ? [b.temperature] : []));
  const share = (key: 'heat' | 'cool') =>
    Math.round((buckets.reduce((sum, b) => sum + b[key] * b.count, 0) / readings) * 100);
  const latest = temperatures.at(-1);
  const parts = [
    `${readings} reading${readings === 1 ? '' : 's'} ${over}`,
    latest
      ? `temperature between ${formatTemperature(Math.min(...temperatures.map((t) => t.min)), unit)} and ${formatTemperature(Math.max(...temperatures.map((t) => t.max)), unit)}, latest ${formatTemperature(latest.mean, unit)}`
      : 'no temperature reported',
    `heating ${share('heat')} % and cooling ${share('cool')} % of readings`,
  ];
  return `${parts.join('; ')}.`;
}

function HistoryTable({
  buckets,
  unit,
  timeZone,
  range,
}: {
  buckets: Bucket[];
  unit: TemperatureUnit;
  timeZone: string;
  range: HistoryRange;
}) {
  const when = dateTimeFormat(
    range === '24h'
      ? { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }
      : { weekday: 'short', month: 'short', day: 'numeric', timeZone },
  );
  const percent = (share: number) => `${Math.round(share * 100)} %`;
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="w-full text-left text-sm tabular-nums [&_td]:px-2 [&_td]:py-1 [&_th]:px-2 [&_th]:py-1">
        <caption className="sr-only">
          The history by {range === '24h' ? 'hour' : 'day'}, in the building’s time zone
        </caption>
        <thead className="text-xs text-muted">
          <tr>
            <th scope="col">{range === '24h' ? 'Hour' : 'Day'}</th>
            <th scope="col">Temperature (low–high)</th>
            <th scope="col">Heat to</th>
            <th scope="col">Cool to</th>
            <th scope="col">Humidity</th>
            <th scope="col">Heating</th>
            <th scope="col">Cooling</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {buckets.map((bucket) => (
            <tr key={bucket.at}>
              <th scope="row" className="font-normal whitespace-nowrap">
                {when.format(bucket.at)}
              </th>
              <td>
                {bucket.temperature
                  ? `${formatTemperature(bucket.temperature.min, unit)}–${formatTemperature(bucket.temperature.max, unit)}`
                  : '—'}
              </td>
              <td>{formatTemperature(bucket.desiredHeat, unit)}</td>
              <td>{formatTemperature(bucket.desiredCool, unit)}</td>
              <td>{bucket.humidity === null ? '—' : `${Math.round(bucket.humidity)} %`}</td>
              <td>{percent(bucket.heat)}</td>
              <td>{percent(bucket.cool)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
