import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from '../support/webhook-receiver';

// Webhook notifications against a receiver started here that verifies every request with the
// Standard Webhooks package, as an integrator would: signatures, a replay refused, a retry after
// a 500 (through the real queue and its backoff), and an endpoint paused after failing too often.
const receiver = await startWebhookReceiver();
const APP = 'https://setpoint.example.com';
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-hooks-')),
  READINGS_TARGET_MINUTES: '5',
  NEXTAUTH_URL: APP,
  // The receiver listens on 127.0.0.1; tests/unit/notifications-webhook-addresses.test.ts has
  // the setting off.
  WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true',
});

const { findWebhookEndpoint, resumeWebhookEndpoint, listDeliveryLog, recordEndpointAttempt } =
  await import('@/lib/notifications/store');
const { addThermostat, ensureBuilding } = await import('@/lib/portfolio/store');
const { deliverNotices, MAX_ATTEMPTS, queueNotices, sendTestWebhook, WEBHOOK_PAUSE_AFTER } =
  await import('@/lib/notifications/delivery');
const { reconcileOrganization } = await import('@/lib/notifications/incidents');
const { addWebhook, webhookSchema } = await import('@/lib/notifications/settings');
const { connectEveryOrganization, databaseTargets } = await import('../support/database');
const { databaseWithQueue, startDeliveryWorker, storeReading } = await import(
  '../support/notifications'
);
const { until } = await import('../support/wait');
const { createFirstOwner } = await import('../support/members');

import { rowsOf } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';

const NORTH = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const SOUTH = 'cccccccccccccccccccccccc';
afterAll(async () => {
  await receiver.close();
});

