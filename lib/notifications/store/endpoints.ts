import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { notifications, webhookEndpoints } from '@/lib/db/schema';

import { type QueuedNotice, queuedColumns, type WebhookEndpoint } from './rows';

/** An organisation's webhook endpoints: never listed with their sealed secrets. */

export type EndpointListing = Omit<WebhookEndpoint, 'secretSealed'>;

/** Every column but the sealed secret. */
const endpointColumns = {
  id: webhookEndpoints.id,
  orgId: webhookEndpoints.orgId,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  kinds: webhookEndpoints.kinds,
  buildingIds: webhookEndpoints.buildingIds,
  status: webhookEndpoints.status,
  consecutiveFailures: webhookEndpoints.consecutiveFailures,
  lastSuccessAt: webhookEndpoints.lastSuccessAt,
  lastFailureAt: webhookEndpoints.lastFailureAt,
  lastError: webhookEndpoints.lastError,
  createdByName: webhookEndpoints.createdByName,
  createdAt: webhookEndpoints.createdAt,
};

/** The organisation's endpoints, never with their secrets. */
export async function listWebhookEndpoints(input: { orgId: string }): Promise<EndpointListing[]> {
  const db = await getDb();
  return db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.orgId, input.orgId))
    .orderBy(asc(webhookEndpoints.createdAt));
}

/** One endpoint of the organisation, with its sealed secret (for signing). */
export async function findWebhookEndpoint(input: {
  orgId: string;
  id: string;
}): Promise<WebhookEndpoint | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, input.orgId), eq(webhookEndpoints.id, input.id)));
  return row ?? null;
}

export async function createWebhookEndpoint(
  input: Pick<
    WebhookEndpoint,
    | 'id'
    | 'orgId'
    | 'url'
    | 'description'
    | 'secretSealed'
    | 'kinds'
    | 'buildingIds'
    | 'createdByName'
  >,
): Promise<EndpointListing> {
  const db = await getDb();
  const [row] = await db.insert(webhookEndpoints).values(input).returning(endpointColumns);
  if (!row) throw new Error('webhook endpoint not created');
  return row;
}

/** Removes an endpoint (and its delivery log); null when it was not the organisation's. */
export async function deleteWebhookEndpoint(input: {
  orgId: string;
  id: string;
}): Promise<EndpointListing | null> {
  const db = await getDb();
  const [row] = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, input.orgId), eq(webhookEndpoints.id, input.id)))
    .returning(endpointColumns);
  return row ?? null;
}

/** How long notices wait for a paused endpoint: resumed within this, they are sent. */
export const PAUSED_KEPT_MS = 24 * 60 * 60_000;

/**
 * Resumes an endpoint: active again with no failures counted, and the notices that waited for
 * it in the last day pending again (older ones are logged as not sent). Null when it is not the
 * organisation's.
 */
export async function resumeWebhookEndpoint(input: {
  orgId: string;
  id: string;
  now?: Date;
}): Promise<{ endpoint: EndpointListing; notices: QueuedNotice[] } | null> {
  const db = await getDb();
  const kept = new Date((input.now ?? new Date()).getTime() - PAUSED_KEPT_MS);
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ status: 'active', consecutiveFailures: 0 })
      .where(and(eq(webhookEndpoints.orgId, input.orgId), eq(webhookEndpoints.id, input.id)))
      .returning(endpointColumns);
    if (!endpoint) return null;
    const paused = and(
      eq(notifications.endpointId, endpoint.id),
      eq(notifications.status, 'paused'),
    );
    await tx
      .update(notifications)
      .set({ status: 'skipped', lastError: 'The endpoint was paused for over a day.' })
      .where(and(paused, sql`${notifications.createdAt} < ${kept.toISOString()}::timestamptz`));
    const notices = await tx
      .update(notifications)
      .set({ status: 'pending', queuedAt: new Date() })
      .where(paused)
      .returning(queuedColumns);
    return { endpoint, notices };
  });
}

/**
 * Counts a delivery attempt against its endpoint: a success makes it active with no failures
 * counted; a failure makes it failing, and paused at `pauseAfter` failures in a row. Returns its
 * state after.
 */
export async function recordEndpointAttempt(input: {
  endpointId: string;
  ok: boolean;
  error?: string;
  pauseAfter: number;
  now?: Date;
}): Promise<{ status: WebhookEndpoint['status']; consecutiveFailures: number } | null> {
  const db = await getDb();
  const at = input.now ?? new Date();
  const [row] = await db
    .update(webhookEndpoints)
    .set(
      input.ok
        ? {
            // A request in flight when the endpoint was paused does not resume it: only an owner
            // or admin does (resumeWebhookEndpoint), which also queues the notices that waited.
            status: sql`case when ${webhookEndpoints.status} = 'paused' then 'paused' else 'active' end`,
            consecutiveFailures: sql`case when ${webhookEndpoints.status} = 'paused' then ${webhookEndpoints.consecutiveFailures} else 0 end`,
            lastSuccessAt: at,
          }
        : {
            consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
            status: sql`case when ${webhookEndpoints.consecutiveFailures} + 1 >= ${input.pauseAfter} then 'paused' else 'failing' end`,
            lastFailureAt: at,
            lastError: input.error ?? null,
          },
    )
    .where(eq(webhookEndpoints.id, input.endpointId))
    .returning({
      status: webhookEndpoints.status,
      consecutiveFailures: webhookEndpoints.consecutiveFailures,
    });
  return row ?? null;
}
