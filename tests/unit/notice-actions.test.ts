import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/auth/store';
import type { DatabaseHandle } from '@/lib/db/client';

// The actions and the connect route ask the session who is signed in: whoever the test says. A
// redirect ends an action, as in Next, with where it went.
vi.mock('@/lib/auth/session', () =>
  import('../support/session').then((mocked) => mocked.sessionModule),
);
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
vi.mock('next/navigation', () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error('redirect'), { to });
  },
}));
const APP = 'https://setpoint.example.com';
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-notice-actions-')),
  NEXTAUTH_URL: APP,
});

const { session } = await import('../support/session');
const { useDatabase } = await import('../support/database');
const { createFirstOwner, createOrganizationWithOwner, inviteAndAccept } = await import(
  '../support/members'
);
const { redirectedWith, redirectOf } = await import('../support/notice');
const { createGroup } = await import('@/lib/groups/store');
const { refusal } = await import('@/lib/auth/permissions');
const { notYours } = await import('@/lib/access/not-yours');
const { deleteGroupAction } = await import('@/app/(app)/groups/actions');
const { deleteTemplateAction } = await import('@/app/(app)/templates/actions');
const { POST: connect } = await import('@/app/api/connect/route');

/**
 * From an action to the page it redirects to, as that page reads the address: a member's page
 * says what the action did to that member alone, a refused action says why in the one "not
 * allowed" notice, and a route handler's redirect carries its notice the same way. (The sign-in
 * page's, made for anyone, are in the tests of its actions: own-account-actions, password-reset,
 * join-with-sso.)
 */
describe('notices from actions to their pages', () => {
  let handle: DatabaseHandle;
  let owner: Member;
  let viewer: Member;
  let stranger: Member;

  beforeAll(async () => {
    handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
    owner = await createFirstOwner();
    viewer = await inviteAndAccept(owner.orgId, 'viewer@example.com', 'viewer');
    stranger = await createOrganizationWithOwner('owner@northwind.example');
  });
  afterAll(async () => {
    session.member = null;
    await handle.close();
  });

  const as = (member: Member) => {
    session.member = member;
  };

  it('a deleted group is named on the list for the member who deleted it, and no one else', async () => {
    const group = await createGroup({
      scope: owner,
      name: 'Lobby <b>units</b>',
      filter: null,
      updatedByName: 'Owner',
    });
    if (!group) throw new Error('name taken');
    as(owner);
    const to = await redirectOf(deleteGroupAction(group.id));
    expect(redirectedWith(to, owner)).toEqual({
      to: '/groups',
      notice: { key: 'groupDeleted', text: 'Deleted the group “Lobby <b>units</b>”.' },
    });
    // The same link opened by anyone else (of the organisation or not) says nothing.
    expect(redirectedWith(to, viewer).notice).toBeNull();
    expect(redirectedWith(to, stranger).notice).toBeNull();
    // And the old way of saying it is no longer read.
    expect(redirectedWith('/groups?deleted=Lobby', owner).notice).toBeNull();
  });

  it('a refused delete says why, in the refusal every action gives', async () => {
    const group = await createGroup({
      scope: owner,
      name: 'Annex',
      filter: null,
      updatedByName: 'Owner',
    });
    if (!group) throw new Error('name taken');
    as(viewer);
    const to = await redirectOf(deleteGroupAction(group.id));
    expect(redirectedWith(to, viewer)).toEqual({
      to: `/groups/${group.id}`,
      notice: { key: 'notAllowed', text: refusal('viewer', 'manage_groups') },
    });

    as(owner);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(
      redirectedWith(await redirectOf(deleteTemplateAction(missing, new FormData())), owner),
    ).toEqual({
      to: '/templates',
      notice: { key: 'notAllowed', text: notYours('template') },
    });
  });

  it('a route handler’s redirect carries its notice too: a refused connect', async () => {
    as(viewer);
    const response = await connect(
      new NextRequest(`${APP}/api/connect`, {
        method: 'POST',
        headers: { origin: APP },
        body: new URLSearchParams({ returnTo: '/connection' }),
      }),
    );
    expect(response.status).toBe(303);
    const location = response.headers.get('location') ?? '';
    expect(location.startsWith(`${APP}/connection?notice=`)).toBe(true);
    expect(redirectedWith(location, viewer)).toEqual({
      to: '/connection',
      notice: { key: 'notAllowed', text: refusal('viewer', 'manage_connection') },
    });
  });
});
