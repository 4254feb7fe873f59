import 'server-only';
import { getDb } from '@/lib/db/client';
import { queueRun } from '@/lib/runs/sweep';
import { lastAppliedBy, listLatestRuns } from '@/lib/runs/store';
import type { ActivityAction } from '@/lib/activity/actions';
import { lastChangesOf } from '@/lib/activity/store';
import type { Member } from '@/lib/auth/store';
import type { FormState } from '@/lib/platform/forms';
import { STATE_WORDS } from './lifecycle';
import { defaultTemplatesOf, policyFor } from './policies';
import { listPolicyRows } from './policy-store';
import { listTemplates } from '@/lib/templates/store';
import { listUnitsInStates, type Unit } from './store';
import type { Scope } from '@/lib/db/scope';
import { occupancyRunStarter } from './turnover/start';

/**
 * Whether each unit's thermostat is in the settings its state's policy asks for, as its latest
 * occupancy run found: matching (the run read it back and every section matched), being put in
 * them, not in them (the run failed or stopped, and says why), or not known (no run since the
 * state began, or a policy that asks nothing). For the units list, a unit's page and Needs
 * attention.
 */

export type UnitSettings =
  | { status: 'matches'; runId: string; at: Date }
  /** It matched, but has been changed since (by hand, a bulk change, a template, an undo). */
  | { status: 'changed'; runId: string; at: Date; changedAt: Date; by: string | null }
  | { status: 'running'; runId: string }
  | { status: 'differs'; runId: string; at: Date | null; detail: string }
  | { status: 'unknown' };

/** Each unit's settings as its latest occupancy run for its present state found them. */
export async function settingsOfUnits(
  orgId: string,
  units: readonly Pick<Unit, 'id' | 'occupancy' | 'since' | 'thermostatId'>[],
): Promise<Map<string, UnitSettings>> {
  const thermostatIds = units.flatMap((unit) => (unit.thermostatId ? [unit.thermostatId] : []));
  const [latest, byHand, byRun] = await Promise.all([
    listLatestRuns({ orgId, kind: 'occupancy', key: 'unitId', subjects: units.map((u) => u.id) }),
    lastChangesOf({ orgId, thermostatIds, actions: THERMOSTAT_CHANGES }),
    lastAppliedBy({ orgId, thermostatIds, except: 'occupancy' }),
  ]);
  const settingsOf = (unit: (typeof units)[number]): UnitSettings => {
    const run = latest.get(unit.id);
    // A run for another state, or one the unit's thermostat no longer is, says nothing now.
    if (
      !run ||
      run.thermostatId !== unit.thermostatId ||
      run.changes.state !== unit.occupancy.state ||
      run.changes.prepare === true
    ) {
      return { status: 'unknown' };
    }
    if (run.state !== 'done' && run.state !== 'cancelled') {
      return { status: 'running', runId: run.runId };
    }
    if (run.outcome !== 'applied') {
      return { status: 'differs', runId: run.runId, at: run.finishedAt, detail: run.detail };
    }
    const at = run.finishedAt ?? run.createdAt;
    const hand = byHand.get(run.thermostatId);
    const other = byRun.get(run.thermostatId);
    const later = [
      hand && hand.at > at ? { at: hand.at, by: hand.actorName } : null,
      other && other > at ? { at: other, by: null } : null,
    ].filter((change) => change !== null);
    const last = later.sort((a, b) => b.at.getTime() - a.at.getTime())[0];
    return last
      ? { status: 'changed', runId: run.runId, at, changedAt: last.at, by: last.by }
      : { status: 'matches', runId: run.runId, at };
  };
  return new Map(units.map((unit) => [unit.id, settingsOf(unit)]));
}

/** The changes to a thermostat, one by one, that may take it out of its settings. */
const THERMOSTAT_CHANGES: ActivityAction[] = [
  'resident_mode.update',
  'schedule.update',
  'comfort_setting.create',
  'comfort_setting.update',
  'comfort_setting.delete',
  'configuration.update',
  'access_control.update',
  'alert_settings.update',
];

