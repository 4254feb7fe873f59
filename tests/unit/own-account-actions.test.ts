import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { findSubscription } from '@/lib/notifications/store';
import type { Member } from '@/lib/auth/store';
import { findMembership } from '@/lib/members/store';
import { ensureBuilding } from '@/lib/portfolio/store';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, inviteAndAccept, signedIn } from '../support/members';
import { redirectedWith, redirectOf } from '../support/notice';

// The actions ask the session who is signed in; here, whoever the test says. What they would
// revalidate or redirect to is Next's business, not this test's: a redirect still ends the action.
vi.mock('@/lib/auth/session', () =>
  import('../support/session').then((mocked) => mocked.sessionModule),
);
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
vi.mock('next/navigation', () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error('redirect'), { to });
  },
}));
// Leaving signs its notice for the sign-in page (lib/platform/notice.ts) with the app's secret.
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-own-account-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
});
const { session } = await import('../support/session');
const { saveMySubscription } = await import('@/app/(app)/notifications/actions');
const { leaveOrganization } = await import('@/app/(app)/members/actions');
const { savePreferencesAction } = await import('@/app/(app)/account/actions');

/**
 * What a member does to their own account (their email settings, leaving the organisation) every
 * member may do, whatever their role: even a building manager who has no buildings yet, as
 * everyone who joins by a company SSO domain whose default role is building manager does.
 */
describe.each(databaseTargets)('a member’s own account on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let manager: Member;

  beforeAll(async () => {
    handle = await useDatabase(await target());
    const owner = await createFirstOwner('owner@own.example', 'Own Property');
    manager = await inviteAndAccept(owner.orgId, 'new@own.example', 'building_manager', []);
    expect(manager.buildingIds).toEqual([]);
    session.member = manager;
  });
  afterAll(async () => {
    session.member = null;
    await handle.close();
  });

  it('lets a building manager with no buildings choose their email', async () => {
    const form = new FormData();
    form.set('mode', 'off');
    expect(await saveMySubscription({ status: 'idle' }, form)).toMatchObject({
      status: 'success',
      message: 'Saved. You are not emailed.',
    });
  });

  it('reads times in the zone most buildings are in until a member chooses one, then in theirs', async () => {
    expect(manager).toMatchObject({ timeZone: 'UTC', timeZoneChosen: false });
    for (const [buildingId, timeZone] of [
      ['b00000000000000000000001', 'America/Chicago'],
      ['b00000000000000000000002', 'America/Chicago'],
      ['b00000000000000000000003', 'America/Denver'],
    ] as const) {
      await ensureBuilding({ orgId: manager.orgId, buildingId, name: buildingId, timeZone });
    }
    expect(await signedIn(manager.userId)).toMatchObject({
      timeZone: 'America/Chicago',
      timeZoneChosen: false,
    });

    const form = new FormData();
    form.set('timeZone', 'Mars/Olympus_Mons');
    form.set('temperatureUnit', 'K');
    const refused = await savePreferencesAction({ status: 'idle' }, form);
    expect(refused).toMatchObject({
      status: 'error',
      fieldErrors: {
        timeZone: ['Choose a time zone from the list.'],
        temperatureUnit: ['Choose °F or °C.'],
      },
      values: { timeZone: 'Mars/Olympus_Mons' },
    });
    expect(await signedIn(manager.userId)).toMatchObject({ timeZoneChosen: false });

    form.set('timeZone', 'Europe/Berlin');
    form.set('temperatureUnit', 'C');
    expect(await savePreferencesAction({ status: 'idle' }, form)).toMatchObject({
      status: 'success',
    });
    expect(await signedIn(manager.userId)).toMatchObject({
      timeZone: 'Europe/Berlin',
      timeZoneChosen: true,
      temperatureUnit: 'C',
    });
    // One clock: the email digest's hour and quiet hours follow the member's zone.
    expect(
      (await findSubscription({ orgId: manager.orgId, userId: manager.userId }))?.timeZone,
    ).toBe('Europe/Berlin');
  });

  it('lets a building manager with no buildings leave', async () => {
    const to = await redirectOf(leaveOrganization({ status: 'idle' }, new FormData()));
    // Signed out: the sign-in page says so to whoever opens it.
    expect(redirectedWith(to, 'anyone')).toEqual({
      to: '/sign-in',
      notice: {
        key: 'leftOrganization',
        text: 'You have left the organisation and are signed out.',
      },
    });
    expect(await findMembership({ orgId: manager.orgId, userId: manager.userId })).toBeNull();
  });
});
