import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { logActivity } from '@/lib/activity/sink';
import type { ActivityAction } from '@/lib/activity/actions';
import type { DatabaseHandle } from '@/lib/db/client';
import { listActivity, listActivityPeople } from '@/lib/activity/store';
import {
  countInvitingOrganizations,
  countUsers,
  createOrganization,
  findOrganization,
  findSessionMember,
  findUserByEmail,
  isMemberAnywhere,
  type Member,
  resolveSsoMember,
  updateOrganization,
} from '@/lib/auth/store';
import {
  acceptInvitation,
  findInvitationByToken,
  findMembership,
  listInvitations,
  listMembers,
  removeMembership,
  updateMembership,
} from '@/lib/members/store';
import {
  addThermostat,
  ensureBuilding,
  findBuilding,
  findKnownThermostats,
  findThermostat,
  finishMove,
  listBuildings,
  listOrganizationBuildings,
  listThermostats,
  removeThermostat,
  searchThermostats,
  startMove,
  updateThermostatLabel,
} from '@/lib/portfolio/store';
import { findConnection, replaceConnection } from '@/lib/service/connection/store';
import { memberships, sessions, thermostats } from '@/lib/db/schema';
import { withdrawMemberInvitation } from '@/lib/members/invitations';
import { databaseTargets, useDatabase } from '../support/database';
import {
  createFirstOwner,
  createOrganizationWithOwner,
  invite,
  inviteAndAccept,
  signIn,
} from '../support/members';

// Service ids: buildings are 24 hex characters, thermostats 12 digits. Both organisations have a
// building with the id SHARED (the schema allows it), so joins must match on the organisation too.
const A1 = '00000000000000000000a001';
const A2 = '00000000000000000000a002';
const B1 = '00000000000000000000b001';
const SHARED = '00000000000000000000c001';

type Fixture = {
  owner: Member;
  /** The organisation's own buildings, thermostats (id → building) and other rows. */
  buildings: string[];
  thermostats: Record<string, string>;
  connectionId: string;
  invitationId: string;
  invitedEmail: string;
};

async function addPortfolio(
  orgId: string,
  tag: string,
  buildingIds: string[],
  devices: Record<string, string>,
) {
  for (const buildingId of buildingIds) {
    await ensureBuilding({
      orgId,
      buildingId,
      name: `${tag} ${buildingId.slice(-4)}`,
      timeZone: 'America/Chicago',
    });
  }
  for (const [thermostatId, buildingId] of Object.entries(devices)) {
    await addThermostat({ orgId, thermostatId, buildingId, unitLabel: `Unit ${thermostatId}` });
  }
}

async function addConnection(orgId: string, by: Member): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await replaceConnection({
    id,
    orgId,
    fields: {
      connectedBy: by.userId,
      connectedByName: by.name,
      status: 'active',
      scope: 'read write',
      tokenType: 'Bearer',
      tokenFormat: 'opaque',
      accessTokenSealed: `sealed-access-${orgId}`,
      accessTokenExpiresAt: new Date(now.getTime() + 3_600_000),
      refreshTokenSealed: `sealed-refresh-${orgId}`,
      refreshTokenIssuedAt: now,
      refreshTokenExpiresAt: new Date(now.getTime() + 86_400_000),
      connectedAt: now,
    },
  });
  return id;
}

/** An entry as the app writes it; the summary names it for the assertions. */
async function log(
  actor: { orgId: string; userId: string | null; name: string },
  action: ActivityAction,
  summary: string,
  where: { buildingId?: string; thermostatId?: string } = {},
) {
  await logActivity({ actor, action, summary, ...where });
}

const actor = (member: Member) => ({
  orgId: member.orgId,
  userId: member.userId,
  name: member.name,
});

/** Two organisations, each with buildings, thermostats, a connection, activity and an invitation. */
async function twoOrganisations(): Promise<{ a: Fixture; b: Fixture }> {
  const ownerA = await createFirstOwner('owner@reyes.example', 'Reyes');
  const ownerB = await createOrganizationWithOwner('owner@northwind.example', 'Northwind');
  const fixtures: Fixture[] = [];
  for (const [owner, tag, buildingIds, devices] of [
    [
      ownerA,
      'Reyes',
      [A1, A2, SHARED],
      { '100000000001': A1, '100000000002': A2, '100000000003': SHARED },
    ],
    [ownerB, 'Northwind', [B1, SHARED], { '200000000001': B1, '200000000003': SHARED }],
  ] as const) {
    await addPortfolio(owner.orgId, tag, [...buildingIds], devices);
    for (const [thermostatId, buildingId] of Object.entries(devices)) {
      await log(actor(owner), 'thermostat.create', `${tag} created ${thermostatId}`, {
        buildingId,
        thermostatId,
      });
    }
    await log(actor(owner), 'member.sign_in', `${tag} owner signed in`);
    await log(
      { orgId: owner.orgId, userId: null, name: 'Setpoint' },
      'connection.end',
      `${tag} connection ended`,
    );
    const invitedEmail = `invited@${tag.toLowerCase()}.example`;
    const invitation = await invite(owner.orgId, invitedEmail, 'viewer');
    fixtures.push({
      owner,
      buildings: [...buildingIds],
      thermostats: devices,
      connectionId: await addConnection(owner.orgId, owner),
      invitationId: invitation.id,
      invitedEmail,
    });
  }
  const [a, b] = fixtures;
  if (!a || !b) throw new Error('fixtures missing');
  return { a, b };
}

