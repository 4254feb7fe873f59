import 'server-only';
import { type Actor, logActivity } from '@/lib/activity';
import { addThermostat, ensureBuilding, findKnownThermostats } from '@/lib/db/queries';
import type { ReportRow } from '@/lib/forms';
import { storeStatus } from '@/lib/readings/read';
import { describeServiceError, ServiceError } from '@/lib/thermostat-api/errors';
import { getSchedule, getStatus } from '@/lib/thermostat-api/resources';
import type { ThermostatStatus } from '@/lib/thermostat-api/schemas';
import type { EntryProblem, PortfolioEntry } from './entries';

/** What the sandbox (or a manager) knows about a building that is new to the portfolio. */
export type KnownBuilding = { name: string; timeZone: string; address?: string };

/**
 * Adds thermostats to the organisation's portfolio after checking each with the service: an id
 * the service does not know, or that the service account may not see, is refused with the
 * reason. Buildings new to the portfolio are added too, named from `known` or provisionally by
 * id. Each row names the thermostat's building, and goes to `onRow` the moment it is decided (a
 * long import shows its lines as they are checked). The caller has checked that the member may
 * manage the portfolio.
 */
export async function addToPortfolio(input: {
  actor: Actor;
  entries: PortfolioEntry[];
  problems?: EntryProblem[];
  known?: Map<string, KnownBuilding>;
  onRow?: (row: ReportRow) => void;
}): Promise<ReportRow[]> {
  const { actor, onRow } = input;
  const { orgId } = actor;
  const notAttempted = (input.problems ?? []).map(
    (problem): ReportRow => ({
      line: problem.line,
      subject: problem.input,
      outcome: 'not_attempted',
      detail: problem.problem,
    }),
  );
  for (const row of notAttempted) onRow?.(row);
  const already = await findKnownThermostats({
    orgId,
    thermostatIds: input.entries.map((entry) => entry.thermostatId),
  });
  const buildingNames = new Map<string, Promise<string>>();

  const check = async (entry: PortfolioEntry): Promise<ReportRow> => {
    const base = { line: entry.line, subject: entry.thermostatId };
    const knownBuilding = already.get(entry.thermostatId);
    if (knownBuilding !== undefined) {
      return {
        ...base,
        outcome: 'unchanged',
        detail: `Already in the portfolio, in ${knownBuilding}.`,
      };
    }
    let status: ThermostatStatus;
    try {
      status = await getStatus({ orgId, thermostatId: entry.thermostatId });
    } catch (error) {
      const detail =
        error instanceof ServiceError && (error.kind === 'not_found' || error.kind === 'forbidden')
          ? 'The service does not know this thermostat, or your account may not see it.'
          : describeServiceError(error);
      return { ...base, outcome: 'failed', detail };
    }
    const buildingId = status.buildingId;
    if (!buildingId) {
      return {
        ...base,
        outcome: 'failed',
        detail: 'The service did not say which building it is in.',
      };
    }
    let building = buildingNames.get(buildingId);
    if (!building) {
      building = addBuilding(orgId, buildingId, entry.thermostatId, input.known?.get(buildingId));
      buildingNames.set(buildingId, building);
    }
    let buildingName: string;
    try {
      buildingName = await building;
    } catch (error) {
      return { ...base, outcome: 'failed', detail: describeServiceError(error) };
    }
    const unitLabel = entry.unitLabel || status.name || '';
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
    await storeStatus({ orgId, status });
    return {
      ...base,
      outcome: 'done',
      detail: unitLabel ? `Added to ${buildingName} as ${unitLabel}.` : `Added to ${buildingName}.`,
    };
  };

  const results = await Promise.all(
    input.entries.map(async (entry) => {
      // A line that fails in Setpoint (its database) fails alone: the others are kept, reported
      // and logged.
      const row = await check(entry).catch(
        (error: unknown): ReportRow => ({
          line: entry.line,
          subject: entry.thermostatId,
          outcome: 'failed',
          detail: describeServiceError(error),
        }),
      );
      onRow?.(row);
      return row;
    }),
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

async function addBuilding(
  orgId: string,
  buildingId: string,
  thermostatId: string,
  known?: KnownBuilding,
): Promise<string> {
  // The service has no building endpoint; a thermostat's schedule says its building's zone.
  const timeZone = known?.timeZone ?? (await getSchedule({ orgId, thermostatId })).timeZone;
  if (!timeZone) throw new ServiceError('invalid_response');
  return ensureBuilding({
    orgId,
    buildingId,
    timeZone,
    name: known?.name ?? `Building ${buildingId.slice(-6)}`,
    address: known?.address ?? '',
  });
}
