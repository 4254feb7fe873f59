import { type Apply, configurationKind } from '@/lib/bulk/kind';
import { type RunKind, type RunKinds, type WorkOutcome, workRun } from '@/lib/runs/engine';
import { plannedKind } from '@/lib/templates/kind';
import type { TemplateService } from '@/lib/templates/service';
import { type OccupancyKindOptions, occupancyKind } from '@/lib/units/turnover/kind';

/**
 * The run engine as the worker runs it (lib/runs/engine.ts), with the service the test stands
 * in: every kind name is worked by the one kind the test gives, so a test's run is of the kind
 * it tests.
 */

type WorkInput = { runId: string; owner?: string; signal?: AbortSignal; leaseSeconds?: number };

const everyKindAs = (kind: RunKind): RunKinds => ({
  configuration: kind,
  template: kind,
  undo: kind,
  occupancy: kind,
});

/** Works one configuration run, its requests sent by `apply`. */
export function workBulkRun(input: WorkInput & { apply?: Apply }): Promise<WorkOutcome> {
  return workRun({ ...input, kinds: everyKindAs(configurationKind(input.apply)) });
}

/** Works one occupancy run (lib/units/turnover/) against `service`, its waits as given. */
export function workOccupancyRun(input: WorkInput & OccupancyKindOptions): Promise<WorkOutcome> {
  return workRun({ ...input, kinds: everyKindAs(occupancyKind(input)) });
}

/** Works one planned run (a template, a one-off change, an undo) against `service`. */
export function workPlannedRun(
  input: WorkInput & { service?: TemplateService },
): Promise<WorkOutcome> {
  return workRun({ ...input, kinds: everyKindAs(plannedKind(input.service)) });
}
