import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { INVITATION_PROBLEMS } from '@/lib/members/invitations';
import { useDatabase } from '../support/database';
import { createFirstOwner } from '../support/members';
import { redirectedWith, redirectOf } from '../support/notice';

// The action sets a cookie and redirects: here a cookie jar and a redirect that ends the action.
const jar = vi.hoisted(() => new Map<string, { value: string; path?: string }>());
vi.mock('next/headers', () => ({
  cookies: async () => ({
    get: (name: string) => jar.get(name),
    set: (cookie: { name: string; value: string; path?: string }) => jar.set(cookie.name, cookie),
  }),
}));
vi.mock('next/navigation', () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error('redirect'), { to });
  },
}));
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-sso-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
});
const { joinWithSsoAction } = await import('@/app/(public)/invite/[token]/actions');
const { chosenSsoInvitation } = await import('@/lib/auth/sso-invitation');
const { hashInvitationToken } = await import('@/lib/members/invitations');
const { createInvitation } = await import('@/lib/members/store');

/**
 * Joining with company SSO from an invitation's page: the action is public (the link is the
 * credential), so a forged or spent token sets nothing; a good one leaves, sealed, only its
 * token's hash for the SSO callback.
 */
describe('joining with company SSO from an invitation', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  });
  afterAll(async () => {
    await handle.close();
  });

  it('refuses a forged token and remembers nothing', async () => {
    jar.clear();
    const forged = randomBytes(32).toString('base64url');
    expect(await joinWithSsoAction(forged, { status: 'idle' }, new FormData())).toEqual({
      status: 'error',
      message: INVITATION_PROBLEMS.unknown,
    });
    expect(jar.size).toBe(0);
  });

  it('remembers a good invitation by its hash, sealed, and sends the person to sign in', async () => {
    jar.clear();
    const owner = await createFirstOwner();
    const token = randomBytes(32).toString('base64url');
    await createInvitation({
      orgId: owner.orgId,
      email: 'pat@example.com',
      role: 'viewer',
      buildingIds: [],
      tokenHash: hashInvitationToken(token),
      invitedBy: null,
      invitedByName: 'Test',
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const to = await redirectOf(joinWithSsoAction(token, { status: 'idle' }, new FormData()));
    expect(redirectedWith(to, 'anyone')).toEqual({
      to: '/sign-in',
      notice: {
        key: 'ssoInvitation',
        text: 'Sign in with company SSO below: you join the organisation that invited you.',
      },
    });
    const cookie = jar.get('setpoint.sso-invitation');
    expect(cookie?.path).toBe('/api/auth');
    expect(cookie?.value).not.toContain(token);
    expect(cookie?.value).not.toContain(hashInvitationToken(token));
    expect(await chosenSsoInvitation()).toBe(hashInvitationToken(token));
  });
});
