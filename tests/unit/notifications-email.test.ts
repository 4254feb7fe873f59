import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpServer } from '../support/smtp';

// Email notifications end to end below the page: readings stored as the poller stores them, the
// reconcile job's incidents, the delivery job on the real queue, and a real SMTP server started
// here that receives and parses every message. Before anything reads the configuration: email on,
// pointing at that server, and the app's address for links.
const smtp = await startSmtpServer();
const APP = 'https://setpoint.example.com';
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-notify-')),
  READINGS_TARGET_MINUTES: '5',
  NEXTAUTH_URL: APP,
  SMTP_URL: smtp.url,
  SMTP_FROM: 'Setpoint <alerts@setpoint.example.com>',
});

const {
  saveNotificationRules,
  listDeliveryLog,
  listIncidents,
  listNoticesToDeliver,
  listStrandedNotices,
} = await import('@/lib/notifications/store');
const { updateMembership } = await import('@/lib/members/store');
const { addThermostat, ensureBuilding } = await import('@/lib/portfolio/store');
const { getBoss, stopBoss } = await import('@/lib/queue/queue');
const { deliverNotices, sendTestEmail } = await import('@/lib/notifications/delivery');
const { reconcileOrganization, runNotificationRound, sendDueDigests } = await import(
  '@/lib/notifications/incidents'
);
const { minutesIn } = await import('@/lib/notifications/quiet-hours');
const { connectEveryOrganization, databaseTargets, useDatabase } = await import(
  '../support/database'
);
const { databaseWithQueue, startDeliveryWorker, storeReading, subscribe } = await import(
  '../support/notifications'
);
const { createFirstOwner, inviteAndAccept } = await import('../support/members');
const { retryBulkRun, startBulkRun } = await import('@/lib/bulk/runs');
const { workBulkRun } = await import('../support/runs');

import { rowsOf } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import { applyAllBut } from '../support/bulk-service';

const NORTH = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const SOUTH = 'cccccccccccccccccccccccc';
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
const minutesOn = (n: number) => new Date(Date.now() + n * 60_000);

afterAll(async () => {
  await smtp.close();
});

