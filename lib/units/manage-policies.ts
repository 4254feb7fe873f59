import 'server-only';
import { logActivity } from '@/lib/activity/sink';
import type { Member } from '@/lib/auth/store';
import { fieldErrorsOf, type FormState } from '@/lib/platform/forms';
import { z } from 'zod';
import { listTemplates } from '@/lib/templates/store';
import { STATE_WORDS, UNIT_STATES } from './lifecycle';
import {
  defaultTemplatesOf,
  policyFor,
  policyFormSchema,
  policyInputFromForm,
  policyInWords,
  type PolicyView,
} from './policies';
import { listPolicyRows, readMoveInLead, saveMoveInLead, savePolicyRows } from './policy-store';

/**
 * The occupancy policies as the pages show them and as members change them. Who may is checked
 * by the action first (`manage_policies`, and the building in the member's scope); here the form
 * is checked (each template one of the organisation's), saved, and logged.
 */

export type PolicyState = FormState;

/** The policy in force for the organisation (`buildingId` '') or a building, state by state. */
export async function policyView(input: {
  orgId: string;
  buildingId: string;
}): Promise<PolicyView> {
  const [rows, templates] = await Promise.all([
    listPolicyRows({ orgId: input.orgId }),
    listTemplates({ orgId: input.orgId }),
  ]);
  const defaults = defaultTemplatesOf(templates);
  return {
    templates: templates.map((template) => ({ id: template.id, name: template.name })),
    states: UNIT_STATES.map((state) => ({
      state,
      ...policyFor({
        state,
        buildingId: input.buildingId,
        rows,
        defaults,
      }),
    })),
  };
}

/** Saves the organisation's policy (`buildingId` '') or a building's, from its form. */
export async function savePolicyForm(input: {
  member: Member;
  buildingId: string;
  /** What the page calls whose policy it is ("the organisation", "Harbor View"). */
  whose: string;
  form: FormData;
}): Promise<PolicyState> {
  const { member } = input;
  const templates = await listTemplates({ orgId: member.orgId });
  const parsed = policyFormSchema(templates.map((template) => template.id)).safeParse(
    policyInputFromForm(input.form),
  );
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path.map(String).join('.');
      fieldErrors[field] = [...(fieldErrors[field] ?? []), issue.message];
    }
    // The choices as posted, so the form shows what the member chose beside its errors.
    const values = Object.fromEntries(
      [...input.form.entries()].flatMap(([name, value]) =>
        typeof value === 'string' && /^[a-z_]+\.(inherit|templateId|residentMode)$/.test(name)
          ? [[name, value.slice(0, 64)]]
          : [],
      ),
    );
    return {
      status: 'error',
      message: 'Check the highlighted fields; nothing was saved.',
      fieldErrors,
      values,
    };
  }
  await savePolicyRows({
    orgId: member.orgId,
    buildingId: input.buildingId,
    policies: parsed.data,
    byName: member.name,
  });
  const view = await policyView({ orgId: member.orgId, buildingId: input.buildingId });
  await logActivity({
    actor: { orgId: member.orgId, userId: member.userId, name: member.name },
    action: 'unit.policy_update',
    summary: `Changed the occupancy policy of ${input.whose}`,
    buildingId: input.buildingId || null,
    changes: Object.fromEntries(
      view.states.map((state) => [STATE_WORDS[state.state], policyInWords(state, view.templates)]),
    ),
  });
  return { status: 'success', message: 'Saved.' };
}

export type LeadState = FormState<'hours'>;

const leadSchema = z.object({
  hours: z
    .string('Enter a number of hours, such as 4 or 2.5.')
    .trim()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, 'Enter a number of hours, such as 4 or 2.5.')
    .transform(Number)
    .pipe(
      z
        .number()
        .max(48, 'Enter 0 to 48 hours.')
        .refine((hours) => Number.isInteger(hours * 4), 'Use quarters of an hour, such as 2.25.'),
    ),
});

const hoursWords = (minutes: number) => {
  const hours = minutes / 60;
  return `${hours} hour${hours === 1 ? '' : 's'}`;
};

/**
 * Saves how long before a scheduled move-in the unit's thermostat is put in its occupied comfort
 * (the organisation's; the action checks `manage_policies` first), moves the preparations still
 * to come, and logs it.
 */
export async function saveLeadForm(input: { member: Member; form: FormData }): Promise<LeadState> {
  const { member, form } = input;
  const value = form.get('hours');
  const raw = typeof value === 'string' ? value.trim() : '';
  const parsed = leadSchema.safeParse({ hours: typeof value === 'string' ? value : undefined });
  if (!parsed.success) {
    return {
      status: 'error',
      message: 'Check the highlighted field; nothing was saved.',
      fieldErrors: fieldErrorsOf<'hours'>(parsed.error),
      values: { hours: raw.slice(0, 16) },
    };
  }
  const minutes = Math.round(parsed.data.hours * 60);
  const was = await readMoveInLead({ orgId: member.orgId });
  if (minutes === was) return { status: 'success', message: 'Saved (unchanged).' };
  await saveMoveInLead({ orgId: member.orgId, minutes });
  await logActivity({
    actor: { orgId: member.orgId, userId: member.userId, name: member.name },
    action: 'unit.policy_update',
    summary: `Scheduled move-ins are prepared ${hoursWords(minutes)} ahead (was ${hoursWords(was)})`,
    changes: { moveInLead: { from: hoursWords(was), to: hoursWords(minutes) } },
  });
  return { status: 'success', message: 'Saved.' };
}
