import 'server-only';
import type { RunContext, RunKind } from '@/lib/runs/engine';
import { failureDetail, failureOutcome } from '@/lib/runs/steps';
import {
  hasUnfinishedRun,
  listPendingItems,
  recordItemProgress,
  recordItemResults,
  recordItemSteps,
} from '@/lib/runs/store';
import { CallAbandoned, changedNothing, describeServiceError } from '@/lib/service/errors';
import { applyPlanOf, SENT_TOO_OFTEN } from '@/lib/templates/kind';
import {
  planTemplate,
  readsFor,
  type TemplateOperation,
  type TemplateRead,
  type ThermostatState,
  wantsLocks,
} from '@/lib/templates/plan';
import { serviceForTemplates, type TemplateService } from '@/lib/templates/service';
import { STATE_WORDS } from '../lifecycle';
import {
  applyTarget,
  nextStep,
  type OccupancyChanges,
  occupancyChangesSchema,
  POLL_SECONDS,
  type StepName,
  stepsFor,
  type TurnoverPlan,
  WAIT_MINUTES,
} from './steps';

/**
 * The occupancy run's job: one unit's thermostat, a step at a time (steps.ts). Each step's end is
 * stored with the item before the next begins, so a run resumed after a restart goes on from the
 * step it was at: a read is read again, and a write is sent again only if its answer never came
 * (every write sets absolute values, and resident mode off on a thermostat already off resets
 * nothing). The wait for resident mode to show does not hold a worker: the run pauses, and the
 * engine queues it again a little later, within the call budget. The lease, cancel, a spent
 * budget and the run's end are the engine's (lib/runs/engine.ts).
 */

/** All of a thermostat's state a template can set, for the snapshot an undo puts back. */
const EVERYTHING: TemplateRead[] = [
  'status',
  'comfortSettings',
  'schedule',
  'settings',
  'alertSettings',
];

export type OccupancyKindOptions = {
  service?: TemplateService;
  /** How long to wait for resident mode to show (tests shorten it). */
  waitMs?: number;
  /** How long to pause between status reads while waiting. */
  pollMs?: number;
};

export function occupancyKind(options: OccupancyKindOptions = {}): RunKind {
  const service = options.service ?? serviceForTemplates;
  const waitMs = options.waitMs ?? WAIT_MINUTES * 60_000;
  const pollMs = options.pollMs ?? POLL_SECONDS * 1000;
  return {
    async work(context) {
      const { run } = context;
      // Superseded by a later change of the unit before it began: cancelled, nothing sent.
      if (await context.shouldStop()) return undefined;
      const [item] = await listPendingItems({ runId: run.id });
      if (!item) return undefined;
      const turnover = new Turnover(context, service, item.thermostatId, { waitMs, pollMs });
      const changes = occupancyChangesSchema.safeParse(run.changes);
      if (!changes.success) {
        await turnover.fail('What this run was to apply could not be read; nothing was sent.');
        return undefined;
      }
      const unitId = run.changes.unitId;
      const waits =
        typeof unitId === 'string' &&
        (await hasUnfinishedRun({
          orgId: run.orgId,
          kind: run.kind,
          key: 'unitId',
          subject: unitId,
          before: run,
        }));
      if (waits) {
        context.stopWith({
          kind: 'pause',
          until: new Date(Date.now() + pollMs),
          reason: 'an earlier change of this unit is still being applied; this one follows it.',
        });
        return undefined;
      }
      await turnover.work(changes.data, item.plan as TurnoverPlan | null, item.doneOps);
      return undefined;
    },
  };
}

class Turnover {
  constructor(
    private readonly context: RunContext,
    private readonly service: TemplateService,
    private readonly thermostatId: string,
    private readonly timing: { waitMs: number; pollMs: number },
  ) {}

  private get on() {
    return { orgId: this.context.run.orgId, thermostatId: this.thermostatId };
  }

  /** The thermostat's result, once (a later report of the same item is not recorded). */
  async fail(detail: string, outcome: 'failed' | 'unconfirmed' = 'failed'): Promise<void> {
    await recordItemResults({
      runId: this.context.run.id,
      results: [{ thermostatId: this.thermostatId, outcome, detail }],
    });
  }

