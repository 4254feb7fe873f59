import 'server-only';
import type { z } from 'zod';
import { listAttention } from '@/lib/attention/list';
import { describeItem } from '@/lib/attention/words';
import { severityOf } from '@/lib/attention/conditions';
import { findThermostat } from '@/lib/portfolio/store';
import { listUnitHistory } from '@/lib/portfolio/units';
import { pageOfThermostats, rowStatusOf, type ThermostatWithReading } from '@/lib/readings/store';
import { readRunProgress, runIdSchema } from '@/lib/runs/progress';
import { findBulkRun, listBulkRunItems } from '@/lib/runs/store';
import { describeRecordedFailure } from '@/lib/service/errors';
import { planSummaryAsSeen } from '@/lib/templates/runs';
import type { PlanSummaryWithSections } from '@/lib/templates/summary';
import { thermostatIdSchema } from '@/lib/service/schemas';
import { type ApiAnswer, type ApiCall, invalidInput, notFound } from './http';
import { scopeOfKey } from './keys';
import { DATABASE_TIMESTAMP, decodeCursor, encodeCursor, query } from './paging';
import {
  attentionQuerySchema,
  historyQuerySchema,
  listThermostatsQuerySchema,
  runQuerySchema,
  type historySchema,
  type planSchema,
  type runSchema,
  type thermostatSchema,
} from './schemas';

/**
 * The API's reads of the fleet: thermostats with their last reading and its age, a unit's history
 * across its thermostats, what needs attention, and a run with its result per thermostat. All from
 * Setpoint's own store: no read reaches the service, so the service's call budget stays
 * Setpoint's. A key limited to some buildings sees nothing else (a 404 for another's ids).
 */

// --- Thermostats --------------------------------------------------------------------------------

type ThermostatBody = z.output<typeof thermostatSchema>;

function thermostatBody(row: ThermostatWithReading, now: number): ThermostatBody {
  const { reading } = row;
  const status = rowStatusOf(reading?.status ?? null);
  return {
    id: row.thermostatId,
    buildingId: row.buildingId,
    label: row.unitLabel,
    lastReading:
      reading?.readAt && reading.status
        ? {
            at: reading.readAt.toISOString(),
            ageSeconds: Math.max(0, Math.round((now - reading.readAt.getTime()) / 1000)),
            temperature: status.temperature,
            humidity: status.humidity,
            hvacMode: status.hvacMode,
            desiredHeat: status.desiredHeat,
            desiredCool: status.desiredCool,
            isResidentMode: status.isResidentMode,
            connected: status.connected,
          }
        : null,
    readProblem: reading?.failure ? describeRecordedFailure(reading.failure) : null,
  };
}

const isThermostatCursor = (value: unknown): value is { createdAt: string; id: string } =>
  typeof value === 'object' &&
  value !== null &&
  DATABASE_TIMESTAMP.test(String((value as { createdAt?: unknown }).createdAt)) &&
  thermostatIdSchema.safeParse((value as { id?: unknown }).id).success;

/** The thermostats the key may see, oldest in the portfolio first, a page at a time. */
export async function listThermostatsOperation(call: ApiCall<object>): Promise<ApiAnswer> {
  const parsed = listThermostatsQuerySchema.safeParse(query(call.url));
  if (!parsed.success) throw invalidInput(parsed.error);
  const { after, limit, buildingId } = parsed.data;
  const page = await pageOfThermostats({
    scope: scopeOfKey(call.key),
    limit,
    buildingId,
    after: decodeCursor(after, isThermostatCursor),
  });
  const now = Date.now();
  return {
    status: 200,
    body: {
      data: page.thermostats.map((row) => thermostatBody(row, now)),
      next: page.next ? encodeCursor(page.next) : null,
    },
  };
}

async function thermostatFor(call: ApiCall<{ thermostatId: string }>) {
  const id = thermostatIdSchema.safeParse(call.params.thermostatId);
  const thermostat = id.success
    ? await findThermostat({ scope: scopeOfKey(call.key), thermostatId: id.data })
    : null;
  if (!thermostat) throw notFound('thermostat');
  return thermostat;
}

export async function readThermostatOperation(
  call: ApiCall<{ thermostatId: string }>,
): Promise<ApiAnswer> {
  // One scoped query: the thermostat with its reading, or nothing the key may see.
  const id = thermostatIdSchema.safeParse(call.params.thermostatId);
  const page = id.success
    ? await pageOfThermostats({ scope: scopeOfKey(call.key), limit: 1, only: id.data })
    : null;
  const [row] = page?.thermostats ?? [];
  if (!row) throw notFound('thermostat');
  return { status: 200, body: thermostatBody(row, Date.now()) };
}

const WINDOWS = { '24h': 24 * 60 * 60_000, '7d': 7 * 24 * 60 * 60_000 } as const;

