import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import {
  createTemplate,
  deleteTemplate,
  findTemplate,
  listTemplates,
  updateTemplate,
} from '@/lib/templates/store';
import {
  INCLUDE_FIELDS,
  lockField,
  parseTemplateForm,
  templateFormValues,
} from '@/lib/templates/form';
import { PASSCODE_REFUSED, type Template } from '@/lib/templates/schema';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, createOrganizationWithOwner, inviteAndAccept } from '../support/members';

/**
 * The template library on PGlite and PostgreSQL: every read and write scoped to the organisation;
 * another organisation never sees a template; a name taken (ignoring case) is an answer; only
 * owners and admins write, checked in the data layer; a template saved from the form in °C or °F
 * reads back into the same form; a passcode never gets in.
 */

const VACANT: Template = {
  name: 'Vacant unit',
  comfortSettings: [
    { name: 'Away', desiredHeat: 55.5, desiredCool: 85.13, fanHeat: 'auto', fanCool: 'auto' },
  ],
  configuration: { heatRange: { min: 50, max: 70.7 }, holdAction: '2hour' },
  accessControl: {
    enabled: true,
    settings: { temperature: true, systemMode: true, schedule: true, vacation: true, other: true },
  },
};

function post(values: Record<string, string>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) {
    if (value === '' && /^include|Enabled$|^lock\.|^removeSchedule$/.test(key)) continue;
    form.append(key, value);
  }
  return form;
}