  async work(changes: OccupancyChanges, stored: TurnoverPlan | null, doneOps: number) {
    let plan = stored ?? (await this.snapshot(changes));
    while (plan) {
      if (await this.context.shouldStop()) return;
      const step = nextStep(plan);
      if (!step) {
        await recordItemResults({
          runId: this.context.run.id,
          results: [
            {
              thermostatId: this.thermostatId,
              outcome: 'applied',
              detail: `In its ${STATE_WORDS[changes.state].toLowerCase()} settings, checked.`,
            },
          ],
        });
        return;
      }
      const detail = await this.take(step.step, plan, changes, doneOps);
      if (detail === null) return;
      if (step.step === 'resident_off') doneOps = 1;
      step.done = { at: new Date().toISOString(), detail };
      await this.save(plan);
      plan = { ...plan };
    }
  }

  private save(plan: TurnoverPlan, before?: ThermostatState): Promise<void> {
    return recordItemProgress({
      runId: this.context.run.id,
      thermostatId: this.thermostatId,
      plan: plan as unknown as Record<string, unknown>,
      ...(before ? { before: before as Record<string, unknown> } : {}),
    });
  }

  /** Reads the thermostat; null when it could not be (the run stopped, or the item failed). */
  private async read(
    reads: readonly TemplateRead[],
    locks: boolean,
    failed: string,
  ): Promise<ThermostatState | null> {
    try {
      return await this.service.read({ ...this.on, reads, accessControl: locks });
    } catch (error) {
      if (!this.context.stopsRun(error)) {
        await this.fail(`${failed}: ${describeServiceError(error)}`);
      }
      return null;
    }
  }

  /** The first step: the whole state kept as the item's `before`, and the steps that follow. */
  private async snapshot(changes: OccupancyChanges): Promise<TurnoverPlan | null> {
    const before = await this.read(
      EVERYTHING,
      true,
      'It could not be read for its snapshot, so nothing was changed',
    );
    if (!before) return null;
    const steps = stepsFor(changes, before.isResidentMode);
    const resident = before.isResidentMode ? 'on' : 'off';
    const plan: TurnoverPlan = {
      operations: [],
      diff: [],
      unchanged: false,
      problems: [],
      scheduleProvenFewest: true,
      steps: steps.map((step, index) =>
        index === 0
          ? {
              step,
              done: {
                at: new Date().toISOString(),
                detail: `Kept: comfort settings, schedule, configuration, alerts${before.accessControl ? ', locks' : ''}; resident mode ${resident}.`,
              },
            }
          : { step },
      ),
    };
    await this.save(plan, before);
    return plan;
  }

  /** One step; its result in words, or null when the run stops here (or the item failed). */
  private async take(
    step: StepName,
    plan: TurnoverPlan,
    changes: OccupancyChanges,
    doneOps: number,
  ): Promise<string | null> {
    switch (step) {
      case 'snapshot':
        return 'Kept.';
      case 'resident_off':
        return this.residentOff(plan, doneOps);
      case 'wait_resident':
        return this.waitForResident(plan, changes);
      case 'apply':
        return this.apply(plan, changes);
      case 'verify':
        return this.verify(changes);
    }
  }

  private async residentOff(plan: TurnoverPlan, doneOps: number): Promise<string | null> {
    const operation: TemplateOperation = {
      kind: 'residentMode',
      changes: { isResidentMode: false },
    };
    if (doneOps === 0) {
      // In the plan before it is sent: an undo then knows it may have been applied.
      plan.operations = [operation];
      await this.save(plan);
      const carried = await this.context.carry([this.thermostatId], () => SENT_TOO_OFTEN);
      if (carried.length === 0) return null;
      try {
        await this.service.perform({
          ...this.on,
          operation,
          created: new Map(),
          signal: this.context.abandon,
        });
      } catch (error) {
        if (changedNothing(error)) await this.context.uncarry([this.thermostatId]);
        if (error instanceof CallAbandoned || this.context.stopsRun(error)) return null;
        await this.fail(
          `Resident mode could not be turned off: ${failureDetail(error)}`,
          failureOutcome(error),
        );
        return null;
      }
      await recordItemSteps({
        runId: this.context.run.id,
        thermostatIds: [this.thermostatId],
        doneOps: 1,
      });
    }
    plan.waitUntil = new Date(Date.now() + this.timing.waitMs).toISOString();
    return 'Resident mode turned off; the thermostat resets to the service’s defaults.';
  }