describe.each(databaseTargets)('webhook notifications on $name', ({ target }) => {
  const db = databaseWithQueue(target);
  let owner: Member;
  const lastSeen = new Date(Date.now() - 40 * 60_000).toISOString();
  const offline = (thermostatId: string) =>
    storeReading(owner.orgId, thermostatId, { connected: false, lastSeen });

  async function endpoint(choice: { kinds?: string[]; buildingIds?: string[] } = {}) {
    const parsed = webhookSchema.parse({
      url: receiver.url,
      description: 'Work orders',
      kinds: choice.kinds ?? ['offline', 'freeze'],
      buildings: {
        buildingScope: choice.buildingIds ? 'chosen' : 'all',
        buildingIds: choice.buildingIds ?? [],
      },
    });
    const added = await addWebhook({
      orgId: owner.orgId,
      createdByName: 'Owner',
      endpoint: parsed,
    });
    if (!added.ok) throw new Error('not added');
    receiver.setSecret(added.secret);
    return added;
  }

  beforeEach(async () => {
    await db.handle.db.execute(sql`truncate users, organizations cascade`);
    receiver.received.length = 0;
    receiver.failNext(0);
    receiver.failAlways(false);
    owner = await createFirstOwner('owner@example.com', 'Reyes Property');
    for (const [building, ids] of [
      [NORTH, ['100000000001', '100000000002', '100000000004']],
      [SOUTH, ['100000000003']],
    ] as const) {
      await ensureBuilding({
        orgId: owner.orgId,
        buildingId: building,
        name: 'B',
        timeZone: 'UTC',
      });
      for (const id of ids) {
        await addThermostat({
          orgId: owner.orgId,
          thermostatId: id,
          buildingId: building,
          unitLabel: '',
        });
      }
    }
    await connectEveryOrganization(db.handle);
  });

  it('signs every request so the receiver verifies it, and a replay or an old timestamp is refused', async () => {
    const added = await endpoint();
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // The secret is kept sealed, never as it is.
    const stored = await findWebhookEndpoint({ orgId: owner.orgId, id: added.endpoint.id });
    expect(stored?.secretSealed).not.toContain(added.secret.slice(6));

    expect(
      await sendTestWebhook({
        orgId: owner.orgId,
        endpointId: added.endpoint.id,
        recipient: receiver.url,
      }),
    ).toEqual({ ok: true, message: 'The endpoint accepted the signed test request.' });
    const [test] = receiver.received;
    expect(test).toMatchObject({ status: 204, refusal: null });
    expect(JSON.parse(test?.body ?? '{}')).toMatchObject({
      type: 'test',
      data: { organization: { id: owner.orgId, name: 'Reyes Property' } },
    });
    expect(test?.headers['content-type']).toBe('application/json');

    // The same request again, as an attacker who saw it would send it: refused.
    const replay = await fetch(receiver.url, {
      method: 'POST',
      headers: {
        'webhook-id': String(test?.headers['webhook-id']),
        'webhook-timestamp': String(test?.headers['webhook-timestamp']),
        'webhook-signature': String(test?.headers['webhook-signature']),
      },
      body: test?.body,
    });
    expect(replay.status).toBe(409);
    // Its body changed: the signature no longer matches.
    const forged = await fetch(receiver.url, {
      method: 'POST',
      headers: {
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(test?.headers['webhook-timestamp']),
        'webhook-signature': String(test?.headers['webhook-signature']),
      },
      body: test?.body,
    });
    expect(forged.status).toBe(400);
    // Signed with the right secret, but ten minutes old: refused as a replay by its timestamp.
    const old = new Date(Date.now() - 10 * 60_000);
    const stale = await fetch(receiver.url, {
      method: 'POST',
      headers: {
        'webhook-id': 'msg_old',
        'webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
        'webhook-signature': new Webhook(added.secret).sign('msg_old', old, '{}'),
      },
      body: '{}',
    });
    expect(stale.status).toBe(400);
    expect(receiver.received.at(-1)?.refusal).toBe('Message timestamp too old');
  });

  it('retries after the receiver answers 500, with the same message id, until it is accepted', async () => {
    await db.boss.updateQueue('deliver-notification', { retryDelay: 1, retryBackoff: false });
    await startDeliveryWorker(db.boss);
    try {
      const added = await endpoint();
      receiver.failNext(1);
      await offline('100000000001');
      await reconcileOrganization({ orgId: owner.orgId });
      const [first, second] = await receiver.waitFor(2);
      expect(first).toMatchObject({ status: 500 });
      expect(second).toMatchObject({ status: 204, refusal: null, id: first?.id });
      expect(second?.timestamp).toBeGreaterThanOrEqual(first?.timestamp ?? 0);
      const body = JSON.parse(second?.body ?? '{}');
      expect(body).toMatchObject({
        type: 'incident.opened',
        data: {
          incident: {
            kind: 'offline',
            title: 'Offline',
            thermostatId: '100000000001',
            buildingId: NORTH,
            link: `${APP}/thermostats/100000000001`,
            status: 'open',
          },
        },
      });
      await until(
        async () => (await listDeliveryLog({ orgId: owner.orgId }))[0]?.status === 'sent',
      );
      expect((await listDeliveryLog({ orgId: owner.orgId }))[0]).toMatchObject({
        channel: 'webhook',
        // The log keeps the origin only: a hook's path can carry its token.
        recipient: `${new URL(receiver.url).origin}/…`,
        status: 'sent',
        attempts: 2,
        lastError: null,
      });
      expect(
        await findWebhookEndpoint({ orgId: owner.orgId, id: added.endpoint.id }),
      ).toMatchObject({
        status: 'active',
        consecutiveFailures: 0,
        lastError: 'The endpoint failed with a server error (HTTP 500).',
      });
    } finally {
      await db.boss.offWork('deliver-notification');
      await db.boss.updateQueue('deliver-notification', { retryDelay: 30, retryBackoff: true });
    }
  });

  it('sends only the kinds and buildings an endpoint takes', async () => {
    await endpoint({ kinds: ['offline'], buildingIds: [SOUTH] });
    await offline('100000000001');
    await offline('100000000003');
    await reconcileOrganization({ orgId: owner.orgId });
    const log = await listDeliveryLog({ orgId: owner.orgId });
    expect(log.map((entry) => entry.incident?.thermostatId)).toEqual(['100000000003']);
  });

  it('marks a failing endpoint failing, pauses it after the limit without retrying forever, and sends what waited once resumed', async () => {
    const added = await endpoint();
    receiver.failAlways(true);
    for (const id of ['100000000001', '100000000002', '100000000004']) await offline(id);
    await reconcileOrganization({ orgId: owner.orgId });
    const ids = rowsOf<{ id: string }>(
      await db.handle.db.execute(sql`select id from notifications order by created_at, id`),
    ).map((row) => row.id);
    expect(ids).toHaveLength(3);

    // Each attempt as the queue would make it, until the endpoint is paused.
    let attempts = 0;
    for (const id of ids) {
      for (let round = 0; round < 8; round++) {
        const outcome = await deliverNotices({ ids: [id] });
        attempts += 1;
        if (!outcome.retry) break;
      }
      const state = await findWebhookEndpoint({ orgId: owner.orgId, id: added.endpoint.id });
      if (state?.status === 'paused') break;
      expect(state?.status).toBe('failing');
    }
    expect(attempts).toBe(WEBHOOK_PAUSE_AFTER);
    expect(receiver.received).toHaveLength(WEBHOOK_PAUSE_AFTER);
    const paused = await findWebhookEndpoint({ orgId: owner.orgId, id: added.endpoint.id });
    expect(paused).toMatchObject({
      status: 'paused',
      consecutiveFailures: WEBHOOK_PAUSE_AFTER,
      lastError: 'The endpoint failed with a server error (HTTP 500).',
    });
    // A paused endpoint gets nothing more: its notices wait, logged as paused.
    for (const id of ids) await deliverNotices({ ids: [id] });
    expect(receiver.received).toHaveLength(WEBHOOK_PAUSE_AFTER);
    const statuses = async () =>
      (await listDeliveryLog({ orgId: owner.orgId })).map((entry) => entry.status).sort();
    // The first notice gave up after its attempts; the others wait for the endpoint.
    expect(await statuses()).toEqual(['failed', 'paused', 'paused']);

    // Fixed and resumed: what waited goes.
    receiver.failAlways(false);
    const resumed = await resumeWebhookEndpoint({ orgId: owner.orgId, id: added.endpoint.id });
    expect(resumed?.endpoint.status).toBe('active');
    expect(resumed?.notices).toHaveLength(2);
    await startDeliveryWorker(db.boss);
    try {
      await queueNotices(resumed?.notices ?? []);
      await until(async () => (await statuses()).join() === 'failed,sent,sent');
    } finally {
      await db.boss.offWork('deliver-notification');
    }
  });

  it('counts an attempt that throws (a secret that no longer unseals) and gives up after the limit', async () => {
    const added = await endpoint();
    await db.handle.db.execute(
      sql`update webhook_endpoints set secret_sealed = 'v1.garbage' where id = ${added.endpoint.id}`,
    );
    await offline('100000000001');
    await reconcileOrganization({ orgId: owner.orgId });
    const ids = rowsOf<{ id: string }>(
      await db.handle.db.execute(sql`select id from notifications`),
    ).map((row) => row.id);
    expect(await deliverNotices({ ids })).toMatchObject({ retry: true, sent: 0 });
    expect((await listDeliveryLog({ orgId: owner.orgId }))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'Setpoint could not send it (an error on the server).',
    });
    for (let round = 1; round < MAX_ATTEMPTS; round++) await deliverNotices({ ids });
    expect((await listDeliveryLog({ orgId: owner.orgId }))[0]).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('a success answered after the endpoint was paused does not make it active again', async () => {
    const added = await endpoint();
    await db.handle.db.execute(
      sql`update webhook_endpoints set status = 'paused', consecutive_failures = 10 where id = ${added.endpoint.id}`,
    );
    expect(
      await recordEndpointAttempt({ endpointId: added.endpoint.id, ok: true, pauseAfter: 10 }),
    ).toEqual({ status: 'paused', consecutiveFailures: 10 });
  });

  it('refuses an address that is not http(s) or carries a password', () => {
    const parse = (url: string) =>
      webhookSchema.safeParse({
        url,
        description: '',
        kinds: ['offline'],
        buildings: { buildingScope: 'all', buildingIds: [] },
      }).error?.issues[0]?.message;
    expect(parse('ftp://example.com/')).toBe('Use an https:// address.');
    expect(parse('https://user:pw@example.com/')).toMatch(/Leave the user name and password out/);
    expect(parse('not a url')).toMatch(/Enter a full address/);
    expect(parse('https://hooks.example.com/in')).toBeUndefined();
  });
});