describe.each(databaseTargets)('email notifications on $name', ({ target }) => {
  const db = databaseWithQueue(target);
  let owner: Member;

  const read = (thermostatId: string, at: Date, fields: Record<string, unknown> = {}) =>
    storeReading(owner.orgId, thermostatId, fields, at);
  // Last seen 40 minutes before the test began: past the offline rule's 30.
  const lastSeen = minutesAgo(40).toISOString();
  const offline = (thermostatId: string, at = minutesAgo(1)) =>
    read(thermostatId, at, { connected: false, lastSeen });

  async function notices() {
    const result = await db.handle.db.execute(sql`
      select n.recipient, n.status, n.event, n.attempts, n.last_error as "lastError",
        i.kind, i.subject
      from notifications n left join incidents i on i.id = n.incident_id
      order by n.created_at, n.recipient`);
    return rowsOf<{
      recipient: string;
      status: string;
      event: string;
      attempts: number;
      lastError: string | null;
      kind: string;
      subject: string;
    }>(result);
  }

  const ALL = ['100000000001', '100000000002', '100000000003'];
  const managerOf = (building: typeof NORTH | typeof SOUTH) =>
    inviteAndAccept(
      owner.orgId,
      `${building === NORTH ? 'north' : 'south'}@example.com`,
      'building_manager',
      [building],
    );

  /** The owner's bulk change over both buildings, worked to its end with `failing` failed. */
  async function ownerRunFailing(...failing: string[]): Promise<string> {
    const started = await startBulkRun({
      member: owner,
      thermostatIds: ALL,
      values: { fanMinimumOnTime: '20' },
    });
    if (!started.ok) throw new Error(started.message);
    expect(await workBulkRun({ runId: started.run.id, apply: applyAllBut(...failing) })).toBe(
      'finished',
    );
    return started.run.id;
  }

  /** A retry of a run's failures by `member`, queued: its id. */
  async function retryOf(member: Member, runId: string): Promise<string> {
    const retry = await retryBulkRun({ member, runId });
    if (!retry.ok) throw new Error(retry.message);
    return retry.run.id;
  }

  /** The owner told of a failed run's end: a retry reached every thermostat. */
  async function expectEndTold() {
    const [, resolved] = await smtp.waitFor(2);
    expect(resolved?.subject).toBe('Resolved: Bulk change failed: A bulk change');
    expect(resolved?.text).toContain('A retry reached every thermostat');
  }

  beforeEach(async () => {
    await db.handle.db.execute(sql`truncate users, organizations cascade`);
    smtp.inbox.length = 0;
    smtp.refuse(null);
    owner = await createFirstOwner('owner@example.com', 'Reyes Property');
    for (const [building, name, zone, ids] of [
      [NORTH, 'North House', 'America/New_York', ['100000000001', '100000000002']],
      [SOUTH, 'South Court', 'America/Phoenix', ['100000000003']],
    ] as const) {
      await ensureBuilding({ orgId: owner.orgId, buildingId: building, name, timeZone: zone });
      for (const id of ids) {
        await addThermostat({
          orgId: owner.orgId,
          thermostatId: id,
          buildingId: building,
          unitLabel: `Unit ${id.slice(-1)}`,
        });
      }
    }
    await connectEveryOrganization(db.handle);
    await startDeliveryWorker(db.boss);
  });
  afterEach(async () => {
    await db.boss.offWork('deliver-notification');
  });

  it('opens one incident for a thermostat offline over several readings, emails it with a link, and emails its end', async () => {
    await subscribe(owner);
    for (const minutes of [3, 2, 1]) {
      await offline('100000000001', minutesAgo(minutes));
      await reconcileOrganization({ orgId: owner.orgId });
    }
    const open = rowsOf<{ kind: string; subject: string; notified: boolean; resolved: boolean }>(
      await db.handle.db.execute(sql`
        select kind, subject, notified_at is not null as notified, resolved_at is not null as resolved
        from incidents`),
    );
    expect(open).toEqual([
      { kind: 'offline', subject: '100000000001', notified: true, resolved: false },
    ]);

    const [opened] = await smtp.waitFor(1);
    expect(opened?.subject).toBe('Offline: Unit 1, North House');
    expect(opened?.to && 'text' in opened.to ? opened.to.text : '').toBe('owner@example.com');
    expect(opened?.from?.value[0]).toMatchObject({
      name: 'Setpoint',
      address: 'alerts@setpoint.example.com',
    });
    expect(opened?.text).toContain('Not heard from for 40 min');
    expect(opened?.text).toContain(`Open it: ${APP}/thermostats/100000000001`);
    expect(opened?.html).toContain(`<a href="${APP}/thermostats/100000000001">`);
    expect(opened?.text).toContain(`${APP}/notifications`);

    // Back online: the incident resolves, and the owner hears so once.
    await read('100000000001', new Date());
    await reconcileOrganization({ orgId: owner.orgId });
    await reconcileOrganization({ orgId: owner.orgId });
    const [, resolved] = await smtp.waitFor(2);
    expect(resolved?.subject).toBe('Resolved: Offline: Unit 1, North House');
    expect(resolved?.text).toMatch(/Back online after 4\d min\./);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.inbox).toHaveLength(2);
    expect(
      (await listDeliveryLog({ orgId: owner.orgId })).map((entry) => [
        entry.event,
        entry.status,
        entry.attempts,
      ]),
    ).toEqual([
      ['resolved', 'sent', 1],
      ['opened', 'sent', 1],
    ]);
  });

  it('resolves one cause of a thermostat while another stays open, and tells of the one that ended', async () => {
    await subscribe(owner);
    await saveNotificationRules({
      orgId: owner.orgId,
      rules: [{ kind: 'freeze', enabled: true, delayMinutes: 0 }],
    });
    // Offline, and last seen at 41 °F: two causes on one thermostat.
    await read('100000000001', minutesAgo(1), { connected: false, lastSeen, temperature: 41 });
    await reconcileOrganization({ orgId: owner.orgId });
    await smtp.waitFor(1);
    // Back online, still cold: the offline incident ends (and is told), freeze risk stays open.
    await read('100000000001', new Date(), { temperature: 41 });
    await reconcileOrganization({ orgId: owner.orgId });
    const state = rowsOf<{ kind: string; resolved: boolean; how: string | null }>(
      await db.handle.db.execute(sql`
        select kind, resolved_at is not null as resolved, resolution as how
        from incidents order by kind`),
    );
    expect(state).toEqual([
      { kind: 'freeze', resolved: false, how: null },
      { kind: 'offline', resolved: true, how: 'cleared' },
    ]);
    const mail = await smtp.waitFor(smtp.inbox.length + 1);
    expect(mail.at(-1)?.subject).toBe('Resolved: Offline: Unit 1, North House');
  });

  it('holds a non-urgent notice through quiet hours in the building’s zone and lets an urgent one through', async () => {
    const local = minutesIn('America/New_York', new Date());
    await subscribe(owner, {
      quietStart: (local - 60 + 1440) % 1440,
      quietEnd: (local + 60) % 1440,
    });
    await saveNotificationRules({
      orgId: owner.orgId,
      rules: [{ kind: 'freeze', enabled: true, delayMinutes: 0 }],
    });
    await offline('100000000001');
    await read('100000000002', minutesAgo(1), { temperature: 41 });
    await reconcileOrganization({ orgId: owner.orgId });

    const [urgent] = await smtp.waitFor(1);
    expect(urgent?.subject).toBe('Urgent: Freeze risk: Unit 2, North House');
    expect(urgent?.text).toContain('41 °F, below 45 °F: pipes can freeze.');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.inbox).toHaveLength(1);
    expect((await notices()).map((n) => [n.kind, n.status])).toEqual(
      expect.arrayContaining([
        ['offline', 'held'],
        ['freeze', 'sent'],
      ]),
    );

    // An hour on, quiet hours have ended there: the held notice goes.
    await runNotificationRound(minutesOn(61));
    const [, held] = await smtp.waitFor(2);
    expect(held?.subject).toBe('Offline: Unit 1, North House');
  });

  it('puts a notice held by quiet hours into the digest when the member has switched to one since', async () => {
    const local = minutesIn('America/New_York', new Date());
    const quiet = { quietStart: (local - 60 + 1440) % 1440, quietEnd: (local + 60) % 1440 };
    await subscribe(owner, quiet);
    await offline('100000000001');
    await reconcileOrganization({ orgId: owner.orgId });
    const opened = async () => (await notices()).filter((n) => n.event === 'opened');
    expect((await opened()).map((n) => [n.kind, n.status])).toEqual([['offline', 'held']]);

    // A daily digest from now on (quiet hours kept): when quiet hours end, nothing goes at once.
    await subscribe(owner, { ...quiet, mode: 'digest', digestHour: 0 });
    await runNotificationRound(minutesOn(61));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.inbox).toHaveLength(0);
    expect((await opened()).map((n) => n.status)).toEqual(['digest']);

    // It goes in the digest.
    expect(await sendDueDigests()).toBe(1);
    const [digest] = await smtp.waitFor(1);
    expect(digest?.subject).toMatch(/^Setpoint daily digest for Reyes Property: 1 opened/);
    expect(digest?.text).toContain(`${APP}/thermostats/100000000001`);
    expect((await opened()).map((n) => n.status)).toEqual(['sent']);
  });

  it('follows the member’s choice as it is when quiet hours end, however the notice came to be held', async () => {
    const local = minutesIn('America/New_York', new Date());
    await subscribe(owner, {
      quietStart: (local - 60 + 1440) % 1440,
      quietEnd: (local + 60) % 1440,
    });
    await offline('100000000001');
    await reconcileOrganization({ orgId: owner.orgId });
    // The choice changed after the notice was held without passing over it: as when a round that
    // read the old choice writes its notice just after the member saved the new one.
    await db.handle.db.execute(
      sql`update notification_subscriptions set mode = 'digest', digest_hour = 0`,
    );
    await runNotificationRound(minutesOn(61));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.inbox).toHaveLength(0);
    const opened = (await notices()).filter((n) => n.event === 'opened');
    expect(opened.map((n) => n.status)).toEqual(['digest']);

    // Turned off the same way: not sent at all, and the log says why.
    await db.handle.db.execute(sql`update notifications set status = 'held', not_before = now()`);
    await db.handle.db.execute(sql`update notification_subscriptions set mode = 'off'`);
    await runNotificationRound(minutesOn(61));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.inbox).toHaveLength(0);
    expect((await notices()).filter((n) => n.event === 'opened')).toMatchObject([
      { status: 'skipped', lastError: 'Email notifications were turned off.' },
    ]);
  });

  it('does not send a notice held by quiet hours once the member has turned email off', async () => {
    const local = minutesIn('America/New_York', new Date());
    const quiet = { quietStart: (local - 60 + 1440) % 1440, quietEnd: (local + 60) % 1440 };
    await subscribe(owner, quiet);
    await offline('100000000001');
    await reconcileOrganization({ orgId: owner.orgId });
    await subscribe(owner, { ...quiet, mode: 'off' });
    await runNotificationRound(minutesOn(61));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.inbox).toHaveLength(0);
    expect((await notices()).filter((n) => n.event === 'opened')).toMatchObject([
      { status: 'skipped', lastError: 'Email notifications were turned off.' },
    ]);
  });

  it('keeps what waited for the digest to the end of quiet hours when the member switches to email at once during them', async () => {
    await subscribe(owner, { mode: 'digest', digestHour: 0 });
    await offline('100000000001');
    await reconcileOrganization({ orgId: owner.orgId });
    const opened = async () => (await notices()).filter((n) => n.event === 'opened');
    expect((await opened()).map((n) => n.status)).toEqual(['digest']);

    // Email at once from now on, with quiet hours that hold now in the building's zone (the
    // member's own zone, UTC, may not be quiet): nothing is queued, the notice waits for the end.
    const local = minutesIn('America/New_York', new Date());
    const queued = await subscribe(owner, {
      quietStart: (local - 60 + 1440) % 1440,
      quietEnd: (local + 60) % 1440,
    });
    expect(queued).toEqual([]);
    expect((await opened()).map((n) => n.status)).toEqual(['held']);
    const [{ notBefore }] = rowsOf<{ notBefore: string }>(
      await db.handle.db.execute(sql`select not_before as "notBefore" from notifications`),
    ) as [{ notBefore: string }];
    const waits = new Date(notBefore).getTime() - Date.now();
    expect(waits).toBeGreaterThan(55 * 60_000);
    expect(waits).toBeLessThanOrEqual(61 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.inbox).toHaveLength(0);

    // When quiet hours end, it goes as the email at once it now is.
    await runNotificationRound(minutesOn(61));
    const [sent] = await smtp.waitFor(1);
    expect(sent?.subject).toBe('Offline: Unit 1, North House');
  });

  it('sends what waited for the digest at once when the member switches to email at once without quiet hours', async () => {
    await subscribe(owner, { mode: 'digest', digestHour: 0 });
    await offline('100000000001');
    await reconcileOrganization({ orgId: owner.orgId });
    const queued = await subscribe(owner);
    expect(queued.map((notice) => notice.status)).toEqual(['pending']);
  });

  it('sends one daily digest per member, each with only what their buildings hold', async () => {
    const admin = await inviteAndAccept(owner.orgId, 'admin@example.com', 'admin');
    const manager = await managerOf(SOUTH);
    for (const member of [owner, admin, manager]) {
      await subscribe(member, { mode: 'digest', digestHour: 0 });
    }
    await offline('100000000001');
    await offline('100000000003');
    await reconcileOrganization({ orgId: owner.orgId });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.inbox).toHaveLength(0);
    expect((await notices()).filter((n) => n.status === 'digest')).toHaveLength(5);

    expect(await sendDueDigests()).toBe(3);
    const mail = await smtp.waitFor(3);
    const to = (address: string) =>
      mail.find((m) => m.to && 'text' in m.to && m.to.text === address);
    for (const address of ['owner@example.com', 'admin@example.com']) {
      const digest = to(address);
      expect(digest?.subject).toBe('Setpoint daily digest for Reyes Property: 2 opened');
      expect(digest?.text).toContain(`${APP}/thermostats/100000000001`);
      expect(digest?.text).toContain(`${APP}/thermostats/100000000003`);
    }
    const south = to('south@example.com');
    expect(south?.subject).toBe('Setpoint daily digest for Reyes Property: 1 opened');
    expect(south?.text).toContain('Unit 3, South Court');
    expect(south?.text).not.toContain('North House');
    expect(south?.html).not.toContain('100000000001');

    // Once a day: nothing more today.
    expect(await sendDueDigests()).toBe(0);
  });

  it('never tells a building manager of another building, even when their buildings change before it goes', async () => {
    const manager = await managerOf(SOUTH);
    await subscribe(manager, { buildingIds: null });
    await db.boss.offWork('deliver-notification');
    await offline('100000000001');
    await reconcileOrganization({ orgId: owner.orgId });
    expect(await notices()).toEqual([]);

    await offline('100000000003');
    await reconcileOrganization({ orgId: owner.orgId });
    const [notice] = await notices();
    expect(notice).toMatchObject({ recipient: 'south@example.com', subject: '100000000003' });
    // The in-app list too: the manager sees the south incident only, the owner both.
    const listed = async (member: Member) =>
      (await listIncidents({ scope: member, resolvedSince: minutesAgo(60) }))
        .map((incident) => incident.thermostatId)
        .sort();
    expect(await listed(manager)).toEqual(['100000000003']);
    expect(await listed(owner)).toEqual(['100000000001', '100000000003']);

    // Moved to the north building before the notice went: it is not sent.
    await updateMembership({
      orgId: owner.orgId,
      userId: manager.userId,
      role: 'building_manager',
      buildingIds: [NORTH],
    });
    const ids = rowsOf<{ id: string }>(
      await db.handle.db.execute(sql`select id from notifications`),
    );
    const outcome = await deliverNotices({ ids: ids.map((row) => row.id) });
    expect(outcome).toMatchObject({ sent: 0, skipped: 1 });
    expect((await notices())[0]).toMatchObject({
      status: 'skipped',
      lastError: 'No longer in their buildings or their choice of incidents.',
    });
    expect(smtp.inbox).toEqual([]);
    // Their own log no longer shows the south incident either; the owner's shows it.
    const moved = { ...manager, buildingIds: [NORTH] };
    expect(await listDeliveryLog({ orgId: owner.orgId, member: moved })).toEqual([]);
    expect(await listDeliveryLog({ orgId: owner.orgId })).toHaveLength(1);
    expect(await listDeliveryLog({ orgId: owner.orgId, member: manager })).toHaveLength(1);
  });

  it('tells a building manager of a failed run in their building as their share, and not one it reached in full', async () => {
    const northManager = await managerOf(NORTH);
    const southManager = await managerOf(SOUTH);
    await subscribe(northManager);
    await subscribe(southManager);
    // The owner's run over both buildings: one north thermostat of the three fails.
    const runId = await ownerRunFailing('100000000001');
    await reconcileOrganization({ orgId: owner.orgId });

    const [told] = await smtp.waitFor(1);
    expect(told?.to && 'text' in told.to ? told.to.text : '').toBe('north@example.com');
    expect(told?.text).toContain(
      'did not reach 1 of its 2 thermostats in your buildings (1 failed)',
    );
    expect(told?.text).toContain(`Open it: ${APP}/bulk/runs/${runId}`);
    // Nothing of the whole run's count, nor of the south building's share.
    expect(told?.text).not.toMatch(/of 3\b/);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.inbox).toHaveLength(1);

    const listed = async (member: Member) =>
      (await listIncidents({ scope: member, resolvedSince: minutesAgo(60) })).map(
        (incident) => incident.runId,
      );
    expect(await listed(northManager)).toEqual([runId]);
    expect(await listed(southManager)).toEqual([]);
    expect(await listed(owner)).toEqual([runId]);
  });

  it('keeps a failed run open for what a building manager’s retry of their share left, and tells its end once all is taken up', async () => {
    const northManager = await managerOf(NORTH);
    await subscribe(owner);
    // One north and the south thermostat fail.
    const runId = await ownerRunFailing('100000000001', '100000000003');
    await reconcileOrganization({ orgId: owner.orgId });
    await smtp.waitFor(1);
    const open = async () =>
      (await listIncidents({ scope: owner, resolvedSince: minutesAgo(60) })).map((incident) => ({
        resolved: incident.resolvedAt !== null,
        buildingIds: incident.buildingIds,
        failed: incident.facts.failed,
      }));
    expect(await open()).toEqual([{ resolved: false, buildingIds: [NORTH, SOUTH], failed: 2 }]);

    // The north manager retries their share, and it reaches it: the south failure is left.
    const north = await retryOf(northManager, runId);
    expect(await workBulkRun({ runId: north, apply: applyAllBut() })).toBe('finished');
    await reconcileOrganization({ orgId: owner.orgId });
    expect(await open()).toEqual([{ resolved: false, buildingIds: [SOUTH], failed: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // No "a retry reached every thermostat" while one has not been reached.
    expect(smtp.inbox).toHaveLength(1);

    // The owner retries the rest: now every failure is taken up and reached, and the end is told.
    const rest = await retryOf(owner, runId);
    expect(await workBulkRun({ runId: rest, apply: applyAllBut() })).toBe('finished');
    await reconcileOrganization({ orgId: owner.orgId });
    await expectEndTold();
    expect((await open())[0]).toMatchObject({ resolved: true });
  });

  it('tells a failed run’s end when finished retries took up every failure, though another retry still runs', async () => {
    const northManager = await managerOf(NORTH);
    await subscribe(owner);
    const runId = await ownerRunFailing('100000000001', '100000000003');
    await reconcileOrganization({ orgId: owner.orgId });
    await smtp.waitFor(1);

    // The north manager's retry of their share is queued, not yet worked; the owner's retry of
    // every failure runs and reaches them all.
    await retryOf(northManager, runId);
    const rest = await retryOf(owner, runId);
    expect(await workBulkRun({ runId: rest, apply: applyAllBut() })).toBe('finished');
    await reconcileOrganization({ orgId: owner.orgId });

    await expectEndTold();
    const [incident] = await listIncidents({ scope: owner, resolvedSince: minutesAgo(60) });
    expect(incident?.resolvedAt).not.toBeNull();
  });

  it('sends a notice once when two jobs carry it: the first claims it, the other gets nothing', async () => {
    await subscribe(owner);
    await db.boss.offWork('deliver-notification');
    await offline('100000000001');
    await reconcileOrganization({ orgId: owner.orgId });
    const ids = rowsOf<{ id: string }>(
      await db.handle.db.execute(sql`select id from notifications`),
    ).map((row) => row.id);
    const outcomes = await Promise.all([deliverNotices({ ids }), deliverNotices({ ids })]);
    expect(outcomes.map((outcome) => outcome.sent).sort()).toEqual([0, 1]);
    await smtp.waitFor(1);
    expect(smtp.inbox).toHaveLength(1);
    expect((await notices())[0]).toMatchObject({ status: 'sent', attempts: 1 });

    // A claim held (a delivery in progress) keeps the notice from a second job and the sweep.
    await db.handle.db.execute(sql`update notifications set status = 'pending', queued_at = null`);
    expect(await listNoticesToDeliver({ ids })).toHaveLength(1);
    expect(await listNoticesToDeliver({ ids })).toEqual([]);
    expect(await listStrandedNotices({ now: minutesOn(5) })).toEqual([]);
    // Lapsed (the process stopped mid-attempt): the sweep queues it again.
    expect(await listStrandedNotices({ now: minutesOn(11) })).toHaveLength(1);
  });

  it('the sweep gives up on a notice out of attempts or idle for a day instead of queueing it again', async () => {
    await subscribe(owner);
    await db.boss.offWork('deliver-notification');
    await offline('100000000001');
    await offline('100000000003');
    await reconcileOrganization({ orgId: owner.orgId });
    await db.handle.db.execute(sql`update notifications set queued_at = null`);
    const [first] = rowsOf<{ id: string }>(
      await db.handle.db.execute(sql`select id from notifications order by id limit 1`),
    );
    await db.handle.db.execute(
      sql`update notifications set attempts = 8 where id = ${first?.id ?? ''}`,
    );
    expect(await listStrandedNotices({ now: minutesOn(2) })).toHaveLength(1);
    expect((await notices()).map((notice) => notice.status).sort()).toEqual(['failed', 'pending']);
    expect(await listStrandedNotices({ now: minutesOn(25 * 60) })).toEqual([]);
    expect(await notices()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          status: 'failed',
          lastError: 'Not sent: delivery stopped trying.',
        }),
      ]),
    );
    expect((await notices()).every((notice) => notice.status === 'failed')).toBe(true);
  });

  it('logs why the mail server refused a message: at once for good, retried when deferred', async () => {
    await subscribe(owner);
    await db.boss.offWork('deliver-notification');
    await offline('100000000001');
    await reconcileOrganization({ orgId: owner.orgId });
    const ids = rowsOf<{ id: string }>(
      await db.handle.db.execute(sql`select id from notifications`),
    );

    smtp.refuse(451);
    expect(await deliverNotices({ ids: ids.map((row) => row.id) })).toMatchObject({
      retry: true,
    });
    expect((await notices())[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'The mail server deferred the message (SMTP 451).',
    });
    smtp.refuse(550);
    expect(await deliverNotices({ ids: ids.map((row) => row.id) })).toMatchObject({
      retry: false,
      failed: 1,
    });
    expect((await notices())[0]).toMatchObject({
      status: 'failed',
      attempts: 2,
      lastError: 'The mail server refused the message (SMTP 550).',
    });
  });

  it('logs a test email the server deferred as failed, so no sweep sends it hours later', async () => {
    smtp.refuse(451);
    const result = await sendTestEmail({
      orgId: owner.orgId,
      userId: owner.userId,
      email: owner.email,
    });
    expect(result.ok).toBe(false);
    expect((await notices())[0]).toMatchObject({ event: 'test', status: 'failed', attempts: 1 });
    expect(await listStrandedNotices({ now: minutesOn(3 * 60) })).toEqual([]);
  });

  it('sends a member a test email on request, and logs it', async () => {
    const result = await sendTestEmail({
      orgId: owner.orgId,
      userId: owner.userId,
      email: owner.email,
    });
    expect(result).toEqual({ ok: true, message: 'Test email sent to owner@example.com.' });
    const [mail] = await smtp.waitFor(1);
    expect(mail?.subject).toBe('Setpoint test message for Reyes Property');
    expect((await listDeliveryLog({ orgId: owner.orgId, member: owner }))[0]).toMatchObject({
      event: 'test',
      status: 'sent',
      recipient: 'owner@example.com',
    });
  });
});

