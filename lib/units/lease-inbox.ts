import 'server-only';
import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { leaseInboxes } from '@/lib/db/schema';
import { getEnv } from '@/lib/platform/env';
import { sealToken, unsealToken } from '@/lib/service/connection/vault';

/**
 * An organisation's inbox for lease events (lib/units/lease-events.ts): an address with an id no
 * one can guess, and a Standard Webhooks signing secret, made (or made again, which retires the
 * old one) by an owner or admin, shown once, kept sealed. The action checks the role first.
 */

export type LeaseInbox = { id: string; createdByName: string; createdAt: Date };

/** A signing secret as the Standard Webhooks specification writes them. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export async function findLeaseInbox(orgId: string): Promise<LeaseInbox | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      id: leaseInboxes.id,
      createdByName: leaseInboxes.createdByName,
      createdAt: leaseInboxes.createdAt,
    })
    .from(leaseInboxes)
    .where(eq(leaseInboxes.orgId, orgId));
  return row ?? null;
}

/**
 * Makes the organisation's inbox a new address and secret (the old ones stop working at once):
 * the secret is returned here once and never again.
 */
export async function makeLeaseInbox(input: {
  orgId: string;
  byName: string;
}): Promise<{ inbox: LeaseInbox; secret: string }> {
  const id = randomUUID();
  const secret = newSecret();
  const secretSealed = await sealToken(
    secret,
    { rowId: id, field: 'lease_secret' },
    getEnv().TOKEN_KEYS,
  );
  const db = await getDb();
  const [row] = await db
    .insert(leaseInboxes)
    .values({ id, orgId: input.orgId, secretSealed, createdByName: input.byName })
    .onConflictDoUpdate({
      target: leaseInboxes.orgId,
      set: { id, secretSealed, createdByName: input.byName, createdAt: new Date() },
    })
    .returning({
      id: leaseInboxes.id,
      createdByName: leaseInboxes.createdByName,
      createdAt: leaseInboxes.createdAt,
    });
  if (!row) throw new Error('The lease inbox was not written.');
  return { inbox: row, secret };
}

/** The inbox an address names, with its secret, for checking a signature; null for none. */
export async function openLeaseInbox(
  id: string,
): Promise<{ orgId: string; secret: string } | null> {
  const db = await getDb();
  const [row] = await db.select().from(leaseInboxes).where(eq(leaseInboxes.id, id));
  if (!row) return null;
  const secret = await unsealToken(
    row.secretSealed,
    { rowId: row.id, field: 'lease_secret' },
    getEnv().TOKEN_KEYS,
  );
  return { orgId: row.orgId, secret };
}