/** The thermostat's unit's readings over the last day or week, across its replacements. */
export async function thermostatHistoryOperation(
  call: ApiCall<{ thermostatId: string }>,
): Promise<ApiAnswer> {
  const parsed = historyQuerySchema.safeParse(query(call.url));
  if (!parsed.success) throw invalidInput(parsed.error);
  const thermostat = await thermostatFor(call);
  const { window } = parsed.data;
  const points = await listUnitHistory({
    scope: scopeOfKey(call.key),
    thermostatId: thermostat.thermostatId,
    since: new Date(Date.now() - WINDOWS[window]),
  });
  const body: z.output<typeof historySchema> = {
    thermostatId: thermostat.thermostatId,
    window,
    points: points.map((point) => ({
      at: point.at.toISOString(),
      thermostatId: point.thermostatId,
      temperature: point.temperature,
      humidity: point.humidity,
      desiredHeat: point.desiredHeat,
      desiredCool: point.desiredCool,
      hvacMode: point.hvacMode,
      running:
        point.equipment === null ? null : point.equipment.split(',').filter((word) => word !== ''),
      connected: point.connected,
    })),
  };
  return { status: 200, body };
}

// --- Needs attention ----------------------------------------------------------------------------

/** Everything that needs attention now in the key's buildings, filtered by kind and building. */
export async function listAttentionOperation(call: ApiCall<object>): Promise<ApiAnswer> {
  const parsed = attentionQuerySchema.safeParse(query(call.url));
  if (!parsed.success) throw invalidInput(parsed.error);
  const { kind, buildingId, limit } = parsed.data;
  const offset = decodeCursor(parsed.data.after, isOffset) ?? 0;
  const scope = scopeOfKey(call.key);
  if (buildingId && scope.buildingIds && !scope.buildingIds.includes(buildingId)) {
    return { status: 200, body: { data: [], next: null } };
  }
  const now = new Date();
  const { items } = await listAttention({ scope, now, buildingId });
  const chosen = items.filter((item) => kind === undefined || item.kind === kind);
  return {
    status: 200,
    body: {
      next: chosen.length > offset + limit ? encodeCursor(offset + limit) : null,
      data: chosen.slice(offset, offset + limit).map((item) => {
        const words = describeItem(item, { unit: 'F', now });
        return {
          kind: item.kind,
          severity: severityOf(item),
          title: words.title,
          detail: words.detail,
          buildingId: 'buildingId' in item ? item.buildingId : null,
          thermostatId: item.thermostatId || null,
          unitId: 'unitId' in item ? item.unitId : null,
          label: item.label,
          since: item.since ? item.since.toISOString() : null,
        };
      }),
    },
  };
}

// --- Runs ---------------------------------------------------------------------------------------

/** A planned run's summary as the API shows it: what applying it changes and costs. */
function planOf(summary: PlanSummaryWithSections | null): z.output<typeof planSchema> | null {
  if (!summary) return null;
  return {
    thermostats: summary.thermostats,
    changing: summary.changing,
    unchanged: summary.unchanged,
    blocked: summary.blocked,
    calls: summary.calls,
    seconds: summary.seconds,
    ...(summary.resets === undefined ? {} : { resets: summary.resets }),
  };
}

/** Items of a run a page holds. */
const RUN_ITEMS = 200;

const isOffset = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0;

/** A run the key may see (one with a thermostat in its buildings), with a page of its items. */
export async function readRunOperation(call: ApiCall<{ runId: string }>): Promise<ApiAnswer> {
  const parsed = runQuerySchema.safeParse(query(call.url));
  if (!parsed.success) throw invalidInput(parsed.error);
  const scope = scopeOfKey(call.key);
  const id = runIdSchema.safeParse(call.params.runId);
  const run = id.success ? await findBulkRun({ scope, runId: id.data }) : null;
  const progress = run ? await readRunProgress(scope, run.id) : null;
  if (!run || !progress) throw notFound('run');
  const offset = decodeCursor(parsed.data.after, isOffset) ?? 0;
  const items = await listBulkRunItems({ scope, run, offset, limit: RUN_ITEMS + 1 });
  const body: z.output<typeof runSchema> = {
    id: run.id,
    kind: run.kind,
    title: run.title,
    state: run.state,
    finished: progress.finished,
    status: progress.label,
    startedBy: run.startedByName,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    counts: progress.counts,
    items: items.slice(0, RUN_ITEMS).map((item) => ({
      thermostatId: item.thermostatId,
      buildingId: item.buildingId,
      label: item.unitLabel,
      outcome: item.outcome,
      detail: item.detail || null,
    })),
    next: items.length > RUN_ITEMS ? encodeCursor(offset + RUN_ITEMS) : null,
    plan: planOf(await planSummaryAsSeen({ scope, run })),
  };
  return { status: 200, body };
}
