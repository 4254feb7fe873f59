import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { API_SCOPES, apiKeys } from '@/lib/db/schema';
import type { Scope } from '@/lib/db/scope';

/**
 * Keys for Setpoint's own API: made by an owner or admin, shown once, kept only as the SHA-256
 * of the secret (a 32-byte random value: nothing to guess, so no slow hash is needed), with
 * scopes and optionally the buildings the key is limited to. A request names its key in
 * `Authorization: Bearer`; a revoked key, or one not found, is no key at all.
 */

export { API_SCOPES };
export type ApiScope = (typeof API_SCOPES)[number];

/** A key as a request holds it: what it may do, and where. */
export type ApiKey = {
  id: string;
  orgId: string;
  name: string;
  scopes: ApiScope[];
  /** Null: every building of the organisation. */
  buildingIds: string[] | null;
};

/** What a key may see: the organisation's buildings, or only some (a `Scope` as members have). */
export const scopeOfKey = (key: ApiKey): Scope => ({
  orgId: key.orgId,
  // No member: a user id that is nobody's (a run a key sees is one in its buildings).
  userId: '00000000-0000-0000-0000-000000000000',
  buildingIds: key.buildingIds,
});

/** Every key starts so, to be recognised in a log or a secret scanner. */
export const KEY_PREFIX = 'spk_';

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Makes a key; the secret is returned here once and never stored. */
export async function createApiKey(input: {
  orgId: string;
  name: string;
  scopes: ApiScope[];
  buildingIds: string[] | null;
  byName: string;
}): Promise<{ key: ApiKeyRow; secret: string }> {
  const secret = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const db = await getDb();
  const [key] = await db
    .insert(apiKeys)
    .values({
      orgId: input.orgId,
      name: input.name,
      prefix: secret.slice(0, KEY_PREFIX.length + 6),
      hash: hashOf(secret),
      scopes: input.scopes,
      buildingIds: input.buildingIds,
      createdByName: input.byName,
    })
    .returning();
  if (!key) throw new Error('api key insert returned no row');
  return { key, secret };
}

/** The organisation's keys, the newest first, revoked ones too (never a secret or a hash). */
export async function listApiKeys({ orgId }: { orgId: string }) {
  const db = await getDb();
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scopes: apiKeys.scopes,
      buildingIds: apiKeys.buildingIds,
      createdByName: apiKeys.createdByName,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
      revokedByName: apiKeys.revokedByName,
      lastUsedAt: apiKeys.lastUsedAt,
      lastUsedFrom: apiKeys.lastUsedFrom,
    })
    .from(apiKeys)
    .where(eq(apiKeys.orgId, orgId))
    .orderBy(desc(apiKeys.createdAt));
}

export type ListedApiKey = Awaited<ReturnType<typeof listApiKeys>>[number];

/** Revokes a key of the organisation; null when it has no such key, false when already revoked. */
export async function revokeApiKey(input: {
  orgId: string;
  keyId: string;
  byName: string;
}): Promise<{ name: string } | null | false> {
  const db = await getDb();
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date(), revokedByName: input.byName })
    .where(
      and(eq(apiKeys.orgId, input.orgId), eq(apiKeys.id, input.keyId), isNull(apiKeys.revokedAt)),
    )
    .returning({ name: apiKeys.name });
  if (revoked) return revoked;
  const [exists] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.orgId, input.orgId), eq(apiKeys.id, input.keyId)));
  return exists ? false : null;
}

/**
 * The key an `Authorization` header names, live (not revoked), noting when and from where it was
 * used; null for no header, another scheme, or a key that is not one.
 */
export async function authenticateKey(
  authorization: string | null,
  from: string,
): Promise<ApiKey | null> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const secret = match?.[1];
  if (!secret?.startsWith(KEY_PREFIX) || secret.length > 100) return null;
  const db = await getDb();
  const [key] = await db
    .select({
      id: apiKeys.id,
      orgId: apiKeys.orgId,
      name: apiKeys.name,
      scopes: apiKeys.scopes,
      buildingIds: apiKeys.buildingIds,
      lastUsedAt: apiKeys.lastUsedAt,
      lastUsedFrom: apiKeys.lastUsedFrom,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.hash, hashOf(secret)), isNull(apiKeys.revokedAt)));
  if (!key) return null;
  const address = from.slice(0, 64);
  // Noted at most once a minute per address: a busy key does not queue on its own row.
  const stale = !key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > 60_000;
  if (stale || key.lastUsedFrom !== address) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()`, lastUsedFrom: address })
      .where(eq(apiKeys.id, key.id));
  }
  const { lastUsedAt: _, lastUsedFrom: __, ...found } = key;
  return found;
}