/** A unit's settings in a few words, for a list's cell. */
export function settingsWords(settings: UnitSettings, state: Unit['occupancy']['state']): string {
  const name = STATE_WORDS[state].toLowerCase();
  switch (settings.status) {
    case 'matches':
      return `Matches its ${name} settings`;
    case 'running':
      return `Being put in its ${name} settings`;
    case 'changed':
      return `Changed since its ${name} settings were checked`;
    case 'differs':
      return `Not in its ${name} settings`;
    case 'unknown':
      return 'Not checked';
  }
}

export type ApplySettingsState = FormState;

/**
 * Starts a run that puts the unit's thermostat in its present state's settings again (after a
 * failed turnover, or a thermostat changed by hand). The action opens the unit first
 * (`change_occupancy` in its building).
 */
export async function applyUnitSettings(input: {
  member: Member;
  unit: Unit;
}): Promise<ApplySettingsState & { runId?: string }> {
  const { member, unit } = input;
  const start = await occupancyRunStarter({
    orgId: member.orgId,
    unit,
    by: { userId: member.userId, name: member.name, temperatureUnit: member.temperatureUnit },
  });
  if (!start) return { status: 'error', message: `${unit.label} has no thermostat to set.` };
  const db = await getDb();
  const runId = await db.transaction((tx) => start(unit.occupancy, tx));
  if (!runId) {
    return {
      status: 'error',
      message: `The policy for a ${STATE_WORDS[unit.occupancy.state].toLowerCase()} unit asks nothing of the thermostat, so there is nothing to apply.`,
    };
  }
  await queueRun(runId);
  return { status: 'success', message: 'Started.', runId };
}

/**
 * The vacant and make-ready units in the scope whose thermostat is not known to be in its
 * settings (Needs attention), with why: its latest run could not put it there, it was changed
 * since, or no run has put it there (a thermostat that came into the unit later) where the
 * state's policy asks something of it. One being put there now is not listed.
 */
export async function unsettledVacantUnits(input: {
  scope: Scope;
  buildingId?: string;
}): Promise<{ unit: Unit; why: string; runId: string | null; since: Date | null }[]> {
  const vacant = await listUnitsInStates({ ...input, states: ['vacant', 'make_ready'] });
  if (vacant.length === 0) return [];
  const [settings, rows, templates] = await Promise.all([
    settingsOfUnits(input.scope.orgId, vacant),
    listPolicyRows({ orgId: input.scope.orgId }),
    listTemplates({ orgId: input.scope.orgId }),
  ]);
  const defaults = defaultTemplatesOf(templates);
  type Unsettled = { unit: Unit; why: string; runId: string | null; since: Date | null };
  return vacant.flatMap((unit): Unsettled[] => {
    const found = settings.get(unit.id) ?? { status: 'unknown' as const };
    const name = STATE_WORDS[unit.occupancy.state].toLowerCase();
    switch (found.status) {
      case 'differs':
        return [{ unit, why: found.detail, runId: found.runId, since: found.at }];
      case 'changed':
        return [
          {
            unit,
            why: `It was changed${found.by ? ` by ${found.by}` : ' by a run'} after its ${name} settings were checked; apply them again on the unit’s page.`,
            runId: found.runId,
            since: found.changedAt,
          },
        ];
      case 'unknown': {
        const policy = policyFor({
          state: unit.occupancy.state,
          buildingId: unit.buildingId,
          rows,
          defaults,
        });
        if (policy.templateId === null && policy.residentMode === 'unchanged') return [];
        return [
          {
            unit,
            why: `No run has put its thermostat in its ${name} settings (a thermostat that came into the unit later); apply them on the unit’s page.`,
            runId: null,
            since: unit.since,
          },
        ];
      }
      default:
        return [];
    }
  });
}
