import 'server-only';
import pLimit from 'p-limit';
import { countPolledThermostats, listDueReadings } from '@/lib/readings/store';
import { getEnv } from '@/lib/platform/env';
import { budgetWindows } from '@/lib/service/budget';
import { freshnessTargetMs, refreshReading } from './read';

/**
 * The poller: a job run every minute that spends the budget's spare background share on keeping
 * every reading within the freshness target, oldest (and wanted) first. It spends the hour's
 * share evenly, a sixtieth a minute, so that pages and writes always find room.
 */

/** Readings the poller may make in one minute: its hourly share, spread evenly. */
export function readingsPerMinute(): number {
  const hourCap = budgetWindows(getEnv().SERVICE_RATE_LIMIT, 'background')[2]?.cap ?? 0;
  return Math.max(1, Math.floor(hourCap / 60));
}

/**
 * How fresh readings can be kept: the target, or, where the fleet is too large for it under the
 * hourly budget, what the budget allows (1,500 thermostats under 10,000 calls an hour: about 10
 * minutes).
 */
export function achievableFreshnessMs(fleet: number): number {
  const target = freshnessTargetMs();
  const perMinute = readingsPerMinute();
  return Math.max(target, Math.ceil(fleet / perMinute) * 60_000);
}

/** The fleet, counted at most once a minute per process: it paces reads, it decides nothing. */
let counted: { at: number; fleet: number } | null = null;

/**
 * How old a row may be before a page that shows it reads it again: the freshness the poller can
 * keep. Were it the target alone, a fleet too large for the target would have every view of a
 * building spend the budget on rows the poller is about to read anyway.
 */
export async function pageFreshnessMs(): Promise<number> {
  if (freshnessTargetMs() === 0) return 0;
  if (!counted || Date.now() - counted.at > 60_000) {
    counted = { at: Date.now(), fleet: await countPolledThermostats() };
  }
  return achievableFreshnessMs(counted.fleet);
}

export async function pollFreshness(): Promise<{
  fleet: number;
  targetMs: number;
  achievableMs: number;
}> {
  const fleet = await countPolledThermostats();
  return { fleet, targetMs: freshnessTargetMs(), achievableMs: achievableFreshnessMs(fleet) };
}

/** One minute's round: reads up to a minute's share of what is due; returns what it did. */
export async function pollOnce(): Promise<{ due: number; read: number; failed: number }> {
  const target = freshnessTargetMs();
  if (target === 0) return { due: 0, read: 0, failed: 0 };
  const due = await listDueReadings({
    olderThan: new Date(Date.now() - target),
    limit: readingsPerMinute(),
  });
  const limit = pLimit(8);
  const results = await Promise.all(
    due.map((reading) => limit(() => refreshReading({ ...reading, priority: 'background' }))),
  );
  const failed = results.filter((result) => !result.ok).length;
  return { due: due.length, read: results.length - failed, failed };
}