  private async waitForResident(
    plan: TurnoverPlan,
    changes: OccupancyChanges,
  ): Promise<string | null> {
    const wanted = changes.residentMode === true;
    const words = wanted ? 'on' : 'off';
    if (!plan.waitUntil) {
      plan.waitUntil = new Date(Date.now() + this.timing.waitMs).toISOString();
      await this.save(plan);
    }
    let problem: string | null = null;
    try {
      const state = await this.service.read({
        ...this.on,
        reads: ['status'],
        accessControl: false,
      });
      if (state.isResidentMode === wanted) return `The service shows resident mode ${words}.`;
    } catch (error) {
      if (this.context.stopsRun(error)) return null;
      problem = describeServiceError(error);
    }
    if (Date.now() >= Date.parse(plan.waitUntil)) {
      const last = problem ? ` (the last read said: ${problem})` : '';
      const next = wanted
        ? 'Check the thermostat is online, then apply the unit’s settings again from its page.'
        : `The snapshot is kept: undo this run to put the thermostat back as it was, or check it is online and apply the unit’s settings again from its page.`;
      await this.fail(
        `The service did not show resident mode ${words} within ${WAIT_MINUTES} minutes${last}, so the ${STATE_WORDS[changes.state].toLowerCase()} settings were not applied. ${next}`,
      );
      return null;
    }
    this.context.stopWith({
      kind: 'pause',
      until: new Date(Date.now() + this.timing.pollMs),
      reason: `the service does not show resident mode ${words} yet; Setpoint reads it again shortly.`,
    });
    return null;
  }

  private async apply(plan: TurnoverPlan, changes: OccupancyChanges): Promise<string | null> {
    const target = applyTarget(changes);
    if (!target) return 'Nothing to apply.';
    if (plan.applyFrom === undefined) {
      const state = await this.read(
        readsFor(target),
        wantsLocks(target),
        'It could not be read before applying the settings',
      );
      if (!state) return null;
      const planned = planTemplate(target, state, { unit: changes.unit });
      if (planned.problems.length > 0) {
        await this.fail(`The settings cannot be applied to it: ${planned.problems.join(' ')}`);
        return null;
      }
      plan.applyFrom = plan.operations.length;
      plan.operations = [...plan.operations, ...planned.operations];
      plan.diff = planned.diff;
      await this.save(plan);
    }
    await applyPlanOf(this.context, this.service);
    if (this.context.stopped()) return null;
    const [item] = await listPendingItems({ runId: this.context.run.id });
    // Failed (its result says why), or not all sent: the run stops here and resumes later.
    if (!item || item.doneOps < plan.operations.length) return null;
    const sent = plan.operations.length - plan.applyFrom;
    if (sent === 0) return 'It was already in these settings: nothing was sent.';
    const sections = plan.diff.map((section) => section.title.toLowerCase()).join(', ');
    return `Applied: ${sent} change${sent === 1 ? '' : 's'} (${sections}).`;
  }

  private async verify(changes: OccupancyChanges): Promise<string | null> {
    const template = changes.template;
    const reads = new Set<TemplateRead>(template ? readsFor(template) : []);
    reads.add('status');
    const state = await this.read(
      [...reads],
      wantsLocks(template),
      'It could not be read back to check the settings',
    );
    if (!state) return null;
    const differ = template
      ? planTemplate(template, state, { unit: changes.unit }).diff.map((section) =>
          section.title.toLowerCase(),
        )
      : [];
    if (changes.residentMode !== null && state.isResidentMode !== changes.residentMode) {
      differ.push('resident mode');
    }
    if (differ.length === 0) return 'Every section matches.';
    await this.fail(
      `Read back, it does not match in ${differ.join(', ')}. Check the thermostat, then apply the unit’s settings again from its page.`,
    );
    return null;
  }
}
