import { z } from 'zod';
import type { ThermostatPlan } from '@/lib/templates/plan';
import { type Template, templateSchema } from '@/lib/templates/schema';
import { STATE_WORDS, UNIT_STATES } from '../lifecycle';

/**
 * An occupancy run puts one unit's thermostat in the settings its new state's policy asks for,
 * as one run with a result per step. A turnover (occupied to vacant) is the one that matters
 * most: keep a snapshot of the thermostat (what an undo needs), turn resident mode off (its
 * reset is expected), wait until the service shows the reset, apply the vacant template, and
 * read it back. Pure: the steps a run takes, how far it got, and what each says; the run kind
 * (kind.ts) reads and sends.
 */

export const STEP_NAMES = ['snapshot', 'resident_off', 'wait_resident', 'apply', 'verify'] as const;
export type StepName = (typeof STEP_NAMES)[number];

/** One step of the run, and once done, when and what it found. */
export type TurnoverStep = { step: StepName; done?: { at: string; detail: string } };

/**
 * The run's plan, kept with its thermostat's item: the steps, and the operations sent so far in
 * a template plan's shape (so an undo of the run reads it as it reads a template run's).
 */
export type TurnoverPlan = ThermostatPlan & {
  steps: TurnoverStep[];
  /** When the wait for resident mode to show gives up (ISO), once the wait has begun. */
  waitUntil?: string;
  /** Where the template's operations begin in `operations`, once planned. */
  applyFrom?: number;
};

/** What the run was asked to do, as stored with it (`bulk_runs.changes`). */
export const occupancyChangesSchema = z.object({
  unitId: z.string(),
  unitLabel: z.string(),
  state: z.enum(UNIT_STATES),
  /** The policy's template as it was when the state changed, or none. */
  template: templateSchema.nullable(),
  /** Resident mode the policy asks for: on, off, or left as it is (null). */
  residentMode: z.boolean().nullable(),
  /** The temperature unit of the member who changed the state, for the plan's words. */
  unit: z.enum(['F', 'C']),
  /** A scheduled move-in's preparation (the state to come), not a change of state. */
  prepare: z.boolean().optional(),
});
export type OccupancyChanges = z.output<typeof occupancyChangesSchema>;

/** Whether a policy asks anything of the thermostat (no run is started when it does not). */
export function asksAnything(policy: {
  template: Template | null;
  residentMode: boolean | null;
}): boolean {
  return policy.template !== null || policy.residentMode !== null;
}

/**
 * The steps for this run, given resident mode as the snapshot read it: turning it off from on
 * resets the thermostat, so that comes first and the template after the reset shows; turning it
 * on resets nothing, so it is sent with the template and then waited for.
 */
export function stepsFor(changes: OccupancyChanges, residentNow: boolean | undefined): StepName[] {
  const steps: StepName[] = ['snapshot'];
  const resets = changes.residentMode === false && residentNow !== false;
  if (resets) steps.push('resident_off', 'wait_resident');
  if (changes.template || changes.residentMode === true) steps.push('apply');
  if (changes.residentMode === true && residentNow !== true) steps.push('wait_resident');
  steps.push('verify');
  return steps;
}

/**
 * The template the apply step plans: the policy's, with resident mode on where the policy wants
 * it (off was sent on its own before, and a template cannot combine it with other sections).
 * Null when there is nothing to apply.
 */
export function applyTarget(changes: OccupancyChanges): Template | null {
  const name = changes.template?.name ?? `${STATE_WORDS[changes.state]} settings`;
  const target: Template = { ...(changes.template ?? { name }) };
  if (changes.residentMode === true) target.residentMode = true;
  else delete target.residentMode;
  return Object.keys(target).length > 1 ? target : null;
}

/** The first step not yet done, or null once every step is. */
export function nextStep(plan: TurnoverPlan): TurnoverStep | null {
  return plan.steps.find((step) => !step.done) ?? null;
}

/** How long the run waits for the service to show resident mode changed, and how often it asks. */
export const WAIT_MINUTES = 15;
export const POLL_SECONDS = 15;

/** What each step is, as the plan lists it. */
export function stepWords(step: StepName, changes: OccupancyChanges): string {
  switch (step) {
    case 'snapshot':
      return 'Keep a snapshot of the thermostat (what an undo puts back)';
    case 'resident_off':
      return 'Turn resident mode off: the thermostat resets its comfort settings, schedule, configuration, alerts and locks to the service’s defaults, as expected';
    case 'wait_resident':
      return `Wait until the service shows resident mode ${changes.residentMode ? 'on' : 'off'} (at most ${WAIT_MINUTES} minutes)`;
    case 'apply': {
      const template = changes.template ? `the “${changes.template.name}” template` : null;
      const resident = changes.residentMode === true ? 'resident mode on' : null;
      return `Apply ${[template, resident].filter(Boolean).join(' and ')}`;
    }
    case 'verify':
      return 'Read it back and check every section';
  }
}

export type StepStatus = 'done' | 'failed' | 'stopped' | 'waiting' | 'to do';

/** Each step with its status, for the run's page: the step after the last done is where it is. */
export function stepsAsShown(input: {
  plan: TurnoverPlan | null;
  changes: OccupancyChanges;
  outcome: string;
  detail: string;
  note: string | null;
}): {
  step: StepName;
  words: string;
  status: StepStatus;
  detail: string | null;
  at: string | null;
}[] {
  const { plan, changes } = input;
  const steps = plan?.steps ?? [{ step: 'snapshot' as const }];
  let current = true;
  return steps.map((step) => {
    const words = stepWords(step.step, changes);
    if (step.done) return { step: step.step, words, ...step.done, status: 'done' as const };
    const here = current;
    current = false;
    if (!here) return { step: step.step, words, status: 'to do' as const, detail: null, at: null };
    if (input.outcome === 'pending') {
      return { step: step.step, words, status: 'waiting' as const, detail: input.note, at: null };
    }
    const failed = input.outcome === 'failed' || input.outcome === 'unconfirmed';
    const status = failed ? ('failed' as const) : ('stopped' as const);
    return { step: step.step, words, status, detail: input.detail, at: null };
  });
}
