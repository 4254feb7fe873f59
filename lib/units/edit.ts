import 'server-only';
import { z } from 'zod';
import { logActivity } from '@/lib/activity/sink';
import type { Member } from '@/lib/auth/store';
import { fieldErrorsOf, type FormState } from '@/lib/platform/forms';
import { createUnit, updateUnit } from '@/lib/portfolio/units';
import type { Unit } from './store';

/**
 * A unit's label and external id (the property-management system's id for it), from its page or
 * a line of a CSV: checked here, written with the thermostat in it relabelled in the same
 * transaction, and logged. The action opens the unit (session, scope, `manage_building`) first.
 */

export type UnitField = 'label' | 'externalId';
export type UnitEditState = FormState<UnitField>;

export const unitLabelSchema = z
  .string('Enter the unit’s label.')
  .trim()
  .min(1, 'Enter the unit’s label.')
  .max(64, 'A unit’s label has at most 64 characters.');

/** Optional: '' is none. Unique in the organisation, which the store checks. */
export const externalIdSchema = z
  .string('Enter the external id as text.')
  .trim()
  .max(64, 'An external id has at most 64 characters.')
  .transform((value) => (value === '' ? null : value));

const unitFormSchema = z.object({ label: unitLabelSchema, externalId: externalIdSchema });

/**
 * Why an external id cannot be this unit's, in words. The unit that has it goes unnamed: it may
 * be in a building the member does not manage.
 */
export const externalIdTaken = (externalId: string) =>
  `External id ${externalId} is already another unit’s in your organisation.`;

/**
 * Writes a unit's new label and external id and logs what changed (`changed` false when both
 * were already so). `taken` carries the words for an external id another unit has.
 */
/** Who writes a unit: a member, or an API key (no user). */
type Writer = Pick<Member, 'orgId' | 'name'> & { userId: string | null };

export async function saveUnitFields(input: {
  member: Writer;
  unit: Unit;
  label: string;
  externalId: string | null;
}): Promise<
  { ok: true; changed: boolean } | { ok: false; reason: 'missing' } | { ok: false; taken: string }
> {
  const { member, unit, label, externalId } = input;
  if (label === unit.label && externalId === unit.externalId) return { ok: true, changed: false };
  const written = await updateUnit({ orgId: member.orgId, unitId: unit.id, label, externalId });
  if (!written.ok) {
    return written.reason === 'taken'
      ? { ok: false, taken: externalIdTaken(externalId ?? '') }
      : { ok: false, reason: 'missing' };
  }
  const changes: Record<string, unknown> = { unitId: unit.id };
  if (label !== unit.label) changes.label = { from: unit.label, to: label };
  if (externalId !== unit.externalId) {
    changes.externalId = { from: unit.externalId ?? 'none', to: externalId ?? 'none' };
  }
  await logActivity({
    actor: { orgId: member.orgId, userId: member.userId, name: member.name },
    action: 'unit.update',
    summary:
      label !== unit.label
        ? `Relabelled ${unit.label} as ${label}`
        : `Changed ${label}’s external id`,
    thermostatId: unit.thermostatId,
    buildingId: unit.buildingId,
    changes,
  });
  return { ok: true, changed: true };
}

/** The unit's form: its label and external id, saved and said as the form shows it. */
export async function editUnit(input: {
  member: Member;
  unit: Unit;
  form: FormData;
}): Promise<UnitEditState> {
  const { form } = input;
  const values = {
    label: String(form.get('label') ?? ''),
    externalId: String(form.get('externalId') ?? ''),
  };
  const parsed = unitFormSchema.safeParse({
    label: form.get('label') ?? '',
    externalId: form.get('externalId') ?? '',
  });
  if (!parsed.success) {
    return {
      status: 'error',
      message: 'Check the highlighted fields; nothing was changed.',
      fieldErrors: fieldErrorsOf<UnitField>(parsed.error),
      values,
    };
  }
  const { label, externalId } = parsed.data;
  const saved = await saveUnitFields({ ...input, label, externalId });
  if (!saved.ok) {
    if ('taken' in saved) {
      return {
        status: 'error',
        message: 'Check the highlighted fields; nothing was changed.',
        fieldErrors: { externalId: [saved.taken] },
        values,
      };
    }
    return { status: 'error', message: 'That unit is not in your portfolio.' };
  }
  return {
    status: 'success',
    message: saved.changed ? `Saved: ${label}.` : 'Nothing to change.',
    values: { label, externalId: externalId ?? '' },
  };
}

/**
 * Adds an empty unit to a building from its page's form (label, optional external id): a
 * thermostat added later with its label goes into it. The action opens the building
 * (`manage_building`) first.
 */
export async function addUnit(input: {
  member: Member;
  building: { buildingId: string; name: string };
  form: FormData;
}): Promise<UnitEditState> {
  const { member, building, form } = input;
  const values = {
    label: String(form.get('label') ?? ''),
    externalId: String(form.get('externalId') ?? ''),
  };
  const invalid = (fieldErrors: UnitEditState['fieldErrors']): UnitEditState => ({
    status: 'error',
    message: 'Check the highlighted fields; no unit was added.',
    fieldErrors,
    values,
  });
  const parsed = unitFormSchema.safeParse({
    label: form.get('label') ?? '',
    externalId: form.get('externalId') ?? '',
  });
  if (!parsed.success) return invalid(fieldErrorsOf<UnitField>(parsed.error));
  const { label, externalId } = parsed.data;
  const created = await createUnitAs({ member, building, label, externalId });
  if (!created.ok) {
    return 'taken' in created
      ? invalid({ externalId: [created.taken] })
      : { status: 'error', message: 'That building is not in your portfolio.' };
  }
  return {
    status: 'success',
    message: `Added ${label}, with no thermostat yet: one added to ${building.name} as “${label}” goes into it.`,
  };
}

/** Adds an empty unit to a building and logs it: the page's form and the API share this. */
export async function createUnitAs(input: {
  member: Writer;
  building: { buildingId: string; name: string };
  label: string;
  externalId: string | null;
}): Promise<
  { ok: true; unitId: string } | { ok: false; reason: 'missing' } | { ok: false; taken: string }
> {
  const { member, building, label, externalId } = input;
  const created = await createUnit({
    orgId: member.orgId,
    buildingId: building.buildingId,
    label,
    externalId,
  });
  if (!created.ok) {
    return created.reason === 'taken'
      ? { ok: false, taken: externalIdTaken(externalId ?? '') }
      : { ok: false, reason: 'missing' };
  }
  await logActivity({
    actor: { orgId: member.orgId, userId: member.userId, name: member.name },
    action: 'unit.create',
    summary: `Added ${label} to ${building.name}`,
    buildingId: building.buildingId,
    changes: { unitId: created.unitId, label, externalId: externalId ?? 'none' },
  });
  return { ok: true, unitId: created.unitId };
}