const sorted = (values: Iterable<string>) => [...values].sort();

/** An owner of the organisation, as the invitation calls take the one who acts. */
const ownerOf = (orgId: string) => ({ orgId, role: 'owner' as const, buildingIds: null });

describe.each(databaseTargets)('organisations on $name', ({ target }) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`truncate users, sessions, sign_in_attempts, organizations cascade`);
  });

  async function sessionsOf(userId: string) {
    return handle.db.select().from(sessions).where(eq(sessions.userId, userId));
  }

  async function membershipCount(userId: string) {
    const [row] = await handle.db
      .select({ value: count() })
      .from(memberships)
      .where(eq(memberships.userId, userId));
    return row?.value ?? 0;
  }

  describe('isolation', () => {
    it('lists and finds only its own buildings, thermostats, members, invitations and connection', async () => {
      const { a, b } = await twoOrganisations();
      for (const [mine, theirs] of [
        [a, b],
        [b, a],
      ] as const) {
        const scope = mine.owner;
        const theirOnly = Object.keys(theirs.thermostats);
        const theirBuilding = theirs.buildings[0] ?? '';

        const buildings = await listBuildings({ scope });
        expect(sorted(buildings.map((row) => row.buildingId))).toEqual(sorted(mine.buildings));
        expect(buildings.every((row) => row.orgId === scope.orgId)).toBe(true);
        // The shared building id counts only this organisation's thermostat.
        expect(buildings.find((row) => row.buildingId === SHARED)?.thermostatCount).toBe(1);
        expect(
          sorted(
            (await listOrganizationBuildings({ orgId: scope.orgId })).map((r) => r.buildingId),
          ),
        ).toEqual(sorted(mine.buildings));
        expect(await findBuilding({ scope, buildingId: theirBuilding })).toBeNull();

        const devices = await listThermostats({ scope });
        expect(sorted(devices.map((row) => row.thermostatId))).toEqual(
          sorted(Object.keys(mine.thermostats)),
        );
        expect(
          (await listThermostats({ scope, buildingId: SHARED })).map((r) => r.thermostatId),
        ).toEqual(Object.keys(mine.thermostats).filter((id) => mine.thermostats[id] === SHARED));
        expect(await listThermostats({ scope, thermostatIds: theirOnly })).toEqual([]);
        for (const thermostatId of theirOnly) {
          expect(await findThermostat({ scope, thermostatId })).toBeNull();
          expect(await searchThermostats({ scope, text: thermostatId })).toEqual([]);
        }
        const [ownId] = Object.keys(mine.thermostats).filter(
          (id) => mine.thermostats[id] === SHARED,
        );
        const own = await findThermostat({ scope, thermostatId: ownId ?? '' });
        // Its building is this organisation's building of that id, not the other's.
        expect(own?.building?.orgId).toBe(scope.orgId);
        expect(
          sorted((await searchThermostats({ scope, text: 'Unit' })).map((r) => r.thermostatId)),
        ).toEqual(sorted(Object.keys(mine.thermostats)));
        expect(
          await findKnownThermostats({ orgId: scope.orgId, thermostatIds: theirOnly }),
        ).toEqual(new Map());

        expect(
          await findMembership({ orgId: scope.orgId, userId: theirs.owner.userId }),
        ).toBeNull();
        expect((await findMembership({ orgId: scope.orgId, userId: scope.userId }))?.role).toBe(
          'owner',
        );
        expect((await listMembers({ orgId: scope.orgId })).map((row) => row.email)).toEqual([
          mine.owner.email,
        ]);
        // Their own pending invitation; the other organisation's never (nor its owner's, accepted).
        const invitations = await listInvitations({ orgId: scope.orgId });
        expect(invitations.every((row) => row.orgId === scope.orgId)).toBe(true);
        expect(invitations.map((row) => row.email)).toContain(mine.invitedEmail);
        expect(invitations.map((row) => row.email)).not.toContain(theirs.invitedEmail);
        expect(invitations.map((row) => row.email)).not.toContain(theirs.owner.email);
        expect((await findConnection({ orgId: scope.orgId }))?.id).toBe(mine.connectionId);
      }
    });

    it('shows one organisation nothing of the activity of another', async () => {
      const { a, b } = await twoOrganisations();
      for (const [mine, theirs, tag] of [
        [a, b, 'Reyes'],
        [b, a, 'Northwind'],
      ] as const) {
        const scope = mine.owner;
        const entries = await listActivity({ scope });
        // Its thermostats' entries, its owner's sign-in and Setpoint's own entry: all, and only.
        expect(entries).toHaveLength(Object.keys(mine.thermostats).length + 2);
        expect(entries.every((entry) => entry.orgId === scope.orgId)).toBe(true);
        expect(entries.every((entry) => entry.summary.startsWith(tag))).toBe(true);
        expect(entries.some((entry) => entry.userId === theirs.owner.userId)).toBe(false);
        // Filters cannot reach across either: by their person, their thermostats, a shared id.
        expect(await listActivity({ scope, filter: { userId: theirs.owner.userId } })).toEqual([]);
        expect(
          await listActivity({
            scope,
            filter: { thermostatIds: Object.keys(theirs.thermostats) },
          }),
        ).toEqual([]);
        expect(
          (await listActivity({ scope, filter: { buildingId: SHARED } })).map((e) => e.orgId),
        ).toEqual([scope.orgId]);
        expect(await listActivityPeople({ scope })).toEqual([
          { userId: scope.userId, name: scope.name },
        ]);
      }
    });

    it('changes nothing of another organisation through its own id', async () => {
      const { a, b } = await twoOrganisations();
      const [theirThermostat] = Object.keys(b.thermostats);
      if (!theirThermostat) throw new Error('no thermostat');
      await updateThermostatLabel({
        orgId: a.owner.orgId,
        thermostatId: theirThermostat,
        unitLabel: 'Taken',
      });
      await removeThermostat({ orgId: a.owner.orgId, thermostatId: theirThermostat });
      expect(
        await startMove({
          orgId: a.owner.orgId,
          thermostatId: theirThermostat,
          from: b.thermostats[theirThermostat] ?? '',
          to: SHARED,
        }),
      ).toBe(false);
      expect(
        await withdrawMemberInvitation({ actor: ownerOf(a.owner.orgId), id: b.invitationId }),
      ).toEqual({
        ok: false,
        reason: 'gone',
      });
      expect(
        await updateMembership({
          orgId: a.owner.orgId,
          userId: b.owner.userId,
          role: 'viewer',
          buildingIds: [],
        }),
      ).toEqual({ ok: false, reason: 'not_found' });
      expect(await removeMembership({ orgId: a.owner.orgId, userId: b.owner.userId })).toEqual({
        ok: false,
        reason: 'not_found',
      });

      const theirs = await findThermostat({ scope: b.owner, thermostatId: theirThermostat });
      expect(theirs).toMatchObject({ unitLabel: `Unit ${theirThermostat}`, movingTo: null });
      expect((await listInvitations({ orgId: b.owner.orgId }))[0]?.revokedAt).toBeNull();
      expect((await findMembership({ orgId: b.owner.orgId, userId: b.owner.userId }))?.role).toBe(
        'owner',
      );
    });
  });

  describe('building manager scope', () => {
    it('sees only their buildings, and the activity of those and their own', async () => {
      const { a, b } = await twoOrganisations();
      const manager = await inviteAndAccept(
        a.owner.orgId,
        'manager@reyes.example',
        'building_manager',
        [A1],
      );
      expect(manager).toMatchObject({ role: 'building_manager', buildingIds: [A1] });
      await log(actor(manager), 'member.sign_in', 'Manager signed in');
      // Their own entry about a building that is no longer theirs still shows.
      await log(actor(manager), 'thermostat.rename', 'Manager renamed in A2', {
        buildingId: A2,
        thermostatId: '100000000002',
      });
      await log(actor(b.owner), 'thermostat.rename', 'Northwind renamed in shared', {
        buildingId: SHARED,
      });

      const scope = manager;
      expect((await listBuildings({ scope })).map((row) => row.buildingId)).toEqual([A1]);
      expect((await findBuilding({ scope, buildingId: A1 }))?.buildingId).toBe(A1);
      expect(await findBuilding({ scope, buildingId: A2 })).toBeNull();
      expect(await findBuilding({ scope, buildingId: SHARED })).toBeNull();
      expect((await listThermostats({ scope })).map((row) => row.thermostatId)).toEqual([
        '100000000001',
      ]);
      expect(await listThermostats({ scope, buildingId: A2 })).toEqual([]);
      expect((await findThermostat({ scope, thermostatId: '100000000001' }))?.buildingId).toBe(A1);
      expect(await findThermostat({ scope, thermostatId: '100000000002' })).toBeNull();
      expect(await findThermostat({ scope, thermostatId: '100000000003' })).toBeNull();
      expect((await searchThermostats({ scope, text: 'Unit' })).map((r) => r.thermostatId)).toEqual(
        ['100000000001'],
      );
      expect(await searchThermostats({ scope, text: '100000000002' })).toEqual([]);

      expect(sorted((await listActivity({ scope })).map((entry) => entry.summary))).toEqual(
        sorted(['Reyes created 100000000001', 'Manager signed in', 'Manager renamed in A2']),
      );
      expect(
        await listActivity({ scope, filter: { buildingId: A2, userId: a.owner.userId } }),
      ).toEqual([]);
      expect(sorted((await listActivityPeople({ scope })).map((person) => person.userId))).toEqual(
        sorted([a.owner.userId, manager.userId]),
      );
    });

    it('sees nothing with no buildings', async () => {
      const { a } = await twoOrganisations();
      const idle = await inviteAndAccept(a.owner.orgId, 'idle@reyes.example', 'building_manager');
      expect(idle).toMatchObject({ role: 'building_manager', buildingIds: [] });
      const scope = idle;
      expect(await listBuildings({ scope })).toEqual([]);
      expect(await findBuilding({ scope, buildingId: A1 })).toBeNull();
      expect(await listThermostats({ scope })).toEqual([]);
      expect(await listThermostats({ scope, buildingId: A1 })).toEqual([]);
      expect(await findThermostat({ scope, thermostatId: '100000000001' })).toBeNull();
      expect(await searchThermostats({ scope, text: 'Unit' })).toEqual([]);
      expect(await listActivity({ scope })).toEqual([]);
      expect(await listActivityPeople({ scope })).toEqual([]);
    });

    it('gives owners, admins and viewers every building of their organisation', async () => {
      const { a } = await twoOrganisations();
      for (const role of ['admin', 'viewer'] as const) {
        const member = await inviteAndAccept(a.owner.orgId, `${role}@reyes.example`, role);
        expect(member.buildingIds).toBeNull();
        expect(sorted((await listBuildings({ scope: member })).map((r) => r.buildingId))).toEqual(
          sorted(a.buildings),
        );
        expect(await listActivity({ scope: member })).toHaveLength(
          Object.keys(a.thermostats).length + 2,
        );
      }
      expect(a.owner.buildingIds).toBeNull();
    });

    it('changes a manager’s buildings with their role, and only to buildings of the organisation', async () => {
      const { a } = await twoOrganisations();
      const manager = await inviteAndAccept(
        a.owner.orgId,
        'manager@reyes.example',
        'building_manager',
        [A1],
      );
      expect(
        await updateMembership({
          orgId: a.owner.orgId,
          userId: manager.userId,
          role: 'building_manager',
          buildingIds: [A2, B1],
        }),
      ).toEqual({ ok: true, before: { role: 'building_manager', buildingIds: [A1] } });
      expect(
        (await findMembership({ orgId: a.owner.orgId, userId: manager.userId }))?.buildingIds,
      ).toEqual([A2]);
      await updateMembership({
        orgId: a.owner.orgId,
        userId: manager.userId,
        role: 'viewer',
        buildingIds: [A2],
      });
      const viewer = await findMembership({ orgId: a.owner.orgId, userId: manager.userId });
      expect(viewer).toMatchObject({ role: 'viewer', buildingIds: [] });
    });
  });

  describe('owners', () => {
    it('keeps the last owner: not demoted, not removed', async () => {
      const owner = await createFirstOwner();
      const { sessionId } = await signIn(owner.userId);
      for (const role of ['admin', 'building_manager', 'viewer'] as const) {
        expect(
          await updateMembership({
            orgId: owner.orgId,
            userId: owner.userId,
            role,
            buildingIds: [],
          }),
        ).toEqual({ ok: false, reason: 'last_owner' });
      }
      expect(await removeMembership({ orgId: owner.orgId, userId: owner.userId })).toEqual({
        ok: false,
        reason: 'last_owner',
      });
      expect((await findMembership({ orgId: owner.orgId, userId: owner.userId }))?.role).toBe(
        'owner',
      );
      expect((await findSessionMember({ sessionId }))?.role).toBe('owner');

      // With a second owner, either may step down.
      await inviteAndAccept(owner.orgId, 'second@example.com', 'owner');
      expect(
        await updateMembership({
          orgId: owner.orgId,
          userId: owner.userId,
          role: 'admin',
          buildingIds: [],
        }),
      ).toEqual({ ok: true, before: { role: 'owner', buildingIds: [] } });
    });

    it('leaves exactly one owner when two owners remove or demote each other at once', async () => {
      // Several organisations racing at once, so a missing lock shows on a server with real
      // concurrency (PGlite runs one transaction at a time and cannot show it).
      const pairs = [];
      for (let round = 0; round < 6; round += 1) {
        const first = await createOrganizationWithOwner(
          `first${round}@example.com`,
          `Org ${round}`,
        );
        const second = await inviteAndAccept(first.orgId, `second${round}@example.com`, 'owner');
        pairs.push({ orgId: first.orgId, users: [second.userId, first.userId], round });
      }
      const outcomes = await Promise.all(
        pairs.map(({ orgId, users, round }) =>
          Promise.all(
            users.map((userId) =>
              round % 2 === 0
                ? removeMembership({ orgId, userId })
                : updateMembership({ orgId, userId, role: 'admin', buildingIds: [] }),
            ),
          ),
        ),
      );
      for (const [index, results] of outcomes.entries()) {
        expect(results.filter((result) => result.ok)).toHaveLength(1);
        expect(results.filter((result) => !result.ok)).toEqual([
          { ok: false, reason: 'last_owner' },
        ]);
        const members = await listMembers({ orgId: pairs[index]?.orgId ?? '' });
        expect(members.filter((member) => member.role === 'owner')).toHaveLength(1);
      }
    });

    it('signs a removed member out at once, every session of theirs', async () => {
      const owner = await createFirstOwner();
      const admin = await inviteAndAccept(owner.orgId, 'admin@example.com', 'admin');
      const first = await signIn(admin.userId);
      const second = await signIn(admin.userId);
      const ownerSession = await signIn(owner.userId);
      expect(await findSessionMember({ sessionId: first.sessionId })).not.toBeNull();

      expect(await removeMembership({ orgId: owner.orgId, userId: admin.userId })).toEqual({
        ok: true,
        before: { role: 'admin', buildingIds: [] },
      });
      expect(await findSessionMember({ sessionId: first.sessionId })).toBeNull();
      expect(await findSessionMember({ sessionId: second.sessionId })).toBeNull();
      const rows = await sessionsOf(admin.userId);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
      expect(await isMemberAnywhere({ email: 'admin@example.com' })).toBe(false);
      // The account stays (its activity keeps its name); the owner is still signed in.
      expect(await findUserByEmail({ email: 'admin@example.com' })).not.toBeNull();
      expect((await findSessionMember({ sessionId: ownerSession.sessionId }))?.role).toBe('owner');
    });
  });

  describe('invitations', () => {
    const accept = (tokenHash: string, passwordHash = 'new-hash') =>
      acceptInvitation({ tokenHash, name: 'Invited Person', passwordHash });

    it('is accepted once', async () => {
      const owner = await createFirstOwner();
      const invitation = await invite(owner.orgId, 'New@Example.com', 'admin');
      const accepted = await accept(invitation.tokenHash);
      expect(accepted).toMatchObject({
        ok: true,
        orgId: owner.orgId,
        user: { email: 'new@example.com', name: 'Invited Person' },
      });
      if (!accepted.ok) throw new Error('not accepted');
      expect((await findMembership({ orgId: owner.orgId, userId: accepted.user.id }))?.role).toBe(
        'admin',
      );
      expect(await accept(invitation.tokenHash, 'other-hash')).toEqual({
        ok: false,
        problem: 'used',
      });
      expect((await findUserByEmail({ email: 'new@example.com' }))?.passwordHash).toBe('new-hash');
      expect(
        (await findInvitationByToken({ tokenHash: invitation.tokenHash }))?.acceptedAt,
      ).not.toBeNull();
      expect(await accept('no-such-token')).toEqual({ ok: false, problem: 'unknown' });
    });

    it('cannot be used once expired', async () => {
      const owner = await createFirstOwner();
      const invitation = await invite(owner.orgId, 'late@example.com', 'viewer', {
        expiresAt: new Date(Date.now() - 1000),
      });
      expect(await accept(invitation.tokenHash)).toEqual({ ok: false, problem: 'expired' });
      expect(await findUserByEmail({ email: 'late@example.com' })).toBeNull();
    });

    it('cannot be used once revoked', async () => {
      const owner = await createFirstOwner();
      const invitation = await invite(owner.orgId, 'revoked@example.com', 'viewer');
      const revoked = await withdrawMemberInvitation({
        actor: ownerOf(owner.orgId),
        id: invitation.id,
      });
      expect(revoked.ok && revoked.invitation.revokedAt).toBeInstanceOf(Date);
      expect(
        await withdrawMemberInvitation({ actor: ownerOf(owner.orgId), id: invitation.id }),
      ).toEqual({
        ok: false,
        reason: 'gone',
      });
      expect(await accept(invitation.tokenHash)).toEqual({ ok: false, problem: 'revoked' });
      expect(await findUserByEmail({ email: 'revoked@example.com' })).toBeNull();
    });

    it('is withdrawn by an admin unless it makes an owner, which only an owner withdraws', async () => {
      const owner = await createFirstOwner();
      const admin = { orgId: owner.orgId, role: 'admin' as const, buildingIds: null };
      const toOwner = await invite(owner.orgId, 'co-owner@example.com', 'owner');
      const toAdmin = await invite(owner.orgId, 'helper@example.com', 'admin');
      expect(await withdrawMemberInvitation({ actor: admin, id: toOwner.id })).toEqual({
        ok: false,
        reason: 'role',
      });
      expect((await findInvitationByToken({ tokenHash: toOwner.tokenHash }))?.revokedAt).toBeNull();
      expect((await withdrawMemberInvitation({ actor: admin, id: toAdmin.id })).ok).toBe(true);
      expect(
        (await withdrawMemberInvitation({ actor: ownerOf(owner.orgId), id: toOwner.id })).ok,
      ).toBe(true);
      expect(await accept(toOwner.tokenHash)).toEqual({ ok: false, problem: 'revoked' });
    });

    it('refuses an email that is a member elsewhere, and leaves their account alone', async () => {
      const ownerA = await createFirstOwner();
      const ownerB = await createOrganizationWithOwner('taken@example.com');
      const invitation = await invite(ownerA.orgId, 'Taken@example.com', 'admin');
      expect(await isMemberAnywhere({ email: 'taken@example.com' })).toBe(true);
      expect(await accept(invitation.tokenHash, 'attacker-hash')).toEqual({
        ok: false,
        problem: 'member_elsewhere',
      });
      const account = await findUserByEmail({ email: 'taken@example.com' });
      expect(account?.passwordHash).toBe('x');
      expect(await findMembership({ orgId: ownerA.orgId, userId: ownerB.userId })).toBeNull();
      expect((await findMembership({ orgId: ownerB.orgId, userId: ownerB.userId }))?.role).toBe(
        'owner',
      );
      expect(
        (await findInvitationByToken({ tokenHash: invitation.tokenHash }))?.acceptedAt,
      ).toBeNull();
    });

    it('makes one member when one invitation is accepted twice at once', async () => {
      const owner = await createFirstOwner();
      // Several invitations, each accepted in two tabs at once, for real concurrency.
      const emails = Array.from({ length: 5 }, (_, index) => `twice${index}@example.com`);
      const invitations = [];
      for (const email of emails) invitations.push(await invite(owner.orgId, email, 'viewer'));
      const outcomes = await Promise.all(
        invitations.map((invitation) =>
          Promise.all([accept(invitation.tokenHash), accept(invitation.tokenHash)]),
        ),
      );
      for (const results of outcomes) {
        expect(results.filter((result) => result.ok)).toHaveLength(1);
        expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, problem: 'used' }]);
      }
      for (const email of emails) {
        const account = await findUserByEmail({ email });
        if (!account) throw new Error(`no account for ${email}`);
        expect(await membershipCount(account.id)).toBe(1);
      }
      expect(await listMembers({ orgId: owner.orgId })).toHaveLength(emails.length + 1);
    });

    it('brings a building manager’s buildings, only those the organisation has', async () => {
      const { a } = await twoOrganisations();
      const invitation = await invite(a.owner.orgId, 'bm@reyes.example', 'building_manager', {
        // B1 is the other organisation's; the last one no one has.
        buildingIds: [A1, SHARED, B1, '00000000000000000000dead'],
      });
      const accepted = await accept(invitation.tokenHash);
      if (!accepted.ok) throw new Error(accepted.problem);
      const { member } = await signIn(accepted.user.id);
      expect(member.role).toBe('building_manager');
      expect(sorted(member.buildingIds ?? [])).toEqual(sorted([A1, SHARED]));
      expect(sorted((await listBuildings({ scope: member })).map((r) => r.buildingId))).toEqual(
        sorted([A1, SHARED]),
      );
      expect((await listBuildings({ scope: member })).every((r) => r.orgId === a.owner.orgId)).toBe(
        true,
      );
    });

    it('takes back a removed member’s account when they are invited again', async () => {
      const ownerA = await createFirstOwner();
      const ownerB = await createOrganizationWithOwner('owner-b@example.com');
      const member = await inviteAndAccept(ownerA.orgId, 'mover@example.com', 'admin');
      const old = await signIn(member.userId);
      await removeMembership({ orgId: ownerA.orgId, userId: member.userId });
      expect(await isMemberAnywhere({ email: 'mover@example.com' })).toBe(false);

      const again = await invite(ownerB.orgId, 'mover@example.com', 'viewer');
      const accepted = await accept(again.tokenHash, 'fresh-hash');
      expect(accepted).toMatchObject({
        ok: true,
        orgId: ownerB.orgId,
        user: { id: member.userId },
      });
      expect(await countUsers()).toBe(3);
      expect((await findUserByEmail({ email: 'mover@example.com' }))?.passwordHash).toBe(
        'fresh-hash',
      );
      const { member: rejoined } = await signIn(member.userId);
      expect(rejoined).toMatchObject({ orgId: ownerB.orgId, role: 'viewer' });
      // The old session stays ended; the first organisation does not see them.
      expect(await findSessionMember({ sessionId: old.sessionId })).toBeNull();
      expect(await findMembership({ orgId: ownerA.orgId, userId: member.userId })).toBeNull();
    });
  });

  describe('company SSO', () => {
    const sso = (email: string, name = 'SSO Person') => resolveSsoMember({ email, name });

    it('joins an invited email with the invitation’s role, then signs them in as a member', async () => {
      const owner = await createFirstOwner();
      await ensureBuilding({ orgId: owner.orgId, buildingId: A1, name: 'A1', timeZone: 'UTC' });
      const invitation = await invite(owner.orgId, 'invited@example.com', 'building_manager', {
        buildingIds: [A1],
      });
      const joined = await sso('Invited@Example.com');
      expect(joined).toMatchObject({
        user: { email: 'invited@example.com', name: 'SSO Person' },
        joined: { orgId: owner.orgId, how: 'invitation' },
      });
      if (!joined) throw new Error('not joined');
      expect(await findMembership({ orgId: owner.orgId, userId: joined.user.id })).toMatchObject({
        role: 'building_manager',
        buildingIds: [A1],
      });
      expect(
        (await findInvitationByToken({ tokenHash: invitation.tokenHash }))?.acceptedAt,
      ).not.toBeNull();
      expect((await findUserByEmail({ email: 'invited@example.com' }))?.passwordHash).toBeNull();

      // Next time: an existing member, nothing joined, no second account.
      expect(await sso('invited@example.com')).toEqual({ user: joined.user, joined: null });
      expect(await countUsers()).toBe(2);
    });

    it('joins the invitation the person came from when several organisations invited them, and none unasked', async () => {
      const owner = await createFirstOwner();
      const other = await createOrganizationWithOwner('owner@northwind.example', 'Northwind');
      const mine = await invite(owner.orgId, 'pat@example.com', 'viewer');
      // Invited later elsewhere: newest, but not the one Pat means.
      await invite(other.orgId, 'pat@example.com', 'admin');
      const users = await countUsers();
      expect(await sso('pat@example.com')).toBeNull();
      expect(await countUsers()).toBe(users);
      expect(await countInvitingOrganizations({ email: 'Pat@Example.com' })).toBe(2);

      const joined = await resolveSsoMember({
        email: 'pat@example.com',
        name: 'Pat',
        invitationTokenHash: mine.tokenHash,
      });
      expect(joined).toMatchObject({ joined: { orgId: owner.orgId, how: 'invitation' } });
      if (!joined) throw new Error('not joined');
      expect((await findMembership({ orgId: owner.orgId, userId: joined.user.id }))?.role).toBe(
        'viewer',
      );
      expect(await findMembership({ orgId: other.orgId, userId: joined.user.id })).toBeNull();
    });

    it('joins an email of an organisation’s allowed domain with its default role', async () => {
      const owner = await createFirstOwner();
      const other = await createOrganizationWithOwner('owner@northwind.example', 'Northwind');
      expect(
        await updateOrganization({
          orgId: other.orgId,
          name: 'Northwind',
          ssoDomain: 'northwind.example',
          ssoDefaultRole: 'viewer',
        }),
      ).toBe(true);
      const joined = await sso('New.Person@Northwind.Example', '  New Person  ');
      expect(joined).toMatchObject({
        user: { email: 'new.person@northwind.example', name: 'New Person' },
        joined: { orgId: other.orgId, how: 'domain' },
      });
      if (!joined) throw new Error('not joined');
      expect((await findMembership({ orgId: other.orgId, userId: joined.user.id }))?.role).toBe(
        'viewer',
      );
      expect(await findMembership({ orgId: owner.orgId, userId: joined.user.id })).toBeNull();

      // An invitation outranks the domain's default role.
      await invite(other.orgId, 'boss@northwind.example', 'admin');
      const boss = await sso('boss@northwind.example');
      expect(boss?.joined?.how).toBe('invitation');
      expect(
        (await findMembership({ orgId: other.orgId, userId: boss?.user.id ?? '' }))?.role,
      ).toBe('admin');
    });

    it('refuses strangers and password accounts, creating no account', async () => {
      const owner = await createFirstOwner('owner@reyes.example');
      await updateOrganization({
        orgId: owner.orgId,
        name: 'Reyes',
        ssoDomain: 'northwind.example',
        ssoDefaultRole: null,
      });
      await invite(owner.orgId, 'expired@example.com', 'admin', {
        expiresAt: new Date(Date.now() - 1000),
      });
      const revoked = await invite(owner.orgId, 'revoked@example.com', 'admin');
      await withdrawMemberInvitation({ actor: ownerOf(owner.orgId), id: revoked.id });
      const before = await countUsers();

      expect(await sso('stranger@elsewhere.example')).toBeNull();
      expect(await sso('expired@example.com')).toBeNull();
      expect(await sso('revoked@example.com')).toBeNull();
      // A domain with no default role lets in invited people only.
      expect(await sso('someone@northwind.example')).toBeNull();
      // SSO never signs into an account that has a password, member or not.
      expect(await sso('owner@reyes.example')).toBeNull();
      expect(await countUsers()).toBe(before);
    });

    it('keeps a domain to one organisation', async () => {
      const owner = await createFirstOwner();
      const other = await createOrganizationWithOwner('owner@northwind.example', 'Northwind');
      const set = (orgId: string, name: string) =>
        updateOrganization({ orgId, name, ssoDomain: 'shared.example', ssoDefaultRole: 'viewer' });
      expect(await set(owner.orgId, 'Reyes')).toBe(true);
      expect(await set(other.orgId, 'Northwind renamed')).toBe(false);
      expect(await findOrganization({ orgId: other.orgId })).toMatchObject({
        name: 'Northwind',
        ssoDomain: null,
      });
      // Several organisations without a domain are fine.
      expect(
        await updateOrganization({
          orgId: (await createOrganization({ name: 'Third' })).id,
          name: 'Third',
          ssoDomain: null,
          ssoDefaultRole: null,
        }),
      ).toBe(true);
      const joined = await sso('someone@shared.example');
      expect(joined?.joined?.orgId).toBe(owner.orgId);
    });
  });

  describe('moves', () => {
    it('claims a thermostat once, and releases it when the move ends', async () => {
      const owner = await createFirstOwner();
      const orgId = owner.orgId;
      await addPortfolio(orgId, 'Reyes', [A1, A2], { '100000000001': A1 });
      const thermostatId = '100000000001';
      const move = { orgId, thermostatId, from: A1, to: A2 };

      const raced = await Promise.all([startMove(move), startMove({ ...move, to: SHARED })]);
      expect(raced.filter(Boolean)).toHaveLength(1);
      expect(await startMove(move)).toBe(false);
      const claimed = await findThermostat({ scope: owner, thermostatId });
      expect(claimed?.buildingId).toBe(A1);
      expect([A2, SHARED]).toContain(claimed?.movingTo);

      await finishMove({ orgId, thermostatId, movedTo: A2 });
      expect(await findThermostat({ scope: owner, thermostatId })).toMatchObject({
        buildingId: A2,
        movingTo: null,
      });
      // From where it was: the old building no longer matches.
      expect(await startMove(move)).toBe(false);
      expect(await startMove({ ...move, from: A2, to: A1 })).toBe(true);
      await finishMove({ orgId, thermostatId, movedTo: null });
      expect(await findThermostat({ scope: owner, thermostatId })).toMatchObject({
        buildingId: A2,
        movingTo: null,
      });
      expect(await startMove({ ...move, from: A2, to: A1 })).toBe(true);
      const [row] = await handle.db
        .select()
        .from(thermostats)
        .where(eq(thermostats.thermostatId, thermostatId));
      expect(row?.movingTo).toBe(A1);
    });
  });
});
