import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/auth/store';
import type { DatabaseHandle } from '@/lib/db/client';

// The actions ask the session who is signed in: whoever the test says. A redirect ends an
// action, as in Next, with where it went.
vi.mock('@/lib/auth/session', () =>
  import('../support/session').then((mocked) => mocked.sessionModule),
);
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
vi.mock('next/navigation', () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error('redirect'), { to });
  },
}));
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-template-actions-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
});

const { session } = await import('../support/session');
const { useDatabase } = await import('../support/database');
const { createFirstOwner, inviteAndAccept } = await import('../support/members');
const { redirectedWith, redirectOf } = await import('../support/notice');
const { refusal } = await import('@/lib/auth/permissions');
const { initialFormState } = await import('@/lib/platform/forms');
const { createTemplate, findTemplate, listTemplates } = await import('@/lib/templates/store');
const { createTemplateAction, deleteTemplateAction, updateTemplateAction } = await import(
  '@/app/(app)/templates/actions'
);

/**
 * Who may write the template library is checked by its actions (`openAction('manage_templates')`),
 * before the form is read or anything is written; the library's store checks no role.
 */
describe('template actions', () => {
  let handle: DatabaseHandle;
  let owner: Member;
  let manager: Member;
  let viewer: Member;

  beforeAll(async () => {
    handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
    owner = await createFirstOwner('owner@template-actions.example', 'Template Property');
    manager = await inviteAndAccept(
      owner.orgId,
      'bm@template-actions.example',
      'building_manager',
      [],
    );
    viewer = await inviteAndAccept(owner.orgId, 'viewer@template-actions.example', 'viewer');
  });
  afterAll(async () => {
    session.member = null;
    await handle.close();
  });

  it('refuses a viewer and a building manager before anything is written', async () => {
    const created = await createTemplate({
      member: owner,
      template: { name: 'Kept', configuration: { fanMinimumOnTime: 10 } },
    });
    if (!created.ok) throw new Error(created.message);
    const id = created.template.id;
    // A form that would be saved, were the member allowed to.
    const form = new FormData();
    form.set('name', 'Taken');
    for (const member of [viewer, manager]) {
      session.member = member;
      const words = refusal(member.role, 'manage_templates');
      expect(words).toMatch(/cannot create, change or delete templates/);
      expect(await createTemplateAction(initialFormState, form)).toMatchObject({
        status: 'error',
        message: words,
      });
      expect(await updateTemplateAction(id, initialFormState, form)).toMatchObject({
        status: 'error',
        message: words,
      });
      const to = await redirectOf(deleteTemplateAction(id, new FormData()));
      expect(redirectedWith(to, member)).toEqual({
        to: `/templates/${id}`,
        notice: { key: 'notAllowed', text: words },
      });
    }
    expect((await listTemplates({ orgId: owner.orgId })).map((t) => t.name)).toEqual(['Kept']);
    // Everyone may read.
    expect(await findTemplate({ orgId: viewer.orgId, templateId: id })).toMatchObject({
      name: 'Kept',
    });
  });
});
