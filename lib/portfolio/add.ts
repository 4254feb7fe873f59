import 'server-only';
import pLimit from 'p-limit';
import { type Actor, logActivity } from '@/lib/activity/sink';
import {
  addThermostat,
  type Building,
  ensureBuilding,
  findKnownThermostats,
  listOrganizationBuildings,
} from '@/lib/portfolio/store';
import type { ReportRow } from '@/lib/platform/forms';
import { storeStatus } from '@/lib/readings/read';
import { describeServiceError, ServiceError, untilPhrase } from '@/lib/service/errors';
import { getStatus } from '@/lib/service/resources';
import type { ThermostatStatus } from '@/lib/service/schemas';
import type { EntryProblem, PortfolioEntry } from './entries';

/** What the sandbox's demo listing says of a building that is new to the portfolio. */
export type KnownBuilding = { name: string; timeZone: string; address?: string };

/**
 * Finds the building a line names (`ref`: a building's id, or its name in any case) among the
 * organisation's, or one the demo listing describes (`known`, by id), which is then added.
 */
export function buildingFinder(
  buildings: readonly Building[],
  known?: ReadonlyMap<string, KnownBuilding>,
) {
  const byId = new Map(buildings.map((building) => [building.buildingId, building]));
  const byName = new Map(buildings.map((building) => [building.name.toLowerCase(), building]));
  return (ref: string): { buildingId: string; known?: KnownBuilding } | null => {
    const found = byId.get(ref) ?? byName.get(ref.toLowerCase());
    if (found) return { buildingId: found.buildingId };
    const described = known?.get(ref);
    return described ? { buildingId: ref, known: described } : null;
  };
}

/** Lines checked with the service at once: a few, as the service asks, never the whole list. */
const CONCURRENCY = 6;
/**
 * How long an import may wait, in all, for the call budget: long enough for the most lines an
 * import takes (MAX_ENTRIES_PER_IMPORT, about four minutes of the service's 500 calls a minute),
 * short enough for a request to hold. Lines the budget cannot fit by then are reported, not sent.
 */
export const IMPORT_WAIT_LIMIT_MS = 6 * 60_000;
/** While it waits, the import says so this often: progress stays honest, the stream stays open. */
const WAIT_NOTICE_MS = 10_000;

/**
 * The import is waiting for the call budget: about `seconds` more (0: the wait is over), `lines`
 * still to check.
 */
export type ImportWait = { seconds: number; lines: number };

