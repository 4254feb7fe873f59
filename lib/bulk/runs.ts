import 'server-only';
import { z } from 'zod';
import { notYours } from '@/lib/access/not-yours';
import { CHECK_FIELDS } from '@/lib/platform/forms';
import { can, refusal } from '@/lib/auth/permissions';
import type { Member } from '@/lib/auth/store';
import {
  type BulkRun,
  createBulkRun,
  findBulkRun,
  listBulkRunItems,
  requestBulkRunCancel,
} from '@/lib/runs/store';
import { listHeatCoolGaps } from '@/lib/comfort/heat-cool-gaps-store';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import {
  type ConfigurationErrors,
  type ConfigurationInput,
  FAN_MINIMUM_ON_TIME,
  type HeatCoolGapRule,
  heatCoolGapRule,
  heatCoolGapWords,
  validateConfiguration,
} from '@/lib/settings/configuration';
import { forgetPasscode } from '@/lib/runs/passcodes';
import { CANCELLED_BEFORE_SENT, CANCELLED_IN_FLIGHT } from '@/lib/runs/engine';
import { queueRun } from '@/lib/runs/sweep';
import { isOneOff } from '@/lib/runs/words';
import { runEntry } from '@/lib/runs/entry';
import type { SettingsChanges } from '@/lib/service/resources';
import { DEVICE_LIMITS, HOLD_ACTIONS, thermostatIdSchema } from '@/lib/service/schemas';
import { formatDelta } from '@/lib/platform/units';
import { BULK_RUNS_PATH, TEMPLATE_RUNS_PATH } from '@/lib/runs/paths';
import { MAX_PER_REQUEST, MAX_PER_RUN } from '@/lib/runs/steps';
import { changesInWords, thermostatCount } from '@/lib/runs/words';

/**
 * Starting, reviewing, cancelling and retrying bulk runs for a member. Every check happens here,
 * before anything is written: the member's role, each selected thermostat in their scope (their
 * organisation; for a building manager their buildings) and theirs to change, and the changes
 * themselves. Only then is the run created and its job queued.
 */

export const selectionSchema = z
  .array(thermostatIdSchema)
  .min(1, 'Select at least one thermostat.')
  .max(MAX_PER_RUN, `Select at most ${MAX_PER_RUN} thermostats per run.`)
  .refine((ids) => new Set(ids).size === ids.length, 'Each thermostat once.');

/** The changes a run stores (°F, as sent), read back for a retry. */
const storedChangesSchema = z
  .strictObject({
    heatRange: z.strictObject({ min: z.number(), max: z.number() }),
    coolRange: z.strictObject({ min: z.number(), max: z.number() }),
    holdAction: z.enum(HOLD_ACTIONS),
    fanMinimumOnTime: z.int().min(FAN_MINIMUM_ON_TIME.min).max(FAN_MINIMUM_ON_TIME.max),
  })
  .partial()
  .refine((changes) => Object.keys(changes).length > 0)
  .refine((c) => !c.heatRange || inLimits(c.heatRange, DEVICE_LIMITS.heat))
  .refine((c) => !c.coolRange || inLimits(c.coolRange, DEVICE_LIMITS.cool));

const inLimits = (range: { min: number; max: number }, limits: { min: number; max: number }) =>
  range.min >= limits.min && range.max <= limits.max && range.min < range.max;

export type Target = { thermostatId: string; buildingId: string; unitLabel: string };

/** Why nothing was started: the member may not (`forbidden`), or the input is wrong (`invalid`). */
export type Refusal = {
  ok: false;
  code: 'forbidden' | 'invalid';
  message: string;
  fieldErrors?: ConfigurationErrors;
};

type WithRun = { ok: true; run: BulkRun };
type WithMessage = { ok: true; message: string; run: BulkRun };

/**
 * The section a run belongs to: a template's own run (planned from the template) is the
 * template's; a configuration change, a one-off change and an undo are bulk changes.
 */
export function runSection(run: Pick<BulkRun, 'kind' | 'changes'>): 'templates' | 'bulk' {
  return run.kind === 'template' && !isOneOff(run) ? 'templates' : 'bulk';
}

/** A run's page, in its section (lib/runs/paths.ts). */
export function runPath(run: Pick<BulkRun, 'id' | 'kind' | 'changes'>): string {
  const base = runSection(run) === 'templates' ? TEMPLATE_RUNS_PATH : BULK_RUNS_PATH;
  return `${base}/${encodeURIComponent(run.id)}`;
}

const forbidden = (message: string): Refusal => ({ ok: false, code: 'forbidden', message });
const invalid = (message: string, fieldErrors?: ConfigurationErrors): Refusal => ({
  ok: false,
  code: 'invalid',
  message,
  ...(fieldErrors ? { fieldErrors } : {}),
});

/**
 * The selected thermostats as the member may change them, in selection order; or why not (and
 * then nothing is sent). One query for the whole selection.
 */
