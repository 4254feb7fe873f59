import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/auth/store';
import type { DatabaseHandle } from '@/lib/db/client';

// The page's actions ask the session who is signed in: whoever the test says.
vi.mock('@/lib/auth/session', () =>
  import('../support/session').then((mocked) => mocked.sessionModule),
);
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
// A redirect ends an action, as in Next, with where it went.
vi.mock('next/navigation', () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error('redirect'), { to });
  },
}));

Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-lease-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
});

const { session } = await import('../support/session');
const { useDatabase } = await import('../support/database');
const { createFirstOwner, createOrganizationWithOwner, inviteAndAccept } = await import(
  '../support/members'
);
const { answerChecker } = await import('../support/openapi');
const { openApiDocument } = await import('@/lib/api/openapi');
const { addThermostat, ensureBuilding } = await import('@/lib/portfolio/store');
const { createUnit, updateUnit } = await import('@/lib/portfolio/units');
const { findUnit } = await import('@/lib/units/store');
const { makeInboxAction, importLeaseCsvAction, mapLeaseEventAction } = await import(
  '@/app/(app)/lease-events/actions'
);
const inboxRoute = await import('@/app/api/v1/lease-events/[inboxId]/route');
const { listLeaseEvents } = await import('@/lib/units/lease-events');
const { findLeaseInbox } = await import('@/lib/units/lease-inbox');
const { sql } = await import('drizzle-orm');
const { rowsOf } = await import('@/lib/db/client');

const BUILDING = 'aaaaaaaaaaaaaaaaaaaaaaa1';
const BASE = 'https://setpoint.example.com';

const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
};

/**
 * Lease events (issue 37): a property-management system's notices, move-outs, move-ins and
 * transfers, by signed webhook or CSV, each recorded once through the unit's lifecycle, in the
 * order they happened; replays, old timestamps and wrong secrets refused; an unknown unit's event
 * kept until an admin gives a unit its id.
 */
