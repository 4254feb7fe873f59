import 'server-only';
import { notYours } from '@/lib/access/not-yours';
import { can, refusal } from '@/lib/auth/permissions';
import type { Member } from '@/lib/auth/store';
import {
  checkTargets,
  forbidden,
  invalid,
  mayCancel,
  type Refusal,
  type RunActor,
  type RunRequest,
  startedByOf,
  type WithRun,
} from '@/lib/runs/requests';
import { queueRun } from '@/lib/runs/sweep';
import {
  confirmPlannedRun,
  countPlanStates,
  createPlannedRun,
  findBulkRun,
  listBulkRunItems,
  listItemPlans,
  type PlannedItemInput,
  type RunInView,
} from '@/lib/runs/store';
import { listUndoableItems } from './run-store';
import { type PlanSummaryWithSections, summariseItemPlans } from './summary';
import type { Scope } from '@/lib/db/scope';
import { findActivityEntry } from '@/lib/activity/store';
import { findTemplate } from '@/lib/templates/store';
import { undoOf } from './undo/entries';
import { forgetPasscode, holdPasscode, passcodeSchema } from '@/lib/runs/passcodes';
import type { ThermostatPlan, ThermostatState } from './plan';
import { oneOffTitle, runChangesSchema, type UndoNote } from './run-words';
import { runName, runTitle } from '@/lib/runs/words';
import { type Template, templateSchema } from './schema';
import { undoTargetOf } from './undo/of-run';

/**
 * Planning, applying and undoing templates for a member. Every check is here, before anything
 * is written or sent: the role (`change_thermostat`), every thermostat in the member's scope, the
 * template in their organisation and valid. Planning reads and writes nothing at the service
 * but reads; applying happens only once a member confirms the plan they were shown.
 */

/**
 * How long a plan may be applied after it read the thermostats: its operations are differences
 * from what it read, so an old plan would change what is there now in ways nobody was shown.
 */
export const PLAN_FRESH_MS = 60 * 60 * 1000;

/** Plans a template on the selected thermostats: the run is created and its job reads each. */
export async function planTemplateRun(input: {
  member: RunActor;
  templateId: string;
  thermostatIds: unknown;
}): Promise<WithRun | Refusal> {
  const { member } = input;
  if (!can(member, 'change_thermostat'))
    return forbidden(refusal(member.role, 'change_thermostat'));
  const found = await findTemplate({ orgId: member.orgId, templateId: input.templateId });
  if (!found) return forbidden(notYours('template'));
  const template = templateSchema.safeParse({ ...found.template, name: found.name });
  if (!template.success) {
    return invalid('This template is not valid any more; open it and save it again first.');
  }
  return planOn(member, input.thermostatIds, {
    title: template.data.name,
    templateId: found.id,
    changes: { template: template.data, unit: member.temperatureUnit },
  });
}

/**
 * Plans a one-off change (a template body, never saved as a template) on the selected
 * thermostats: the same checks, job, plan, Apply and Undo as a template run, with no templateId,
 * titled by its sections ("One-off: alert settings, schedule ranges"). The body is checked again
 * here, whatever the form did: a page is not the only caller.
 */
export async function planOneOffRun(input: {
  member: Member;
  template: unknown;
  thermostatIds: unknown;
}): Promise<WithRun | Refusal> {
  const { member } = input;
  if (!can(member, 'change_thermostat'))
    return forbidden(refusal(member.role, 'change_thermostat'));
  const body =
    input.template && typeof input.template === 'object' && !Array.isArray(input.template)
      ? (input.template as Record<string, unknown>)
      : {};
  const titled = templateSchema.safeParse({ ...body, name: 'One-off change' });
  if (!titled.success) {
    return invalid(titled.error.issues[0]?.message ?? 'The change is not valid.');
  }
  const template: Template = { ...titled.data, name: oneOffTitle(titled.data) };
  return planOn(member, input.thermostatIds, {
    title: template.name,
    templateId: null,
    changes: { template, unit: member.temperatureUnit, oneOff: true },
  });
}

/**
 * A checked template body planned on the selected thermostats, as a template run or a one-off:
 * every thermostat checked in the member's scope, then the run created and its job (which reads
 * each) queued.
 */
async function planOn(
  member: RunActor,
  thermostatIds: unknown,
  plan: Pick<PlannedRun, 'title' | 'templateId' | 'changes'>,
): Promise<WithRun | Refusal> {
  const targets = await checkTargets(member, thermostatIds);
  if (!targets.ok) return targets;
  return startPlanning(member, { kind: 'template', ...plan, items: targets.targets });
}

type PlannedRun = Omit<
  Parameters<typeof createPlannedRun>[0],
  'orgId' | 'startedBy' | 'startedByName'