export async function checkTargets(
  member: Member,
  thermostatIds: unknown,
): Promise<{ ok: true; targets: Target[] } | Refusal> {
  if (!can(member, 'change_thermostat')) {
    return forbidden(refusal(member.role, 'change_thermostat'));
  }
  const parsed = selectionSchema.safeParse(thermostatIds);
  if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? 'Malformed selection.');
  const ids = parsed.data;
  const owned = new Map(
    (await listThermostats({ scope: member, thermostatIds: ids })).map((t) => [t.thermostatId, t]),
  );
  const foreign = ids.filter((id) => !owned.has(id));
  if (foreign.length > 0) {
    return forbidden(
      `${foreign.length} selected thermostat${foreign.length === 1 ? ' is' : 's are'} not in your portfolio${member.buildingIds === null ? '' : ' (your buildings)'}; nothing was sent.`,
    );
  }
  const targets = ids.map((id) => owned.get(id)).filter((t) => t !== undefined);
  const refused = targets.find((t) => !can(member, 'change_thermostat', t));
  if (refused) return forbidden(refusal(member.role, 'change_thermostat'));
  return {
    ok: true,
    targets: targets.map((t) => ({
      thermostatId: t.thermostatId,
      buildingId: t.buildingId,
      unitLabel: t.unitLabel,
    })),
  };
}

/**
 * The gap rule of a change to these thermostats: each one's own minimum heat–cool gap as its last
 * kept status says it, the service's default for one not read yet, and the largest of them kept.
 */
export async function gapRuleOf(
  member: Member,
  targets: readonly Target[],
): Promise<HeatCoolGapRule> {
  const gaps = new Map(
    (
      await listHeatCoolGaps({ scope: member, thermostatIds: targets.map((t) => t.thermostatId) })
    ).map((row) => [row.thermostatId, row.gap]),
  );
  return heatCoolGapRule(
    targets.map((t) => ({
      label: t.unitLabel || t.thermostatId,
      gap: gaps.get(t.thermostatId) ?? null,
    })),
  );
}

/**
 * The settings to change, checked as a bulk change (a blank field is left as it is), the ranges
 * against the selection's gap rule: every thermostat's own gap is kept.
 */
export function checkChanges(
  member: Member,
  values: ConfigurationInput,
  rule: HeatCoolGapRule,
): { ok: true; changes: SettingsChanges } | Refusal {
  const checked = validateConfiguration(values, {
    unit: member.temperatureUnit,
    heatCoolMinDelta: rule.gap,
    gapWords: heatCoolGapWords(rule, member.temperatureUnit),
  });
  if (!checked.ok) return invalid(CHECK_FIELDS, checked.fieldErrors);
  if (Object.keys(checked.changes).length === 0) {
    return invalid('Fill in at least one setting to change; blank fields are left as they are.');
  }
  return { ok: true, changes: checked.changes };
}

export type BulkReview = {
  count: number;
  /** The changes in words, in the member's unit. */
  changes: string[];
  /** The heat–cool gap the new ranges keep and why, when the change sets both ranges. */
  gap?: string;
  buildings: { name: string; count: number }[];
  requests: number;
};

type BulkInput = { member: Member; thermostatIds: unknown; values: ConfigurationInput };

/**
 * Every check of a bulk change, in order: the role, each thermostat's scope, then the settings
 * (their ranges against the gaps of the thermostats selected).
 */
async function checkBulkChange(
  input: BulkInput,
): Promise<
  { ok: true; targets: Target[]; changes: SettingsChanges; rule: HeatCoolGapRule } | Refusal
> {
  if (!can(input.member, 'change_thermostat')) {
    return forbidden(refusal(input.member.role, 'change_thermostat'));
  }
  const targets = await checkTargets(input.member, input.thermostatIds);
  if (!targets.ok) return targets;
  const rule = await gapRuleOf(input.member, targets.targets);
  const changes = checkChanges(input.member, input.values, rule);
  if (!changes.ok) return changes;
  return { ok: true, targets: targets.targets, changes: changes.changes, rule };
}

/** What a confirmation shows: how many, where, what, and how many requests it takes. */
export async function reviewBulkChange(
  input: BulkInput,
): Promise<{ ok: true; review: BulkReview; thermostatIds: string[] } | Refusal> {
  const checked = await checkBulkChange(input);
  if (!checked.ok) return checked;
  return {
    ok: true,
    thermostatIds: checked.targets.map((t) => t.thermostatId),
    review: await describeRun(input.member, checked.targets, checked.changes, checked.rule),
  };
}