describe('lease events', () => {
  let handle: DatabaseHandle;
  let owner: Member;
  let admin: Member;
  let manager: Member;
  let inboxId = '';
  let secret = '';
  const unitIds: Record<string, string> = {};
  const check = answerChecker(openApiDocument() as never);

  /** Sends an event to the inbox as the property-management system would, signed. */
  async function send(
    event: unknown,
    options: { id?: string; at?: Date; secret?: string; inbox?: string } = {},
  ) {
    const id = options.id ?? `msg_${randomBytes(8).toString('hex')}`;
    const body = JSON.stringify(event);
    const at = options.at ?? new Date();
    const signature = new Webhook(options.secret ?? secret).sign(id, at, body);
    const inbox = options.inbox ?? inboxId;
    const response = await inboxRoute.POST(
      new Request(`${BASE}/api/v1/lease-events/${inbox}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
      }),
      { params: Promise.resolve({ inboxId: inbox }) },
    );
    const answer = await response.json();
    check({
      path: '/api/v1/lease-events/{inboxId}',
      method: 'post',
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: answer,
    });
    return { status: response.status, body: answer, id };
  }

  const stateOf = async (external: string) =>
    (await findUnit({ scope: owner, unitId: unitIds[external] as string }))?.occupancy.state;

  const runsOf = async (external: string) =>
    rowsOf<{ n: number }>(
      await handle.db.execute(
        sql`select count(*)::int as n from bulk_runs where kind = 'occupancy' and changes ->> 'unitId' = ${unitIds[external]}`,
      ),
    )[0]?.n;

  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

  beforeAll(async () => {
    handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
    owner = await createFirstOwner('owner@lease.example', 'Lease Property');
    admin = await inviteAndAccept(owner.orgId, 'admin@lease.example', 'admin');
    manager = await inviteAndAccept(owner.orgId, 'manager@lease.example', 'building_manager', [
      BUILDING,
    ]);
    await ensureBuilding({
      orgId: owner.orgId,
      buildingId: BUILDING,
      name: 'Harbor View',
      timeZone: 'America/New_York',
    });
    for (let n = 1; n <= 5; n += 1) {
      await addThermostat({
        orgId: owner.orgId,
        thermostatId: String(400000000000 + n),
        buildingId: BUILDING,
        unitLabel: `Unit ${n}`,
      });
      const [unit] = rowsOf<{ id: string }>(
        await handle.db.execute(
          sql`select id from units where thermostat_id = ${String(400000000000 + n)}`,
        ),
      );
      const external = `PMS-${n}`;
      await updateUnit({
        orgId: owner.orgId,
        unitId: unit?.id as string,
        label: `Unit ${n}`,
        externalId: external,
      });
      unitIds[external] = unit?.id as string;
    }
  });

  afterAll(async () => {
    await handle?.close();
  });

  it('owners and admins make the inbox (its secret shown once); a building manager is refused', async () => {
    session.member = manager;
    expect((await makeInboxAction({ status: 'idle' }, new FormData())).status).toBe('error');
    expect(await findLeaseInbox(owner.orgId)).toBeNull();
    session.member = admin;
    const made = await makeInboxAction({ status: 'idle' }, new FormData());
    expect(made).toMatchObject({ status: 'success' });
    expect(made.secret).toMatch(/^whsec_/);
    const inbox = await findLeaseInbox(owner.orgId);
    expect(made.message).toContain(`${BASE}/api/v1/lease-events/${inbox?.id}`);
    inboxId = inbox?.id as string;
    secret = made.secret as string;
    // Kept sealed, never as it is.
    const stored = rowsOf<{ secret_sealed: string }>(
      await handle.db.execute(sql`select secret_sealed from lease_inboxes`),
    );
    expect(JSON.stringify(stored)).not.toContain(secret.slice(6));
  });

  it('records a signed move-out once: a replay of its webhook-id, even at once, changes nothing', async () => {
    const event = { type: 'move_out', unit: 'PMS-1', occurredAt: ago(30) };
    const id = 'msg_move_out_1';
    const [first, second] = await Promise.all([send(event, { id }), send(event, { id })]);
    const answers = [first, second].sort((a) => (a.body.replayed ? 1 : -1));
    expect(answers[0]?.body).toMatchObject({ outcome: 'applied', replayed: false });
    expect(answers[1]?.body).toMatchObject({ outcome: 'applied', replayed: true });
    expect(answers[0]?.body.runIds).toHaveLength(1);
    const again = await send(event, { id });
    expect(again.body).toMatchObject({ id: first.body.id, replayed: true });
    expect(await stateOf('PMS-1')).toBe('vacant');
    expect(await runsOf('PMS-1')).toBe(1);
    // The timeline names who recorded it.
    const [entry] = rowsOf<{ actor_name: string }>(
      await handle.db.execute(
        sql`select actor_name from unit_events where unit_id = ${unitIds['PMS-1']}`,
      ),
    );
    expect(entry?.actor_name).toBe('Property-management system');
  });

  it('refuses a wrong secret, an old timestamp, another inbox’s address and a bad body, recording nothing', async () => {
    const event = { type: 'move_out', unit: 'PMS-2', occurredAt: ago(5) };
    const wrong = await send(event, { secret: `whsec_${randomBytes(32).toString('base64')}` });
    expect(wrong.status).toBe(401);
    const old = await send(event, { at: new Date(Date.now() - 10 * 60_000) });
    expect(old.status).toBe(401);
    expect(old.body.detail).toMatch(/more than five minutes/);
    const nowhere = await send(event, { inbox: '00000000-0000-4000-8000-000000000000' });
    expect(nowhere.status).toBe(404);
    const bad = await send({ type: 'notice', unit: 'PMS-2', occurredAt: ago(5) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'moveOutOn', message: expect.any(String) }]);
    expect(await stateOf('PMS-2')).toBe('occupied');
    const recorded = await listLeaseEvents({ orgId: owner.orgId });
    expect(recorded.map((row) => row.externalUnitId)).not.toContain('PMS-2');
  });

  it('applies a unit’s events in the order they happened: a move-out that arrives after the move-in that followed it changes nothing, and a move-in sent ahead of its move-out is scheduled once the move-out comes', async () => {
    // Unit 3 is vacant, then the next resident moves in; the move-out before it arrives late.
    await send({ type: 'move_out', unit: 'PMS-3', occurredAt: ago(120) });
    expect(await stateOf('PMS-3')).toBe('vacant');
    const moveIn = await send({
      type: 'move_in',
      unit: 'PMS-3',
      occurredAt: ago(10),
      moveInAt: ago(10),
    });
    expect(moveIn.body.outcome).toBe('applied');
    expect(await stateOf('PMS-3')).toBe('occupied');
    const late = await send({ type: 'move_out', unit: 'PMS-3', occurredAt: ago(60) });
    expect(late.body).toMatchObject({ outcome: 'stale' });
    expect(late.body.detail).toMatch(/later move-in .* already recorded/);
    expect(await stateOf('PMS-3')).toBe('occupied');
    // A move-in still to come is scheduled; one that does not fit is refused in words.
    const notice = await send({
      type: 'notice',
      unit: 'PMS-4',
      occurredAt: ago(5),
      moveOutOn: '2027-01-31',
    });
    expect(notice.body.outcome).toBe('applied');
    const early = await send({
      type: 'move_in',
      unit: 'PMS-4',
      occurredAt: ago(4),
      moveInAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    expect(early.body).toMatchObject({ outcome: 'refused' });
    expect(early.body.detail).toMatch(/record the move-out first\. Nothing was changed\./);
    expect(await stateOf('PMS-4')).toBe('notice_given');
    // The move-out it follows arrives after it: recorded, then the move-in is tried again and
    // scheduled.
    const moveOut = await send({ type: 'move_out', unit: 'PMS-4', occurredAt: ago(4.5) });
    expect(moveOut.body.outcome).toBe('applied');
    expect(await stateOf('PMS-4')).toBe('move_in_scheduled');
    const [retried] = (await listLeaseEvents({ orgId: owner.orgId })).filter(
      (row) => row.id === early.body.id,
    );
    expect(retried).toMatchObject({ outcome: 'applied' });
    // Back to notice given for the transfer test below: the move-in cancelled, the unit let again.
    await send({ type: 'move_in', unit: 'PMS-4', occurredAt: ago(3), moveInAt: ago(3) });
    await send({ type: 'notice', unit: 'PMS-4', occurredAt: ago(2.5), moveOutOn: '2027-05-31' });
    expect(await stateOf('PMS-4')).toBe('notice_given');
  });

  it('a transfer moves the resident out of one unit and in to the other, both or neither', async () => {
    const moved = await send({
      type: 'transfer',
      unit: 'PMS-1',
      toUnit: 'PMS-5',
      occurredAt: ago(2),
    });
    // Unit 1 is vacant already and Unit 5 occupied: nothing to change, both already so.
    expect(moved.body).toMatchObject({ outcome: 'unchanged' });
    const back = await send({
      type: 'transfer',
      unit: 'PMS-5',
      toUnit: 'PMS-1',
      occurredAt: ago(1),
    });
    expect(back.body.outcome).toBe('applied');
    expect(back.body.unitIds.sort()).toEqual([unitIds['PMS-1'], unitIds['PMS-5']].sort());
    expect(await stateOf('PMS-5')).toBe('vacant');
    expect(await stateOf('PMS-1')).toBe('occupied');
    // Into a unit under notice: refused, and the other unit is left as it was.
    const refused = await send({
      type: 'transfer',
      unit: 'PMS-1',
      toUnit: 'PMS-4',
      occurredAt: new Date().toISOString(),
    });
    expect(refused.body.outcome).toBe('refused');
    expect(await stateOf('PMS-1')).toBe('occupied');
  });

  it('keeps an event for an unknown unit until an admin gives a unit its id, then applies what waited, in order', async () => {
    const made = await createUnit({
      orgId: owner.orgId,
      buildingId: BUILDING,
      label: 'Unit 9',
      externalId: null,
    });
    if (!made.ok) throw new Error('no unit');
    const notice = await send({
      type: 'notice',
      unit: 'PMS-9',
      occurredAt: ago(20),
      moveOutOn: '2027-02-28',
    });
    expect(notice.body).toMatchObject({ outcome: 'unmatched', unitIds: [] });
    const moveOut = await send({ type: 'move_out', unit: 'PMS-9', occurredAt: ago(10) });
    expect(moveOut.body.outcome).toBe('unmatched');
    const waiting = await listLeaseEvents({ orgId: owner.orgId, unmatched: true });
    expect(waiting).toHaveLength(2);
    // A building manager may not map it; an admin may.
    session.member = manager;
    const form = formOf({ eventId: notice.body.id, unitId: made.unitId });
    expect((await mapLeaseEventAction({ status: 'idle' }, form)).status).toBe('error');
    session.member = admin;
    // Forged ids: an event that is not one, and another organisation's unit.
    const forged = await mapLeaseEventAction(
      { status: 'idle' },
      formOf({ eventId: '00000000-0000-4000-8000-000000000000', unitId: made.unitId }),
    );
    expect(forged).toMatchObject({
      status: 'error',
      message: 'That event no longer waits for a unit.',
    });
    const stranger = await createOrganizationWithOwner('stranger@lease.example', 'Other Co');
    await ensureBuilding({
      orgId: stranger.orgId,
      buildingId: BUILDING,
      name: 'Theirs',
      timeZone: 'UTC',
    });
    const theirs = await createUnit({
      orgId: stranger.orgId,
      buildingId: BUILDING,
      label: 'Their unit',
      externalId: null,
    });
    if (!theirs.ok) throw new Error('no unit');
    const elsewhere = await mapLeaseEventAction(
      { status: 'idle' },
      formOf({ eventId: notice.body.id, unitId: theirs.unitId }),
    );
    expect(elsewhere).toMatchObject({
      status: 'error',
      message: 'That unit is not in your portfolio.',
    });
    expect(await listLeaseEvents({ orgId: owner.orgId, unmatched: true })).toHaveLength(2);
    const went = await mapLeaseEventAction({ status: 'idle' }, form).catch(
      (error: { to?: string }) => error.to,
    );
    const { readNotice } = await import('@/lib/platform/notice');
    const said = readNotice(Object.fromEntries(new URL(String(went), BASE).searchParams), admin);
    expect(String(went)).toMatch(/^\/lease-events\?notice=/);
    expect(JSON.stringify(said)).toMatch(/2 events waiting for it were applied in order/);
    const unit = await findUnit({ scope: owner, unitId: made.unitId });
    expect(unit).toMatchObject({ externalId: 'PMS-9', occupancy: { state: 'vacant' } });
    expect(await listLeaseEvents({ orgId: owner.orgId, unmatched: true })).toEqual([]);
    // Mapped again: nothing waits.
    expect((await mapLeaseEventAction({ status: 'idle' }, form)).status).toBe('error');
  });

  it('records a CSV of the same events in the order they happened, each event id once', async () => {
    const csv = [
      'event id,type,unit,occurred at,move-out on,move-in at,to unit',
      `E-3,move in,PMS-2,${ago(1)},,${ago(1)},`,
      `E-1,notice,PMS-2,${ago(30)},2027-03-31,,`,
      `E-2,move out,PMS-2,${ago(20)},,,`,
      'E-4,moved away,PMS-2,2027-01-01T00:00:00Z,,,',
    ].join('\n');
    session.member = owner;
    const first = await importLeaseCsvAction({ status: 'idle' }, formOf({ csv }));
    expect(first.report?.map((row) => [row.line, row.outcome])).toEqual([
      [2, 'done'],
      [3, 'done'],
      [4, 'done'],
      [5, 'failed'],
    ]);
    expect(first.report?.[3]?.detail).toMatch(/notice, move out, move in or transfer/);
    expect(await stateOf('PMS-2')).toBe('occupied');
    const again = await importLeaseCsvAction({ status: 'idle' }, formOf({ csv }));
    expect(again.report?.slice(0, 3).map((row) => row.outcome)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    expect(again.report?.[0]?.detail).toMatch(/recorded before/);
    session.member = manager;
    expect((await importLeaseCsvAction({ status: 'idle' }, formOf({ csv }))).status).toBe('error');
  });
});