/** A line the call budget could not fit yet: it is tried again once `until` has passed. */
class WaitForBudget {
  constructor(readonly until: number) {}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When a rate-limited check may be tried again: reads are safe to repeat. */
function budgetWait(error: unknown): WaitForBudget | null {
  if (!(error instanceof ServiceError) || error.kind !== 'rate_limited') return null;
  const until = error.retryAt?.getTime() ?? Date.now() + (error.retryAfterSeconds ?? 5) * 1000;
  return new WaitForBudget(until);
}

/**
 * Adds thermostats to the organisation's portfolio after checking each with the service: an id
 * the service does not know, or that the service account may not see, is refused with the
 * reason. Buildings new to the portfolio are added too, named from `known` or provisionally by
 * id. Each row names the thermostat's building, and goes to `onRow` the moment it is decided (a
 * long import shows its lines as they are checked). The caller has checked that the member may
 * manage the portfolio.
 *
 * More lines than the call budget has room for wait for its next window rather than fail:
 * `onWait` hears how long and for how many lines, when the wait begins, every few seconds while
 * it lasts, and when it is over. The checks run at the budget's `page` priority, so a long
 * import leaves the top of each window to a person's single clicks. A line the budget has no
 * room for within `waitLimitMs` of the start is not sent, and says so and when to add it again.
 */
export async function addToPortfolio(input: {
  actor: Actor;
  entries: PortfolioEntry[];
  problems?: EntryProblem[];
  /** The building of a line that names none (one of the organisation's, by id). */
  defaultBuildingId?: string | null;
  known?: Map<string, KnownBuilding>;
  onRow?: (row: ReportRow) => void;
  onWait?: (wait: ImportWait) => void;
  waitLimitMs?: number;
}): Promise<ReportRow[]> {
  const { actor, onRow } = input;
  const { orgId } = actor;
  const priority = 'page' as const;
  const already = await findKnownThermostats({
    orgId,
    thermostatIds: input.entries.map((entry) => entry.thermostatId),
  });
  // Each new line's building, before anything is asked of the service: a line naming no building
  // the portfolio has is not sent (one already in the portfolio needs none: it stays where it is).
  const portfolioBuildings = await listOrganizationBuildings({ orgId });
  const findBuilding = buildingFinder(portfolioBuildings, input.known);
  const placed: { entry: PortfolioEntry; buildingId: string; known?: KnownBuilding }[] = [];
  const problems = [...(input.problems ?? [])];
  for (const entry of input.entries) {
    if (already.has(entry.thermostatId)) {
      placed.push({ entry, buildingId: '' });
      continue;
    }
    const ref = entry.building || input.defaultBuildingId || '';
    const building = ref ? findBuilding(ref) : null;
    if (building) placed.push({ entry, ...building });
    else {
      problems.push({
        line: entry.line,
        input: entry.thermostatId,
        problem: ref
          ? `No building “${ref}” in your portfolio: add it first, or name one you have.`
          : 'Choose the building it is in (for the whole import, or in a building column).',
      });
    }
  }
  const notAttempted = problems.map(
    (problem): ReportRow => ({
      line: problem.line,
      subject: problem.input,
      outcome: 'not_attempted',
      detail: problem.problem,
    }),
  );
  for (const row of notAttempted) onRow?.(row);
  const buildingNames = new Map<string, Promise<string>>();
  // A line that waits for its building's lookup keeps its status: it is not asked for twice.
  const statuses = new Map<string, ThermostatStatus>();

  const check = async ({
    entry,
    buildingId,
    known,
  }: (typeof placed)[number]): Promise<ReportRow> => {
    const base = { line: entry.line, subject: entry.thermostatId };
    const knownBuilding = already.get(entry.thermostatId);
    if (knownBuilding !== undefined) {
      return {
        ...base,
        outcome: 'unchanged',
        detail: `Already in the portfolio, in ${knownBuilding}.`,
      };
    }
    let status = statuses.get(entry.thermostatId);
    try {
      status ??= await getStatus({ orgId, priority, thermostatId: entry.thermostatId });
    } catch (error) {
      const wait = budgetWait(error);
      if (wait) throw wait;
      const detail =
        error instanceof ServiceError && (error.kind === 'not_found' || error.kind === 'forbidden')
          ? 'The service does not know this thermostat, or your account may not see it.'
          : describeServiceError(error);
      return { ...base, outcome: 'failed', detail };
    }
    statuses.set(entry.thermostatId, status);
    let building = buildingNames.get(buildingId);
    if (!building) {
      building = known
        ? ensureBuilding({ orgId, buildingId, ...known, address: known.address ?? '' })
        : Promise.resolve(
            portfolioBuildings.find((candidate) => candidate.buildingId === buildingId)?.name ??
              buildingId,
          );
      buildingNames.set(buildingId, building);
    }
    const buildingName = await building;
    const unitLabel = entry.unitLabel;
    const added = await addThermostat({
      orgId,
      thermostatId: entry.thermostatId,
      buildingId,
      unitLabel,
    });
    if (!added) {
      return {
        ...base,
        outcome: 'unchanged',
        detail: `Already in the portfolio, in ${buildingName}.`,
      };
    }
    await storeStatus({ orgId, thermostatId: entry.thermostatId, status });
    return {
      ...base,
      outcome: 'done',
      detail: unitLabel ? `Added to ${buildingName} as ${unitLabel}.` : `Added to ${buildingName}.`,
    };
  };

  // One pause for every worker: the first line the budget refuses starts it, later refusals
  // only move its end, and it tells onWait how it stands until it ends.
  const waitUntil = Date.now() + (input.waitLimitMs ?? IMPORT_WAIT_LIMIT_MS);
  let undecided = placed.length;
  let pauseEnd = 0;
  let pause: Promise<void> | null = null;
  const waitOut = async () => {
    for (let left = pauseEnd - Date.now(); left > 0; left = pauseEnd - Date.now()) {
      input.onWait?.({ seconds: Math.ceil(left / 1000), lines: undecided });
      await sleep(Math.min(left, WAIT_NOTICE_MS));
    }
  };
  const pauseUntil = (until: number): Promise<void> => {
    pauseEnd = Math.max(pauseEnd, until);
    if (pause) return pause;
    if (pauseEnd <= Date.now()) return Promise.resolve();
    pause = waitOut().finally(() => {
      pause = null;
      input.onWait?.({ seconds: 0, lines: undecided });
    });
    return pause;
  };

  const decide = async (line: (typeof placed)[number]): Promise<ReportRow> => {
    const { entry } = line;
    for (;;) {
      if (pause) await pause;
      try {
        return await check(line);
      } catch (error) {
        if (!(error instanceof WaitForBudget)) {
          // A line that fails in Setpoint (its database) fails alone: the others are kept,
          // reported and logged.
          return {
            line: entry.line,
            subject: entry.thermostatId,
            outcome: 'failed',
            detail: describeServiceError(error),
          };
        }
        if (error.until > waitUntil) {
          return {
            line: entry.line,
            subject: entry.thermostatId,
            outcome: 'not_attempted',
            detail: `Not checked: the service’s rate limit has no room for it before ${untilPhrase(new Date(error.until))}. Add it again then.`,
          };
        }
        await pauseUntil(error.until);
      }
    }
  };

  const limit = pLimit(CONCURRENCY);
  const results = await Promise.all(
    placed.map((line) =>
      limit(async () => {
        const row = await decide(line);
        undecided -= 1;
        onRow?.(row);
        return row;
      }),
    ),
  );

  const added = results.filter((result) => result.outcome === 'done');
  if (added.length > 0) {
    await logActivity({
      actor,
      action: 'portfolio.add',
      summary: `Added ${added.length} thermostat${added.length === 1 ? '' : 's'} to the portfolio`,
      changes: { thermostatIds: added.map((result) => result.subject) },
    });
  }
  return [...results, ...notAttempted].sort((a, b) => a.line - b.line);
}