async function describeRun(
  member: Member,
  targets: readonly Target[],
  changes: SettingsChanges,
  rule: HeatCoolGapRule,
): Promise<BulkReview> {
  const names = new Map(
    (await listBuildings({ scope: member })).map((b) => [b.buildingId, b.name]),
  );
  const perBuilding = new Map<string, number>();
  for (const t of targets) perBuilding.set(t.buildingId, (perBuilding.get(t.buildingId) ?? 0) + 1);
  const unit = member.temperatureUnit;
  return {
    count: targets.length,
    changes: changesInWords(changes, unit),
    ...(changes.heatRange && changes.coolRange
      ? {
          gap: `Each cool limit stays at least ${formatDelta(rule.gap, unit)} above its heat limit. ${heatCoolGapWords(rule, unit)}`,
        }
      : {}),
    buildings: [...perBuilding]
      .map(([buildingId, count]) => ({ name: names.get(buildingId) ?? buildingId, count }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    requests: Math.ceil(targets.length / MAX_PER_REQUEST),
  };
}

async function createAndQueue(
  member: Member,
  targets: readonly Target[],
  changes: SettingsChanges,
  retryOf: string | null,
): Promise<BulkRun> {
  const run = await createBulkRun({
    orgId: member.orgId,
    startedBy: member.userId,
    startedByName: member.name,
    changes,
    retryOf,
    items: targets,
  });
  await queueRun(run.id);
  return run;
}

/** Starts a confirmed bulk change: every check again, then the run and its job. */
export async function startBulkRun(input: BulkInput): Promise<WithRun | Refusal> {
  const checked = await checkBulkChange(input);
  if (!checked.ok) return checked;
  return {
    ok: true,
    run: await createAndQueue(input.member, checked.targets, checked.changes, null),
  };
}

/** The items of a run a retry sends again: those that failed or were not sent, in view. */
export async function listRetryable(member: Member, run: BulkRun): Promise<string[]> {
  const items = await listBulkRunItems({
    scope: member,
    run,
    outcomes: ['failed', 'unconfirmed', 'not_sent'],
    limit: MAX_PER_RUN,
  });
  return items.map((item) => item.thermostatId);
}

/** A member's request about one run, by its id (from the address, so not yet checked). */
type RunRequest = { member: Member; runId: string };

/** The run if the member sees it; otherwise the one answer, whether it exists or not. */
async function findRunFor(input: RunRequest): Promise<WithRun | Refusal> {
  const run = await findBulkRun({ scope: input.member, runId: input.runId });
  return run ? { ok: true, run } : forbidden(notYours('run'));
}

/**
 * A new run of the same change over the thermostats of a finished run that failed or were not
 * sent (those the member sees and may change). The first run stays as it ended, for the record.
 */
export async function retryBulkRun(input: RunRequest): Promise<WithRun | Refusal> {
  const found = await findRunFor(input);
  if (!found.ok) return found;
  const { run } = found;
  if (run.state !== 'done' && run.state !== 'cancelled') {
    return invalid('The run is still going; retry it once it has finished.');
  }
  const changes = storedChangesSchema.safeParse(run.changes);
  if (!changes.success) return invalid('This run’s change cannot be sent again.');
  const ids = await listRetryable(input.member, run);
  if (ids.length === 0) return invalid('Nothing in this run failed; nothing to retry.');
  const targets = await checkTargets(input.member, ids);
  if (!targets.ok) return targets;
  return {
    ok: true,
    run: await createAndQueue(input.member, targets.targets, changes.data, run.id),
  };
}

/** Who may stop a run: whoever started it, or a member who may change every building. */
export function mayCancel(member: Member, run: Pick<BulkRun, 'startedBy'>): boolean {
  if (!can(member, 'change_thermostat')) return false;
  return run.startedBy === member.userId || member.buildingIds === null;
}

/**
 * Cancels a run: at once when it is queued or no worker holds it; otherwise its worker stops
 * between requests (those in flight finish and are recorded) and the rest is cancelled.
 */
export async function cancelBulkRun(input: RunRequest): Promise<WithMessage | Refusal> {
  const found = await findRunFor(input);
  if (!found.ok) return found;
  const { run } = found;
  if (!mayCancel(input.member, run)) {
    return forbidden('Only whoever started this run, an owner or an admin can cancel it.');
  }
  const answer = await requestBulkRunCancel({
    orgId: input.member.orgId,
    runId: run.id,
    byName: input.member.name,
    finish: {
      rest: {
        outcome: 'cancelled',
        detail: CANCELLED_BEFORE_SENT,
        inFlightDetail: CANCELLED_IN_FLIGHT,
      },
      // Each kind of run is described as its own (lib/templates/run-words.ts).
      describe: runEntry,
    },
  });
  switch (answer) {
    case 'missing':
      return forbidden(notYours('run'));
    case 'finished':
      return invalid('The run had already finished; nothing was cancelled.');
    case 'cancelled':
      // Ended before a worker took it: no worker will forget a passcode held for it.
      forgetPasscode(run.id);
      return { ok: true, message: 'Cancelled. Nothing more will be sent.', run };
    case 'requested':
      return {
        ok: true,
        run,
        message: `Cancelling: the requests in flight finish and are recorded; the rest of the ${thermostatCount(run.total)} are not sent.`,
      };
  }
}