describe.each(databaseTargets)('the template library on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let owner: Member;
  let admin: Member;
  let otherOwner: Member;

  beforeAll(async () => {
    handle = await useDatabase(await target());
    owner = await createFirstOwner('owner@templates.example', 'Template Property');
    admin = await inviteAndAccept(owner.orgId, 'admin@templates.example', 'admin');
    otherOwner = await createOrganizationWithOwner('owner@other.example', 'Other Property');
  });

  afterAll(async () => {
    await handle.close();
  });

  it('creates, lists, finds, updates and deletes within the organisation', async () => {
    const created = await createTemplate({ member: owner, template: VACANT });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.template).toMatchObject({
      name: 'Vacant unit',
      orgId: owner.orgId,
      template: VACANT,
      updatedByName: owner.name,
    });
    const id = created.template.id;
    expect((await listTemplates({ orgId: owner.orgId })).map((t) => t.id)).toContain(id);
    expect(await findTemplate({ orgId: owner.orgId, templateId: id })).toMatchObject({
      template: VACANT,
    });

    const renamed: Template = { ...VACANT, name: 'Vacant unit (winter)', alerts: undefined };
    const updated = await updateTemplate({ member: admin, templateId: id, template: renamed });
    expect(updated.ok).toBe(true);
    if (!updated.ok) return;
    expect(updated.before.template).toEqual(VACANT);
    expect(updated.template).toMatchObject({
      name: 'Vacant unit (winter)',
      updatedByName: admin.name,
    });
    expect(updated.template.updatedAt.getTime()).toBeGreaterThanOrEqual(
      created.template.updatedAt.getTime(),
    );

    const deleted = await deleteTemplate({ member: admin, templateId: id });
    expect(deleted).toMatchObject({ ok: true, template: { name: 'Vacant unit (winter)' } });
    expect(await findTemplate({ orgId: owner.orgId, templateId: id })).toBeNull();
    expect(await deleteTemplate({ member: admin, templateId: id })).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
  });

  it('another organisation never sees, changes or deletes it', async () => {
    const created = await createTemplate({
      member: owner,
      template: { ...VACANT, name: 'Ours only' },
    });
    if (!created.ok) throw new Error(created.message);
    const id = created.template.id;
    expect(await findTemplate({ orgId: otherOwner.orgId, templateId: id })).toBeNull();
    expect((await listTemplates({ orgId: otherOwner.orgId })).map((t) => t.id)).not.toContain(id);
    expect(
      await updateTemplate({ member: otherOwner, templateId: id, template: VACANT }),
    ).toMatchObject({ ok: false, reason: 'not_found' });
    expect(await deleteTemplate({ member: otherOwner, templateId: id })).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
    expect(await findTemplate({ orgId: owner.orgId, templateId: id })).toMatchObject({
      name: 'Ours only',
    });
    // The same name in another organisation is its own.
    const theirs = await createTemplate({
      member: otherOwner,
      template: { ...VACANT, name: 'Ours only' },
    });
    expect(theirs.ok).toBe(true);
    // Ids that are not ids at all are simply not found.
    for (const forged of ['nope', '', 42, null, { id }, `${id}x`]) {
      expect(await findTemplate({ orgId: owner.orgId, templateId: forged })).toBeNull();
    }
  });

  it('reports a name already used, ignoring case, on create and on rename', async () => {
    const first = await createTemplate({ member: owner, template: { ...VACANT, name: 'Lobby' } });
    const second = await createTemplate({ member: owner, template: { ...VACANT, name: 'Gym' } });
    if (!first.ok || !second.ok) throw new Error('not created');
    const again = await createTemplate({ member: admin, template: { ...VACANT, name: 'LOBBY' } });
    expect(again).toMatchObject({
      ok: false,
      reason: 'duplicate_name',
      fieldErrors: { name: [expect.stringMatching(/already exists/)] },
    });
    const clash = await updateTemplate({
      member: owner,
      templateId: second.template.id,
      template: { ...VACANT, name: ' lobby ' },
    });
    expect(clash).toMatchObject({ ok: false, reason: 'duplicate_name' });
    expect(
      await findTemplate({ orgId: owner.orgId, templateId: second.template.id }),
    ).toMatchObject({ name: 'Gym' });
    // Its own name, in another case, is fine.
    const recased = await updateTemplate({
      member: owner,
      templateId: first.template.id,
      template: { ...VACANT, name: 'LOBBY' },
    });
    expect(recased).toMatchObject({ ok: true, template: { name: 'LOBBY' } });
  });

  it.each(['C', 'F'] as const)(
    'saves from the form in °%s and reads back into the same form',
    async (unit) => {
      const { values } = templateFormValues({ ...VACANT, name: `Round trip ${unit}` }, unit);
      const parsed = parseTemplateForm(post(values), { unit, source: { kind: 'new' } });
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
      const created = await createTemplate({ member: admin, template: parsed.template });
      if (!created.ok) throw new Error(created.message);
      const stored = await findTemplate({ orgId: admin.orgId, templateId: created.template.id });
      if (!stored) throw new Error('not stored');
      expect(stored.template).toEqual({ ...VACANT, name: `Round trip ${unit}` });
      // Into the form again, and saved unchanged as an edit: the same °F to the hundredth.
      const again = templateFormValues(stored.template, unit).values;
      expect(again).toEqual(values);
      const edited = parseTemplateForm(post(again), {
        unit,
        source: { kind: 'edit', current: stored.template },
      });
      expect(edited).toEqual({ ok: true, template: stored.template });
    },
  );

  it('refuses a posted passcode, and the store refuses one that gets past a form', async () => {
    const { values } = templateFormValues({ ...VACANT, name: 'With passcode' }, 'F');
    const form = post({
      ...values,
      [INCLUDE_FIELDS.accessControl]: 'on',
      [lockField('temperature')]: 'on',
      passcode: '1234',
    });
    expect(parseTemplateForm(form, { unit: 'F', source: { kind: 'new' } })).toEqual({
      ok: false,
      fieldErrors: { form: [PASSCODE_REFUSED] },
    });
    const smuggled = {
      ...VACANT,
      name: 'Smuggled',
      accessControl: { ...VACANT.accessControl, passcode: '1234' },
    } as unknown as Template;
    await expect(createTemplate({ member: owner, template: smuggled })).rejects.toThrow(
      /never holds a passcode/,
    );
    const names = (await listTemplates({ orgId: owner.orgId })).map((t) => t.name);
    expect(names).not.toContain('With passcode');
    expect(names).not.toContain('Smuggled');
  });
});
