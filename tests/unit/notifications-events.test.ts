import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from '../support/webhook-receiver';

// Webhooks of units' changes and runs' ends (issue 37), to a receiver that verifies each request
// with the Standard Webhooks package: told once, only to an endpoint that chose the kind, only
// for its buildings, in the shapes the OpenAPI document's webhooks section gives.
const receiver = await startWebhookReceiver();
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-events-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
  WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true',
});

const { addThermostat, ensureBuilding } = await import('@/lib/portfolio/store');
const { addWebhook, webhookSchema } = await import('@/lib/notifications/settings');
const { deliverNotices } = await import('@/lib/notifications/delivery');
const { sendEventWebhooks } = await import('@/lib/notifications/events');
const { SETTLE_MS } = await import('@/lib/notifications/store/outbound');
const { recordUnitEvent } = await import('@/lib/units/change');
const { findUnitOfThermostat } = await import('@/lib/units/store');
const { runFinishedWebhookSchema, unitStateWebhookSchema } = await import('@/lib/api/schemas');
const { openApiDocument } = await import('@/lib/api/openapi');
const { databaseWithQueue } = await import('../support/notifications');
const { createFirstOwner } = await import('../support/members');
const { rowsOf } = await import('@/lib/db/client');

const NORTH = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const SOUTH = 'cccccccccccccccccccccccc';

afterAll(async () => {
  await receiver.close();
});

describe('webhooks of units’ changes and runs’ ends', () => {
  const db = databaseWithQueue(async () => ({ kind: 'pglite', dataDir: 'memory://' }));

  const settled = () => new Date(Date.now() + SETTLE_MS + 1000);
  const deliverAll = async () => {
    const ids = rowsOf<{ id: string }>(
      await db.handle.db.execute(
        sql`select id from notifications where status = 'pending' and event in ('unit_state', 'run_finished')`,
      ),
    ).map((row) => row.id);
    if (ids.length > 0) await deliverNotices({ ids });
    return ids.length;
  };

  it('tells an endpoint that chose them of a unit’s change and of its run’s end, once, in its buildings only', async () => {
    const owner = await createFirstOwner('owner@events.example', 'Events Property');
    for (const [building, id] of [
      [NORTH, '500000000001'],
      [SOUTH, '500000000002'],
    ] as const) {
      await ensureBuilding({
        orgId: owner.orgId,
        buildingId: building,
        name: building.slice(0, 4),
        timeZone: 'UTC',
      });
      await addThermostat({
        orgId: owner.orgId,
        thermostatId: id,
        buildingId: building,
        unitLabel: `Apt ${id.slice(-1)}`,
      });
    }
    const added = await addWebhook({
      orgId: owner.orgId,
      createdByName: owner.name,
      endpoint: webhookSchema.parse({
        url: receiver.url,
        description: 'Leasing',
        kinds: ['unit_state', 'run_finished'],
        buildings: { buildingScope: 'chosen', buildingIds: [NORTH] },
      }),
    });
    if (!added.ok) throw new Error('not added');
    receiver.setSecret(added.secret);
    // The first round starts the streams where they are: nothing older is told.
    expect(await sendEventWebhooks()).toEqual({ notices: 0 });

    const north = await findUnitOfThermostat({ scope: owner, thermostatId: '500000000001' });
    const south = await findUnitOfThermostat({ scope: owner, thermostatId: '500000000002' });
    if (!north || !south) throw new Error('no units');
    const moved = await recordUnitEvent({
      member: owner,
      unit: north,
      event: { event: 'move_out' },
    });
    await recordUnitEvent({ member: owner, unit: south, event: { event: 'move_out' } });
    // Not before it has settled (a transaction under way may still commit an earlier one).
    expect(await sendEventWebhooks()).toEqual({ notices: 0 });
    expect(await sendEventWebhooks(settled())).toEqual({ notices: 1 });
    expect(await sendEventWebhooks(settled())).toEqual({ notices: 0 });

    // Its run ends: told once too.
    const runId = moved?.runId as string;
    expect(runId).toBeTruthy();
    await db.handle.db.execute(
      sql`update bulk_runs set state = 'done', applied = 1, finished_at = now() where id = ${runId}`,
    );
    expect(await sendEventWebhooks(settled())).toEqual({ notices: 1 });
    expect(await sendEventWebhooks(settled())).toEqual({ notices: 0 });

    expect(await deliverAll()).toBe(2);
    const bodies = receiver.received
      .filter((request) => request.refusal === null)
      .map((request) => JSON.parse(request.body));
    expect(bodies.map((body) => body.type)).toEqual(['unit.state_changed', 'run.finished']);
    const [change, finished] = bodies;
    expect(unitStateWebhookSchema.parse(change).data).toMatchObject({
      unit: { id: north.id, label: 'Apt 1', buildingId: NORTH },
      from: 'occupied',
      to: 'vacant',
      by: owner.name,
      runId,
      organization: { id: owner.orgId, name: 'Events Property' },
    });
    expect(runFinishedWebhookSchema.parse(finished).data.run).toMatchObject({
      id: runId,
      kind: 'occupancy',
      state: 'done',
      counts: { total: 1, applied: 1 },
      buildingIds: [NORTH],
    });
    // The OpenAPI document describes both.
    const document = openApiDocument() as { webhooks?: Record<string, unknown> };
    expect(Object.keys(document.webhooks ?? {})).toEqual(['unit.state_changed', 'run.finished']);
  });
});