>;

/** A run every check has passed, created as the member's and its job (which plans it) queued. */
async function startPlanning(member: RunActor, plan: PlannedRun): Promise<WithRun> {
  const run = await createPlannedRun({
    orgId: member.orgId,
    startedBy: startedByOf(member),
    startedByKey: member.keyId ?? null,
    startedByName: member.name,
    ...plan,
  });
  await queueRun(run.id);
  return { ok: true, run };
}

/** A member's request about one run, by its id (from the address, so not yet checked). */
async function findPlannedRun(input: RunRequest): Promise<WithRun | Refusal> {
  const run = await findBulkRun({ scope: input.member, runId: input.runId });
  if (!run || run.kind === 'configuration') return forbidden(notYours('run'));
  return { ok: true, run };
}

/**
 * Applies a plan the member was shown. Whoever planned it, an owner or an admin may; every
 * thermostat is checked again (a building manager's buildings may have changed since).
 */
export async function applyPlannedRun(
  input: RunRequest & {
    /** A passcode for the thermostats whose locks the plan turns on; held in memory only. */
    passcode?: unknown;
  },
): Promise<WithRun | Refusal> {
  const passcode =
    input.passcode === undefined || input.passcode === null || input.passcode === ''
      ? null
      : passcodeSchema.safeParse(input.passcode);
  if (passcode && !passcode.success) {
    return invalid(passcode.error.issues[0]?.message ?? 'Enter exactly four digits.');
  }
  const found = await findPlannedRun(input);
  if (!found.ok) return found;
  const { run } = found;
  if (!mayCancel(input.member, run)) {
    return forbidden('Only whoever planned this, an owner or an admin can apply it.');
  }
  if (
    run.state === 'planned' &&
    run.plannedAt &&
    Date.now() - run.plannedAt.getTime() > PLAN_FRESH_MS
  ) {
    return invalid(
      'This plan is more than an hour old: the thermostats may have changed since it read them. Discard it and plan again.',
    );
  }
  if (run.state !== 'planned') {
    return invalid(
      run.state === 'planning'
        ? 'The plan is not ready yet; apply it once every thermostat has been read.'
        : 'This plan has already been applied or discarded.',
    );
  }
  const items = await listBulkRunItems({ scope: input.member, run, limit: 5000 });
  // Every thermostat the plan reaches must be the caller's to change, not only those it sees.
  if (items.length < run.total) {
    return forbidden(
      'This plan reaches thermostats outside your buildings; someone who may change them applies it.',
    );
  }
  const targets = await checkTargets(
    input.member,
    items.map((item) => item.thermostatId),
  );
  if (!targets.ok) return targets;
  if (passcode) holdPasscode(run.id, passcode.data);
  const confirmed = await confirmPlannedRun({
    orgId: input.member.orgId,
    runId: run.id,
    passcodeEntered: passcode !== null,
  });
  if (!confirmed) {
    forgetPasscode(run.id);
    return invalid('This plan has already been applied or discarded.');
  }
  await queueRun(run.id);
  return { ok: true, run };
}

/**
 * Plans the undo of a finished template or undo run: each thermostat it changed goes back to the
 * state read before the run, as far as the run changed it. A building manager undoes only their
 * buildings' thermostats of someone else's run.
 */
export async function planUndoOfRun(input: RunRequest): Promise<WithRun | Refusal> {
  const { member } = input;
  if (!can(member, 'change_thermostat'))
    return forbidden(refusal(member.role, 'change_thermostat'));
  const found = await findPlannedRun(input);
  if (!found.ok) return found;
  const { run } = found;
  if (run.state !== 'done' && run.state !== 'cancelled') {
    return invalid('Only a run that has finished can be undone.');
  }
  const changes = runChangesSchema.safeParse(run.changes);
  const runTemplate =
    changes.success && changes.data.template ? parseTemplate(changes.data.template) : null;
  const title = runTitle(run);
  const items: PlannedItemInput[] = [];
  // Each note once (those of thermostats alike are alike), by what it says.
  const notes = new Map<string, UndoNote>();
  let notUndoable = 0;
  let firstReason: string | null = null;
  for (const item of await listUndoableItems({ scope: member, run })) {
    const undo = undoTargetOf({
      title,
      plan: item.plan as unknown as ThermostatPlan,
      // An operation in flight when Setpoint stopped may have been applied: it is put back too.
      doneOps: item.mayHaveDone,
      before: (item.before ?? {}) as ThermostatState,
      applied: item.target ? parseTemplate(item.target) : runTemplate,
    });
    if (!undo.ok) {
      notUndoable += 1;
      firstReason ??= undo.reason;
      continue;
    }
    for (const note of undo.notes) notes.set(JSON.stringify(note), note);
    items.push({
      thermostatId: item.thermostatId,
      buildingId: item.buildingId,
      target: undo.target,
      expected: undo.expected,
    });
  }
  if (items.length === 0) {
    return invalid(
      notUndoable > 0
        ? 'Nothing this run changed can be put back automatically.'
        : 'This run changed nothing, so there is nothing to undo.',
    );
  }
  const targets = await checkTargets(
    member,
    items.map((item) => item.thermostatId),
  );
  if (!targets.ok) return targets;
  if (notUndoable > 0) {
    notes.set(
      'notUndoable',
      `${notUndoable === 1 ? '1 thermostat it changed cannot' : `${notUndoable} thermostats it changed cannot`} be put back automatically (${firstReason}); they are left as they are.`,
    );
  }
  return startPlanning(member, {
    kind: 'undo',
    // Without a count: the undo's own is added wherever it is named (runTitle).
    title: `Undo of ${lowerFirst(runName(run) ?? title)}`,
    undoOf: run.id,
    // What cannot be put back, once for the run (each thermostat's are alike).
    changes: { unit: member.temperatureUnit, notes: [...notes.values()] },
    items,
  });
}

