import 'server-only';
import { MAX_SENDS, type RunContext, type RunKind } from '@/lib/runs/engine';
import { passcodeFor } from '@/lib/runs/passcodes';
import {
  CHUNKS_IN_FLIGHT,
  chunk,
  failureDetail,
  failureOutcome,
  resultsOfChunk,
  runInLanes,
} from '@/lib/runs/steps';
import {
  finishPlanning,
  type ItemResult,
  listItemPlans,
  listItemsToPlan,
  listPendingItems,
  type PendingItem,
  readBulkRunControl,
  recordItemPlan,
  recordItemResults,
  recordItemSteps,
} from '@/lib/runs/store';
import { assignTemplate } from './run-store';
import {
  CallAbandoned,
  changedNothing,
  describeServiceError,
  ServiceError,
} from '@/lib/service/errors';
import type { SettingsChanges } from '@/lib/service/resources';
import {
  changesKey,
  planTemplate,
  readsFor,
  type TemplateOperation,
  type ThermostatPlan,
  wantsLocks,
} from './plan';
import { runChangesSchema } from './run-words';
import { type Template, templateSchema } from './schema';
import { serviceForTemplates, type TemplateService } from './service';
import { summariseItemPlans } from './summary';

/**
 * The job of a planned run (a template, an undo), in two phases with a member's confirmation
 * between them:
 *
 * - **Planning**: each thermostat's state is read (only what the template needs), planned
 *   (lib/templates/plan/), and stored with its plan; an undo also checks the thermostat still
 *   shows what the change being undone left, and warns if not. Then the run's summary.
 * - **Applying**: the plans' operations in stages, so that every thermostat keeps its own order
 *   while identical configuration changes still share bulk requests of 25: configuration that
 *   goes first, then comfort settings and schedule, configuration that goes last, then alerts and
 *   access control. Each thermostat's progress (`done_ops`) is stored after every call, so a run
 *   resumed after a restart goes on from the next operation; its result is recorded once.
 *   Before every call the thermostat is marked as sent (`attempts`, the calls that carried its
 *   next operation): should Setpoint stop while the call is in flight, the operation may have
 *   been applied, so a resumed run sends it again (every write sets absolute values; a comfort
 *   setting already created is found by its name), a cancel says it may have been applied, and
 *   an undo includes it. After `MAX_SENDS` such calls it is failed instead of sent again.
 *
 * The lease, the pause on a spent budget, cancel, the fatal stop and the run's end are the run
 * engine's (lib/runs/engine.ts), as for every kind of run.
 */

/**
 * Why a thermostat was failed instead of sent its next change a fourth time: each of the last
 * `MAX_SENDS` calls carrying it was in flight when Setpoint stopped.
 */
export const SENT_TOO_OFTEN = `Its next change was sent ${MAX_SENDS} times without an answer reaching Setpoint (Setpoint stopped each time while the call was in flight), so it was not sent again. It may have been applied; check the thermostat.`;

export const PASSCODE_NOT_HERE =
  'The passcode entered for the run was not available where it was applied (after a restart, or in a separate worker; Setpoint never stores one), so it keeps its own passcode.';

/** Thermostats read or applied at once within a run (each read is up to five calls). */
export const LANES = 4;

/** The engine's context, with what a planned run needs besides. */
type Context = RunContext & {
  service: TemplateService;
  /** A passcode was entered when the run was applied (held in memory only, if here at all). */
  passcodeEntered: boolean;
  /**
   * Whether a thermostat whose operations are all applied gets its result here ('applied'). An
   * occupancy run reads it back and verifies first, so it records the result itself.
   */
  recordsResults: boolean;
};

/** The template, one-off and undo kinds of run: planned, confirmed by a member, then applied. */
export function plannedKind(service: TemplateService = serviceForTemplates): RunKind {
  return {
    async work(engine) {
      const context: Context = {
        ...engine,
        service,
        passcodeEntered:
          runChangesSchema.safeParse(engine.run.changes).data?.passcodeEntered === true,
        recordsResults: true,
      };
      if (engine.run.state === 'planning') return (await planRun(context)) ? 'planned' : undefined;
      await applyRun(context);
      return undefined;
    },
    // Each thermostat it applied to, or found matching, is now assigned the template (for drift).
    async finished(run) {
      if (run.kind === 'template' && run.templateId) {
        await assignTemplate({ runId: run.id, templateId: run.templateId });
      }
    },
  };
}

// --- Planning ---------------------------------------------------------------------------------

