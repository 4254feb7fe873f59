import 'server-only';
import { createSteppedRun, supersedeRuns, type Tx } from '@/lib/runs/store';
import { listTemplates } from '@/lib/templates/store';
import type { UnitState } from '../lifecycle';
import { STATE_WORDS } from '../lifecycle';
import { defaultTemplatesOf, policyFor } from '../policies';
import { listPolicyRows } from '../policy-store';
import type { Unit } from '../store';
import { asksAnything, type OccupancyChanges } from './steps';

/**
 * Starting the run that puts a unit's thermostat in its new state's settings: the policies and
 * templates are read before the unit is locked, and the run is created inside the transaction
 * that changes the state (lib/units/store.ts `applyToUnit`), so a state change and its run exist
 * together or not at all, and a replayed event, which changes nothing, starts nothing.
 */

export type Starter = { userId: string | null; name: string; temperatureUnit: 'F' | 'C' };

/** The function `applyToUnit` calls with the new state; null when the unit has no thermostat. */
export async function occupancyRunStarter(input: {
  orgId: string;
  unit: Pick<Unit, 'id' | 'label' | 'buildingId' | 'thermostatId'>;
  by: Starter;
  /**
   * `prepare`: a scheduled move-in's preparation, the state's template only (resident mode is
   * turned on at the move-in itself).
   */
  purpose?: 'state' | 'prepare';
}): Promise<((state: UnitState, tx: Tx) => Promise<string | null>) | undefined> {
  const prepare = input.purpose === 'prepare';
  const { unit, by } = input;
  const { thermostatId } = unit;
  if (!thermostatId) return undefined;
  const [rows, templates] = await Promise.all([
    listPolicyRows({ orgId: input.orgId }),
    listTemplates({ orgId: input.orgId }),
  ]);
  const defaults = defaultTemplatesOf(templates);
  return async (state, tx) => {
    const policy = policyFor({
      state: state.state,
      buildingId: unit.buildingId,
      rows,
      defaults,
    });
    const template = templates.find((candidate) => candidate.id === policy.templateId);
    const changes: OccupancyChanges = {
      unitId: unit.id,
      unitLabel: unit.label,
      state: state.state,
      template: template?.template ?? null,
      residentMode:
        prepare || policy.residentMode === 'unchanged' ? null : policy.residentMode === 'on',
      unit: by.temperatureUnit,
      ...(prepare ? { prepare: true } : {}),
    };
    if (!asksAnything(changes)) return null;
    // A run for an earlier state that has sent nothing yet stops: this one takes its place. One
    // under way finishes first (this one waits for it).
    await supersedeRuns(tx, {
      orgId: input.orgId,
      kind: 'occupancy',
      key: 'unitId',
      subject: unit.id,
      byName: by.name,
    });
    const run = await createSteppedRun(
      {
        orgId: input.orgId,
        startedBy: by.userId,
        startedByName: by.name,
        kind: 'occupancy',
        title: prepare
          ? `${unit.label}: ${STATE_WORDS[state.state].toLowerCase()} comfort ahead of the move-in`
          : `${unit.label}: ${STATE_WORDS[state.state].toLowerCase()} settings`,
        changes,
        item: { thermostatId, buildingId: unit.buildingId },
      },
      tx,
    );
    return run.id;
  };
}
