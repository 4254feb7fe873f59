import { changedFields } from '@/lib/comfort/schemas';
import type { ComfortSettingFields } from '@/lib/service/resources';
import type { ComfortSetting } from '@/lib/service/schemas';
import { nameKey, type TemplateComfortSetting } from './schema';

/**
 * A template's comfort settings on one thermostat, matched by name. Refs belong to each thermostat
 * (`smart1` is "Guest Stay" on one and "Vacant Unit" on another), so only the name can say which
 * setting a template means. Names match trimmed and ignoring case: exactly the rule by which the
 * service keeps a thermostat's names unique, so at most one setting can match.
 *
 * A setting with the template's values under another name is not a match: to the manager it is a
 * different setting (someone renamed it, or it means something else there), so the template's
 * is created beside it and the renamed one is left alone, never renamed back or deleted.
 */

/** Which comfort setting a schedule block names: one the thermostat has, or one yet to be created. */
export type ComfortSettingTarget = { ref: string } | { newName: string };

export type ComfortSettingChange =
  | { kind: 'unchanged'; name: string; ref: string }
  | {
      kind: 'update';
      name: string;
      ref: string;
      before: ComfortSetting;
      /** Only the fields that differ (a different spelling of the name counts). */
      changes: Partial<ComfortSettingFields>;
    }
  | { kind: 'create'; name: string; fields: ComfortSettingFields };

export type ComfortMatch = {
  /** One entry per template setting, in the template's order. */
  changes: ComfortSettingChange[];
  /** By name key: every setting the schedule may name, the thermostat's own included. */
  targets: ReadonlyMap<string, ComfortSettingTarget>;
};

export function matchComfortSettings(
  template: readonly TemplateComfortSetting[],
  current: readonly ComfortSetting[],
): ComfortMatch {
  const byName = new Map(current.map((setting) => [nameKey(setting.name), setting]));
  const targets = new Map<string, ComfortSettingTarget>(
    current.map((setting) => [nameKey(setting.name), { ref: setting.comfortSettingRef }]),
  );
  const changes = template.map((wanted): ComfortSettingChange => {
    const fields = fieldsOf(wanted);
    const existing = byName.get(nameKey(wanted.name));
    if (!existing) {
      targets.set(nameKey(wanted.name), { newName: wanted.name });
      return { kind: 'create', name: wanted.name, fields };
    }
    // The edit form's own rule for what an edit sends: setpoints are two-decimal °F on both sides.
    const differing = changedFields(existing, fields);
    const ref = existing.comfortSettingRef;
    return Object.keys(differing).length === 0
      ? { kind: 'unchanged', name: wanted.name, ref }
      : { kind: 'update', name: wanted.name, ref, before: existing, changes: differing };
  });
  return { changes, targets };
}

/** The service ref a target means at apply time: `created` holds each new setting's ref by name key. */
export function resolveComfortTarget(
  target: ComfortSettingTarget,
  created: ReadonlyMap<string, string>,
): string {
  if ('ref' in target) return target.ref;
  const ref = created.get(nameKey(target.newName));
  if (ref === undefined) {
    throw new Error(`comfort setting "${target.newName}" was to be created before the schedule`);
  }
  return ref;
}

function fieldsOf(setting: TemplateComfortSetting): ComfortSettingFields {
  return {
    name: setting.name,
    desiredHeat: setting.desiredHeat,
    desiredCool: setting.desiredCool,
    fanHeat: setting.fanHeat,
    fanCool: setting.fanCool,
  };
}
