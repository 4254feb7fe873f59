import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { countUsers, findUserByEmail, resolveSsoMember } from '@/lib/auth/store';
import { acceptInvitation } from '@/lib/members/store';
import { databaseTargets, useDatabase } from '../support/database';
import { createFirstOwner, createOrganizationWithOwner, invite } from '../support/members';

// Races between joining paths for one email: each should end in a clean answer, never a thrown
// unique violation or deadlock. PGlite runs one transaction at a time, so only PostgreSQL shows it.
describe.each(databaseTargets)('joining races on $name', ({ target }) => {
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

  it('signs one invited email in through SSO from two tabs at once', async () => {
    const owner = await createFirstOwner();
    await invite(owner.orgId, 'tabs@example.com', 'viewer');
    const [one, two] = await Promise.all([
      resolveSsoMember({ email: 'tabs@example.com', name: 'T' }),
      resolveSsoMember({ email: 'tabs@example.com', name: 'T' }),
    ]);
    expect(one?.user.id).toBeDefined();
    expect(two?.user.id).toBe(one?.user.id);
    expect(await countUsers()).toBe(2);
  });

  it('answers member_elsewhere when two organisations’ invitations are accepted at once', async () => {
    const a = await createFirstOwner();
    const b = await createOrganizationWithOwner('b@example.com');
    const ia = await invite(a.orgId, 'both@example.com', 'viewer');
    const ib = await invite(b.orgId, 'both@example.com', 'viewer');
    const results = await Promise.all([
      acceptInvitation({ tokenHash: ia.tokenHash, name: 'x', passwordHash: 'p' }),
      acceptInvitation({ tokenHash: ib.tokenHash, name: 'x', passwordHash: 'p' }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, problem: 'member_elsewhere' }]);
  });

  it('settles a password accept and an SSO sign-in of one invitation at once', async () => {
    for (let round = 0; round < 10; round += 1) {
      const owner =
        round === 0
          ? await createFirstOwner()
          : await createOrganizationWithOwner(`o${round}@example.com`);
      const email = `mix${round}@example.com`;
      const invitation = await invite(owner.orgId, email, 'viewer');
      const settled = await Promise.allSettled([
        acceptInvitation({ tokenHash: invitation.tokenHash, name: 'x', passwordHash: 'p' }),
        resolveSsoMember({ email, name: 'x' }),
      ]);
      expect(
        settled.map((s) => (s.status === 'rejected' ? String(s.reason?.cause ?? s.reason) : 'ok')),
      ).toEqual(['ok', 'ok']);
      expect(await findUserByEmail({ email })).not.toBeNull();
    }
  });
});
