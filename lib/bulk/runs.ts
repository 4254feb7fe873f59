import 'server-only';
import { z } from 'zod';
import { CHECK_FIELDS } from '@/lib/platform/forms';
import { can, refusal } from '@/lib/auth/permissions';
import type { Member } from '@/lib/auth/store';
import { type BulkRun, createBulkRun, listBulkRunItems } from '@/lib/runs/store';
import { listHeatCoolGaps } from '@/lib/comfort/heat-cool-gaps-store';
import { listBuildings } from '@/lib/portfolio/store';
import {
  type ConfigurationInput,
  FAN_MINIMUM_ON_TIME,
  type HeatCoolGapRule,
  heatCoolGapRule,
  heatCoolGapWords,
  validateConfiguration,
} from '@/lib/settings/configuration';
import { queueRun } from '@/lib/runs/sweep';
import type { SettingsChanges } from '@/lib/service/resources';
import { DEVICE_LIMITS, HOLD_ACTIONS } from '@/lib/service/schemas';
import { formatDelta } from '@/lib/platform/units';
import { MAX_PER_REQUEST, MAX_PER_RUN } from '@/lib/runs/steps';
import {
  checkTargets,
  findRunFor,
  forbidden,
  invalid,
  type Refusal,
  type RunRequest,
  type Target,
  type RunActor,
  startedByOf,
  type WithRun,
} from '@/lib/runs/requests';
import { changesInWords } from '@/lib/runs/words';

/**
 * Reviewing, starting and retrying a bulk configuration change for a member. Every check happens
 * before anything is written: the member's role and each selected thermostat (`checkTargets`,
 * lib/runs/requests.ts), and the changes themselves. Only then is the run created and its job
 * queued.
 */

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
  member: RunActor,
  targets: readonly Target[],
  changes: SettingsChanges,
  retryOf: string | null,
): Promise<BulkRun> {
  const run = await createBulkRun({
    orgId: member.orgId,
    startedBy: startedByOf(member),
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
export async function listRetryable(member: RunActor, run: BulkRun): Promise<string[]> {
  const items = await listBulkRunItems({
    scope: member,
    run,
    outcomes: ['failed', 'unconfirmed', 'not_sent'],
    limit: MAX_PER_RUN,
  });
  return items.map((item) => item.thermostatId);
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
