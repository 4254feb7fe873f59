import 'server-only';
import type { Scope } from '@/lib/db/scope';
import {
  type BuildingRowRecord,
  type BuildingRowsSummary,
  listBuildingRows,
  rowStatusOf,
  summarizeBuildingRows,
} from '@/lib/readings/store';
import type { ServiceErrorKind } from '@/lib/service/errors';
import { isServiceWide, type Verdict, watchReads } from './outage';
import { pageFreshnessMs } from './poller';
import { type Reading, refreshReading } from './read';
import type { BuildingRow, RowReading, RowStatus } from './row-types';
import { type BuildingView, pageOf } from './view';

export type { BuildingRow, RowReading, RowStatus };

/** Why a page reads nothing from the service: there is no connection to read through. */
export type ReadsPaused = 'not_connected' | 'reconnect';

export type BuildingPage = {
  rows: BuildingRow[];
  summary: BuildingRowsSummary;
  page: number;
  pages: number;
  /** How many rows of this page are being read again now. */
  reading: number;
  /** Set when nothing is read because the connection has ended or was never made. */
  paused: ReadsPaused | null;
  /** Whether the store already says that the service is not answering (before this page's reads). */
  storedServiceWide: boolean;
  /** Whether this page's reads failed service-wide, as soon as that is certain. */
  verdict: Promise<Verdict>;
  /** The building's counts once this page's reads have all ended (the same, when none). */
  settled: Promise<BuildingRowsSummary>;
};

/**
 * One page of a building's table, from the readings store at once: searched, filtered, sorted
 * and paged by the database. Rows read long enough ago (or asked for fresh) are read again now
 * at page priority and stream in, each with its last known reading shown meanwhile; the page
 * never waits for the service. With no usable connection nothing is read.
 */
export async function buildingPage(input: {
  scope: Scope;
  buildingId: string;
  view: BuildingView;
  connection: 'active' | ReadsPaused;
  /**
   * The building's thermostats that need attention, each with its items' titles (most urgent
   * first), as lib/attention works them out: their rows are flagged, and the view's
   * needs-attention filter keeps them. None flagged when not given.
   */
  attention?: ReadonlyMap<string, readonly string[]>;
}): Promise<BuildingPage> {
  const { scope, buildingId, view } = input;
  const attention = input.attention ?? new Map<string, readonly string[]>();
  const attentionIds = [...attention.keys()];
  const freshSince = new Date(Date.now() - (await pageFreshnessMs()));
  const rowsOfPage = (page: number) =>
    listBuildingRows({
      scope,
      buildingId,
      view,
      limit: view.per,
      offset: (page - 1) * view.per,
      freshSince,
      attention: attentionIds,
    });
  const summarize = () =>
    summarizeBuildingRows({ scope, buildingId, view, attention: attentionIds });
  // Both at once; a page beyond the last (an old link) shows the last one.
  const [summary, asked] = await Promise.all([summarize(), rowsOfPage(view.page)]);
  const { page, pages } = pageOf(view, summary.matching);
  const records = page === view.page ? asked : await rowsOfPage(page);
  const paused = input.connection === 'active' ? null : input.connection;
  const rows = records.map((record): BuildingRow => {
    const known = knownReading(record);
    return {
      thermostatId: record.thermostatId,
      unitLabel: record.unitLabel,
      attention: attention.get(record.thermostatId) ?? [],
      known,
      fresh:
        record.stale && !paused
          ? refreshReading({
              orgId: scope.orgId,
              thermostatId: record.thermostatId,
              priority: 'page',
            }).then((reading) => freshReading(reading, known))
          : null,
    };
  });
  const reads = rows.flatMap((row) => (row.fresh ? [row.fresh] : []));
  return {
    rows,
    summary,
    page,
    pages,
    reading: reads.length,
    paused,
    storedServiceWide: isServiceWide(summary.failing, summary.total),
    verdict: watchReads(reads, (reading) => reading.problem),
    settled:
      reads.length === 0
        ? Promise.resolve(summary)
        : Promise.allSettled(reads).then(() => summarize().catch(() => summary)),
  };
}

/** A stored row as what Setpoint knows. */
export function knownReading(record: BuildingRowRecord): RowReading {
  const status: RowStatus | null = record.readAt
    ? {
        temperature: record.temperature,
        humidity: record.humidity,
        hvacMode: record.hvacMode,
        desiredHeat: record.desiredHeat,
        desiredCool: record.desiredCool,
        isResidentMode: record.isResidentMode,
        connected: record.connected,
        comfortSetting: record.comfortSetting,
        offlineSince: record.connected === false ? record.offlineSince : null,
        offlineSeen: record.offlineSeen,
        pendingHvacMode: record.pendingMode,
      }
    : null;
  return {
    status,
    readAt: status ? record.readAt : null,
    problem: (record.failure as ServiceErrorKind | null) ?? null,
  };
}

/**
 * A read just made: its status (offline since when the store said, or since this read; a mode
 * still pending until it shows), or what was known with why this read failed.
 */
export function freshReading(reading: Reading, known: RowReading): RowReading {
  if (reading.ok) {
    const fields = rowStatusOf(reading.status);
    const pending = known.status?.pendingHvacMode ?? null;
    const status: RowStatus = {
      ...fields,
      offlineSince:
        fields.connected === false ? (known.status?.offlineSince ?? reading.readAt) : null,
      offlineSeen: known.status?.offlineSeen ?? false,
      pendingHvacMode: pending !== null && pending !== fields.hvacMode ? pending : null,
    };
    return { status, readAt: reading.readAt, problem: null };
  }
  return { ...known, problem: reading.error.kind };
}
