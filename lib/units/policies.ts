import { z } from 'zod';
import { STATE_WORDS, UNIT_STATES, type UnitStateName } from './lifecycle';

/**
 * What each occupancy state means for a unit's thermostat: a template to apply (or none) and
 * resident mode on, off, or left as it is. The organisation sets one policy; a building may
 * override it state by state. Where neither says, the defaults hold: vacant and make-ready apply
 * the organisation's vacant template (a template named "Vacant unit", when it has one) with
 * resident mode off; occupied applies its occupied template ("Occupied unit", when it has one)
 * and turns resident mode on; notice given and a move-in scheduled change nothing (a move-in is
 * prepared from its schedule). Pure: the store reads the rows, this decides.
 */

export const RESIDENT_MODES = ['on', 'off', 'unchanged'] as const;
export type PolicyResidentMode = (typeof RESIDENT_MODES)[number];

export type StatePolicy = { templateId: string | null; residentMode: PolicyResidentMode };

/** Where a state's policy comes from, for the page to say. */
export type PolicySource = 'building' | 'organisation' | 'default';

export type PolicyRow = {
  buildingId: string;
  state: string;
  templateId: string | null;
  residentMode: string;
};

/**
 * The templates the defaults apply, found by name in the organisation's templates: "Vacant unit"
 * for a vacant or make-ready unit, "Occupied unit" for an occupied one (and a move-in's
 * preparation). Where it has none, the default applies no template.
 */
export const DEFAULT_TEMPLATE_NAMES = { vacant: 'Vacant unit', occupied: 'Occupied unit' } as const;

export type DefaultTemplates = { vacant: string | null; occupied: string | null };

/** The organisation's default templates' ids, by name (case aside). */
export function defaultTemplatesOf(
  templates: readonly { id: string; name: string }[],
): DefaultTemplates {
  const named = (name: string) =>
    templates.find((template) => template.name.toLowerCase() === name.toLowerCase())?.id ?? null;
  return {
    vacant: named(DEFAULT_TEMPLATE_NAMES.vacant),
    occupied: named(DEFAULT_TEMPLATE_NAMES.occupied),
  };
}

export function defaultPolicy(state: UnitStateName, defaults: DefaultTemplates): StatePolicy {
  switch (state) {
    case 'vacant':
    case 'make_ready':
      return { templateId: defaults.vacant, residentMode: 'off' };
    case 'occupied':
      return { templateId: defaults.occupied, residentMode: 'on' };
    default:
      return { templateId: null, residentMode: 'unchanged' };
  }
}

const isResidentMode = (value: string): value is PolicyResidentMode =>
  (RESIDENT_MODES as readonly string[]).includes(value);

/** The policy in force for a state in a building, and where it comes from. */
export function policyFor(input: {
  state: UnitStateName;
  buildingId: string;
  rows: readonly PolicyRow[];
  defaults: DefaultTemplates;
}): StatePolicy & { source: PolicySource } {
  const find = (buildingId: string) =>
    input.rows.find((row) => row.buildingId === buildingId && row.state === input.state);
  // The organisation's own policy (building '') has no building's to come first.
  const own = input.buildingId === '' ? undefined : find(input.buildingId);
  const organisation = find('');
  const row = own ?? organisation;
  if (row && isResidentMode(row.residentMode)) {
    return {
      templateId: row.templateId,
      residentMode: row.residentMode,
      source: own ? 'building' : 'organisation',
    };
  }
  return { ...defaultPolicy(input.state, input.defaults), source: 'default' };
}

export type PolicyView = {
  /** The organisation's templates, by name, to choose from. */
  templates: { id: string; name: string }[];
  /** Per state: the policy in force here and where it comes from. */
  states: (StatePolicy & { state: UnitStateName; source: PolicySource })[];
};

/** A state's policy in words ("Vacant unit template, resident mode off"). */
export function policyInWords(policy: StatePolicy, templates: PolicyView['templates']): string {
  const template = templates.find((candidate) => candidate.id === policy.templateId);
  const mode = RESIDENT_MODE_WORDS[policy.residentMode];
  return template ? `${template.name} template, ${mode}` : `No template, ${mode}`;
}

/**
 * The rows of a policy's form: each state's policy in force, and whether it follows the one above
 * (everything not from `own`: a building's form owns 'building', the organisation's 'organisation').
 */
export function policyFormRows(view: PolicyView, own: Exclude<PolicySource, 'default'>) {
  return view.states.map((row) => ({
    state: row.state,
    name: STATE_WORDS[row.state],
    templateId: row.templateId,
    residentMode: row.residentMode,
    inherited: row.source !== own,
  }));
}

/** Resident mode in a policy, as the page says it. */
export const RESIDENT_MODE_WORDS: Record<PolicyResidentMode, string> = {
  on: 'resident mode on',
  off: 'resident mode off (resets the thermostat)',
  unchanged: 'resident mode as it is',
};

/**
 * A policy form as posted: per state a template (`<state>.template`, '' for none) and resident
 * mode (`<state>.residentMode`); on a building's form, `inherit` for a state that follows the
 * organisation's.
 */
const statePolicySchema = (templateIds: readonly string[]) =>
  z
    .object({
      inherit: z.boolean(),
      templateId: z
        .string()
        .refine(
          (id) => id === '' || templateIds.includes(id),
          'Choose one of your templates, or none.',
        ),
      residentMode: z.string(),
    })
    .superRefine((value, context) => {
      if (!value.inherit && !isResidentMode(value.residentMode)) {
        context.addIssue({
          code: 'custom',
          path: ['residentMode'],
          message: 'Choose on, off or as it is.',
        });
      }
    })
    .transform((value): StatePolicy | 'inherit' =>
      value.inherit
        ? 'inherit'
        : {
            templateId: value.templateId === '' ? null : value.templateId,
            residentMode: value.residentMode as PolicyResidentMode,
          },
    );

export const policyFormSchema = (templateIds: readonly string[]) => {
  const one = statePolicySchema(templateIds);
  return z.object(
    Object.fromEntries(UNIT_STATES.map((state) => [state, one])) as Record<
      UnitStateName,
      typeof one
    >,
  );
};

/** A state's fields on the policy forms. */
export const policyField = (
  state: UnitStateName,
  part: 'inherit' | 'templateId' | 'residentMode',
) => `${state}.${part}`;

/** The posted form as the schema reads it. */
export function policyInputFromForm(form: FormData): Record<string, unknown> {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  return Object.fromEntries(
    UNIT_STATES.map((state) => [
      state,
      {
        inherit: text(policyField(state, 'inherit')) === 'on',
        templateId: text(policyField(state, 'templateId')),
        residentMode: text(policyField(state, 'residentMode')),
      },
    ]),
  );
}