describe('email notifications across a restart (PGlite in a folder)', () => {
  it('a notice written before the process stops is sent after it starts, and one never queued is found by the sweep', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'setpoint-notify-restart-'));
    smtp.inbox.length = 0;
    smtp.refuse(null);
    let handle = await useDatabase({ kind: 'pglite', dataDir });
    const owner = await createFirstOwner('owner@example.com', 'Reyes Property');
    await ensureBuilding({
      orgId: owner.orgId,
      buildingId: NORTH,
      name: 'North House',
      timeZone: 'UTC',
    });
    for (const id of ['100000000001', '100000000002']) {
      await addThermostat({
        orgId: owner.orgId,
        thermostatId: id,
        buildingId: NORTH,
        unitLabel: '',
      });
    }
    await connectEveryOrganization(handle);
    await subscribe(owner, { kinds: ['offline'] });
    const offline = (thermostatId: string) =>
      storeReading(owner.orgId, thermostatId, {
        connected: false,
        lastSeen: minutesAgo(40).toISOString(),
      });
    await offline('100000000001');
    // Written and queued; no worker runs before the process stops.
    await reconcileOrganization({ orgId: owner.orgId });
    await stopBoss();
    await handle.close();

    handle = await useDatabase({ kind: 'pglite', dataDir });
    const boss = await getBoss();
    await startDeliveryWorker(boss);
    try {
      const [mail] = await smtp.waitFor(1);
      expect(mail?.subject).toBe('Offline: 100000000001, North House');

      // A notice whose job was never sent (the process stopped in between): the sweep sends it.
      await offline('100000000002');
      await boss.offWork('deliver-notification');
      await reconcileOrganization({ orgId: owner.orgId });
      await handle.db.execute(sql`
        update notifications set queued_at = null, created_at = now() - interval '5 minutes'
        where status = 'pending'`);
      await boss.deleteAllJobs('deliver-notification');
      await startDeliveryWorker(boss);
      await runNotificationRound();
      const [, swept] = await smtp.waitFor(2);
      expect(swept?.subject).toBe('Offline: 100000000002, North House');
    } finally {
      await stopBoss();
      await handle.close();
    }
  });
});