function parseTemplate(value: unknown): Template | null {
  const parsed = templateSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Plans every thermostat; true once the run is planned and waits for a member. */
async function planRun(context: Context): Promise<boolean> {
  const { run, service } = context;
  const changes = runChangesSchema.parse(run.changes);
  const runTemplate = changes.template ? parseTemplate(changes.template) : null;
  const items = await listItemsToPlan({ runId: run.id });
  await runInLanes(items, {
    concurrency: LANES,
    shouldStop: context.shouldStop,
    work: async (item) => {
      const target = item.target ? parseTemplate(item.target) : runTemplate;
      const expected = item.expected ? parseTemplate(item.expected) : null;
      const blocked = (problem: string) =>
        recordItemPlan({
          runId: run.id,
          thermostatId: item.thermostatId,
          planState: 'blocked',
          before: null,
          plan: { operations: [], diff: [], unchanged: false, problems: [problem] },
          warning: null,
        });
      if (!target) {
        await blocked('What to apply here could not be read; nothing will be sent to it.');
        return;
      }
      const reads = [...new Set([...readsFor(target), ...(expected ? readsFor(expected) : [])])];
      let state: Awaited<ReturnType<TemplateService['read']>>;
      try {
        state = await service.read({
          orgId: run.orgId,
          thermostatId: item.thermostatId,
          reads,
          accessControl: wantsLocks(target) || wantsLocks(expected),
        });
      } catch (error) {
        if (context.stopsRun(error)) return;
        await blocked(`It could not be read: ${describeServiceError(error)}`);
        return;
      }
      const plan = planTemplate(target, state, { unit: changes.unit });
      await recordItemPlan({
        runId: run.id,
        thermostatId: item.thermostatId,
        planState: plan.problems.length > 0 ? 'blocked' : plan.unchanged ? 'unchanged' : 'changes',
        before: state as Record<string, unknown>,
        plan: plan as unknown as Record<string, unknown>,
        warning: expected ? changedSince(expected, state, changes.unit) : null,
      });
    },
  });
  if (context.stopped()) return false;
  const plans = await listItemPlans({ runId: run.id });
  if (plans.some((item) => item.planState === 'pending')) {
    context.stopWith({ kind: 'interrupted' }); // not all read: the sweep takes it up again
    return false;
  }
  const summary = summariseItemPlans(plans);
  if (await finishPlanning({ runId: run.id, owner: context.owner, summary: { ...summary } })) {
    return true;
  }
  // Not planned: a cancel came after the last read (it is cancelled here), or another worker
  // holds the run now (it is theirs).
  const control = await readBulkRunControl({ runId: run.id });
  context.stopWith(
    control?.leaseOwner === context.owner && control.cancelRequested
      ? { kind: 'cancel' }
      : { kind: 'lost' },
  );
  return false;
}

/** An undo's warning: the thermostat no longer shows what the change being undone left. */
function changedSince(
  expected: Template,
  state: Parameters<typeof planTemplate>[1],
  unit: 'F' | 'C',
): string | null {
  const check = planTemplate(expected, state, { unit });
  if (check.unchanged) return null;
  const sections = check.diff.map((section) => section.title.toLowerCase());
  return `It has changed since${sections.length > 0 ? ` (${sections.join(', ')})` : ''}: undoing puts back the earlier state over what is there now.`;
}

// --- Applying ---------------------------------------------------------------------------------

/**
 * The stage an operation runs in: configuration that goes first (0), comfort settings and the
 * schedule (1), configuration that goes last (2), alerts and access control (3), resident mode
 * (4: turning it off resets everything before it). Along every plan the stages never go down,
 * so running the stages in order keeps each thermostat's order.
 */
export function stageOf(operation: TemplateOperation): 0 | 1 | 2 | 3 | 4 {
  switch (operation.kind) {
    case 'configuration':
      return operation.stage === 'before' ? 0 : 2;
    case 'createComfortSetting':
    case 'updateComfortSetting':
    case 'schedule':
      return 1;
    case 'alerts':
    case 'accessControl':
      return 3;
    case 'residentMode':
      return 4;
  }
}

type Progress = {
  thermostatId: string;
  operations: TemplateOperation[];
  done: number;
  created: Map<string, string>;
  /** Failed: its result is recorded and nothing more is sent to it. */
  ended: boolean;
  /** Said with its result: the passcode entered for the run did not reach it. */
  note?: string;
};

const nextOf = (item: Progress) => item.operations[item.done];

function progressOf(item: PendingItem): Progress {
  const plan = item.plan as unknown as ThermostatPlan | null;
  return {
    thermostatId: item.thermostatId,
    operations: plan?.operations ?? [],
    done: item.doneOps,
    created: new Map(Object.entries(item.created ?? {})),
    ended: false,
  };
}

const changeCount = (n: number) => `${n} change${n === 1 ? '' : 's'}`;

/**
 * Sends what is still to send of a one-thermostat run's plan (an occupancy run's template step,
 * lib/units/turnover/): each operation recorded as it is applied, as in a planned run, but its
 * result left to the caller, which reads the thermostat back first.
 */
export function applyPlanOf(
  engine: RunContext,
  service: TemplateService = serviceForTemplates,
): Promise<void> {
  return applyRun({ ...engine, service, passcodeEntered: false, recordsResults: false });
}

async function applyRun(context: Context): Promise<void> {
  const { run } = context;
  const items = (await listPendingItems({ runId: run.id })).map(progressOf);
  // A thermostat with nothing left (its last step recorded just before a restart) is applied.
  const finished = items.filter((item) => item.done >= item.operations.length);
  await recordApplied(context, finished);
  for (const stage of [0, 1, 2, 3, 4] as const) {
    if (context.stopped()) return;
    const active = items.filter((item) => {
      const next = nextOf(item);
      return !item.ended && next !== undefined && stageOf(next) === stage;
    });
    if (active.length === 0) continue;
    if (stage === 0 || stage === 2) await applyConfiguration(context, active);
    else await applyEach(context, active, stage);
  }
}

async function recordApplied(context: Context, items: readonly Progress[]): Promise<void> {
  if (!context.recordsResults) return;
  await recordItemResults({
    runId: context.run.id,
    results: items.map((item) => ({
      thermostatId: item.thermostatId,
      outcome: 'applied',
      detail: `Applied: ${changeCount(item.operations.length)}.${item.note ? ` ${item.note}` : ''}`,
    })),
  });
}

function failedAfter(item: Progress, reason: string): string {
  return item.done > 0
    ? `Failed after ${item.done} of ${changeCount(item.operations.length)}: ${reason}`
    : `Failed: ${reason}`;
}

/** After a step: stored, and the thermostat applied if that was its last. */
async function stepped(context: Context, items: readonly Progress[]): Promise<void> {
  const byDone = new Map<number, Progress[]>();
  for (const item of items) byDone.set(item.done, [...(byDone.get(item.done) ?? []), item]);
  for (const [done, group] of byDone) {
    await recordItemSteps({
      runId: context.run.id,
      thermostatIds: group.map((item) => item.thermostatId),
      doneOps: done,
    });
  }
  await recordApplied(
    context,
    items.filter((item) => item.done >= item.operations.length),
  );
}

/**
 * Marks these thermostats as carried by a call about to be made (before it is made, so that a
 * call in flight when Setpoint stops is known to have perhaps been applied) and returns those to
 * send: still pending, and not yet sent `MAX_SENDS` times without an answer (those are failed).
 */
async function markSent(context: Context, items: readonly Progress[]): Promise<Progress[]> {
  const byId = new Map(items.map((item) => [item.thermostatId, item]));
  const send = new Set(
    await context.carry([...byId.keys()], (thermostatId) =>
      failedAfter(byId.get(thermostatId) as Progress, SENT_TOO_OFTEN),
    ),
  );
  for (const item of items) if (!send.has(item.thermostatId)) item.ended = true;
  return items.filter((item) => !item.ended);
}

/** Identical configuration changes of one stage share bulk requests of at most 25. */
async function applyConfiguration(context: Context, active: readonly Progress[]): Promise<void> {
  const { run, service } = context;
  const groups = new Map<string, { changes: SettingsChanges; items: Progress[] }>();
  for (const item of active) {
    const next = nextOf(item);
    if (next?.kind !== 'configuration') continue;
    const key = changesKey(next.changes);
    const group = groups.get(key) ?? { changes: next.changes, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  const requests = [...groups.values()].flatMap((group) =>
    chunk(group.items).map((items) => ({ changes: group.changes, items })),
  );
  await runInLanes(requests, {
    concurrency: CHUNKS_IN_FLIGHT,
    shouldStop: context.shouldStop,
    work: async ({ changes, items: carried }) => {
      const items = await markSent(context, carried);
      if (items.length === 0) return;
      const ids = items.map((item) => item.thermostatId);
      let results: ReturnType<typeof resultsOfChunk>;
      /** The ones the service answered it refused: not applied, so not in flight any more. */
      let refused: string[] = [];
      try {
        const answer = await service.configuration({
          orgId: run.orgId,
          thermostatIds: ids,
          changes,
          signal: context.abandon,
        });
        results = resultsOfChunk(ids, answer);
        // Not those that may have been applied (read back or not): they stay counted as carried.
        refused = answer.results
          .filter(
            (r) =>
              r.status === 'fail' ||
              (r.status === 'error' && r.code !== 'unconfirmed' && r.code !== 'not_applied'),
          )
          .map((r) => r.thermostatId);
      } catch (error) {
        // Known to have changed nothing: not in flight any more (and a pause does not count).
        if (changedNothing(error)) await context.uncarry(ids);
        // Given up as the run stopped: pending still, for how the run ends to say.
        if (error instanceof CallAbandoned || context.stopsRun(error)) return;
        for (const item of items) item.ended = true;
        results = ids.map((thermostatId) => ({
          thermostatId,
          outcome: failureOutcome(error),
          detail: failureDetail(error),
        }));
      }
      await context.uncarry(refused);
      const byId = new Map(items.map((item) => [item.thermostatId, item]));
      const applied: Progress[] = [];
      const failed: ItemResult[] = [];
      for (const result of results) {
        const item = byId.get(result.thermostatId);
        if (!item) continue;
        if (result.outcome === 'applied') {
          item.done += 1;
          applied.push(item);
        } else {
          item.ended = true;
          failed.push({ ...result, detail: failedAfter(item, result.detail) });
        }
      }
      await stepped(context, applied);
      await recordItemResults({ runId: run.id, results: failed });
    },
  });
}

/** Each thermostat's operations of this stage, one call at a time, a few thermostats at once. */
async function applyEach(
  context: Context,
  active: readonly Progress[],
  stage: 1 | 3 | 4,
): Promise<void> {
  const { run } = context;
  await runInLanes(active, {
    concurrency: LANES,
    shouldStop: context.shouldStop,
    work: async (item) => {
      for (let next = nextOf(item); next && stageOf(next) === stage; next = nextOf(item)) {
        if (next.kind === 'configuration') return; // never here: stages 1, 3 and 4 hold none
        if (item.done > 0 && (await context.shouldStop())) return;
        if ((await markSent(context, [item])).length === 0) return;
        try {
          const answer = await performOnce(context, item, next);
          if (answer.createdRef && next.kind === 'createComfortSetting') {
            item.created.set(next.fields.name.trim().toLowerCase(), answer.createdRef);
          }
        } catch (error) {
          // Known to have changed nothing: not in flight any more (and a pause does not count).
          if (changedNothing(error)) await context.uncarry([item.thermostatId]);
          if (error instanceof CallAbandoned || context.stopsRun(error)) return;
          item.ended = true;
          await recordItemResults({
            runId: run.id,
            results: [
              {
                thermostatId: item.thermostatId,
                outcome: failureOutcome(error),
                detail: failedAfter(item, failureDetail(error)),
              },
            ],
          });
          return;
        }
        item.done += 1;
        await recordItemSteps({
          runId: run.id,
          thermostatIds: [item.thermostatId],
          doneOps: item.done,
          created: Object.fromEntries(item.created),
        });
      }
      if (item.done >= item.operations.length) await recordApplied(context, [item]);
    },
  });
}

/**
 * One operation. A create that the service refuses because the name is taken, where a setting
 * of that name has exactly the values planned, was sent before by a worker that stopped before
 * recording it (the plan matched every existing name): that setting is the one created. A
 * setting someone else made meanwhile with other values is not taken over: the create fails.
 */
async function performOnce(
  context: Context,
  item: Progress,
  operation: Exclude<TemplateOperation, { kind: 'configuration' }>,
): Promise<{ createdRef?: string }> {
  const { run, service } = context;
  const on = { orgId: run.orgId, thermostatId: item.thermostatId };
  try {
    const passcode = operation.kind === 'accessControl' ? passcodeFor(run.id) : null;
    if (operation.kind === 'accessControl' && operation.changes.enabled) {
      if (!passcode && context.passcodeEntered) item.note = PASSCODE_NOT_HERE;
    }
    return await service.perform({
      ...on,
      operation,
      created: item.created,
      passcode,
      signal: context.abandon,
    });
  } catch (error) {
    if (
      operation.kind === 'createComfortSetting' &&
      error instanceof ServiceError &&
      (error.kind === 'validation' || error.kind === 'conflict')
    ) {
      const found = await service.findComfortSetting({ ...on, name: operation.fields.name });
      const fields = operation.fields;
      const same =
        found &&
        found.desiredHeat === fields.desiredHeat &&
        found.desiredCool === fields.desiredCool &&
        found.fanHeat === fields.fanHeat &&
        found.fanCool === fields.fanCool;
      if (found && same) return { createdRef: found.comfortSettingRef };
    }
    throw error;
  }
}