/**
 * Which of these runs offer "Undo this run" to this member wherever they are listed (the
 * activity log, as the run's own page): a finished template, one-off or undo run that changed at
 * least one thermostat the member sees, to a member who may change thermostats. Only reads;
 * `planUndoOfRun` checks everything again when they ask.
 */
export async function runsOfferingUndo(
  member: Member,
  runs: Iterable<RunInView>,
): Promise<Set<string>> {
  if (!can(member, 'change_thermostat')) return new Set();
  const finished = [...runs].filter(
    (run) => run.kind !== 'configuration' && (run.state === 'done' || run.state === 'cancelled'),
  );
  const changed = await Promise.all(
    finished.map(async (run) => ({
      id: run.id,
      changed: (await countPlanStates({ scope: member, run })).changed,
    })),
  );
  return new Set(changed.filter((run) => run.changed > 0).map((run) => run.id));
}

/**
 * Plans the undo of one change from the activity log: its thermostat goes back to the state the
 * change replaced (kept with the entry), planned against the thermostat as it is now, with a
 * warning when it changed since. Applied only once a member confirms the plan.
 */
export async function planUndoOfEntry(input: {
  member: Member;
  entryId: number;
}): Promise<WithRun | Refusal> {
  const { member } = input;
  if (!can(member, 'change_thermostat'))
    return forbidden(refusal(member.role, 'change_thermostat'));
  const entry = await findActivityEntry({ scope: member, entryId: input.entryId });
  if (!entry) return forbidden(notYours('entry'));
  const undo = undoOf(entry);
  if (!undo.ok) return invalid(undo.reason);
  const targets = await checkTargets(member, [undo.thermostatId]);
  if (!targets.ok) return targets;
  const [target] = targets.targets;
  if (!target) return forbidden(notYours('entry'));
  const notes = [...undo.notes];
  if (undo.needsPasscode) {
    notes.push(
      'The change cleared the passcode, and Setpoint never stores one: the locks come back without it. Set a passcode on the thermostat’s access-control page.',
    );
  }
  return startPlanning(member, {
    kind: 'undo',
    title: `Undo: ${entry.summary}`.slice(0, 200),
    undoOfEntry: entry.id,
    changes: { unit: member.temperatureUnit, notes },
    items: [
      {
        thermostatId: target.thermostatId,
        buildingId: target.buildingId,
        target: undo.target,
        expected: undo.expected,
      },
    ],
  });
}

/** Whether an entry offers Undo to this member (the page asks; `planUndoOfEntry` checks). */
export function offersUndo(
  member: Member,
  entry: Parameters<typeof undoOf>[0] & { buildingId: string | null },
): boolean {
  if (!entry.buildingId || !can(member, 'change_thermostat', { buildingId: entry.buildingId }))
    return false;
  return undoOf(entry).ok;
}

function parseTemplate(value: unknown): Template | null {
  const parsed = templateSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * A planned run's summary as the member sees it: the whole run's, or, where they see only part of
 * the run, one summed over the plans in view, so calls and time are never counted over
 * thermostats outside their scope. Null for a run that does not plan.
 */
export async function planSummaryAsSeen(input: {
  scope: Scope;
  run: RunInView;
}): Promise<PlanSummaryWithSections | null> {
  const { run } = input;
  if (run.planSummary === null) return null;
  if (!run.partView) return run.planSummary as PlanSummaryWithSections;
  return summariseItemPlans(
    await listItemPlans({ runId: run.id, seenBy: { scope: input.scope, run } }),
  );
}
