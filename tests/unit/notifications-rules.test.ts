import { describe, expect, it } from 'vitest';
import type { AttentionItem } from '@/lib/attention/conditions';
import {
  displayUrl,
  type Endpoint,
  type IncidentEvent,
  mayKnow,
  notificationsOf,
  type Subscriber,
  wants,
} from '@/lib/notifications/fan-out';
import { INCIDENT_KIND_NAMES, incidentKindOf, rulesOf } from '@/lib/notifications/kinds';
import {
  formatMinutes,
  inQuietHours,
  minutesIn,
  parseMinutes,
  quietUntil,
} from '@/lib/notifications/quiet-hours';
import {
  type Cause,
  causesOfItems,
  causesOfRuns,
  type OpenIncident,
  planReconcile,
} from '@/lib/notifications/reconcile';
import {
  type IncidentFacts,
  incidentWords,
  notificationEmail,
  reviveItem,
  webhookPayload,
} from '@/lib/notifications/words';

// Notifications' pure rules: incidents from causes (one per cause, the delay, what clears them),
// who is told and when (scope, choices, quiet hours in the building's zone, urgent ones at once),
// and the words of the email and the webhook.

const NOW = new Date('2026-01-15T12:00:00Z');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
const A = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const rules = rulesOf([]);

const offline = (thermostatId: string, since: Date | null): AttentionItem => ({
  kind: 'offline',
  thermostatId,
  buildingId: A,
  since,
});
const cause = (item: AttentionItem): Cause => {
  const [only] = causesOfItems([item]);
  if (!only) throw new Error('no cause');
  return only;
};
const incident = (overrides: Partial<OpenIncident>): OpenIncident => ({
  id: 'i1',
  kind: 'offline',
  subject: '100000000001',
  openedAt: minutes(-40),
  notifiedAt: minutes(-10),
  ...overrides,
});

describe('incidents from causes', () => {
  it('opens one incident per cause, told once its rule’s delay has passed', () => {
    const recent = planReconcile({
      causes: [cause(offline('100000000001', minutes(-5)))],
      open: [],
      rules,
      now: NOW,
    });
    expect(recent.open).toHaveLength(1);
    expect(recent.open[0]).toMatchObject({
      kind: 'offline',
      subject: '100000000001',
      severity: 'warning',
      openedAt: minutes(-5),
      notify: false,
      buildingIds: [A],
    });

    // The same cause again, over several readings: the incident stays, told once 30 min passed.
    const open = incident({ openedAt: minutes(-5), notifiedAt: null });
    const later = planReconcile({
      causes: [cause(offline('100000000001', minutes(-31)))],
      open: [open],
      rules,
      now: minutes(26),
    });
    expect(later.open).toEqual([]);
    expect(later.keep).toEqual([expect.objectContaining({ id: 'i1', notify: true })]);
    expect(later.resolve).toEqual([]);

    // Told already: kept without a second notice.
    const told = planReconcile({
      causes: [cause(offline('100000000001', minutes(-31)))],
      open: [incident({})],
      rules,
      now: NOW,
    });
    expect(told.keep).toEqual([expect.objectContaining({ id: 'i1', notify: false })]);
  });

  it('a cause with no known start is dated when first seen; a rule’s delay of 0 tells at once', () => {
    const plan = planReconcile({
      causes: [cause(offline('100000000001', null))],
      open: [],
      rules: { ...rules, offline: { enabled: true, delayMinutes: 0 } },
      now: NOW,
    });
    expect(plan.open[0]).toMatchObject({ openedAt: NOW, notify: true });
  });

  it('resolves what cleared (with a notice only if people were told), what a graver kind took over, and what a rule turned off', () => {
    const plan = planReconcile({
      causes: [
        cause({
          kind: 'freeze',
          thermostatId: '100000000002',
          buildingId: A,
          temperature: 40,
          lastKnown: false,
          since: null,
        }),
      ],
      open: [
        incident({ id: 'told' }),
        incident({ id: 'untold', subject: '100000000003', notifiedAt: null }),
        incident({ id: 'cold', kind: 'too_cold', subject: '100000000002' }),
        incident({ id: 'stale', kind: 'mode_pending', subject: '100000000004' }),
      ],
      rules,
      now: NOW,
    });
    expect(plan.resolve).toEqual([
      { id: 'told', resolution: 'cleared', notify: true },
      { id: 'untold', resolution: 'cleared', notify: false },
      { id: 'cold', resolution: 'superseded', notify: false },
      // Mode changes are off by default: its incident goes without a notice.
      { id: 'stale', resolution: 'rule_off', notify: false },
    ]);
    expect(plan.open.map((entry) => entry.kind)).toEqual(['freeze']);
  });

  it('asks why a cause went where the plan cannot know (a thermostat removed, a run retried)', () => {
    const plan = planReconcile({
      causes: [],
      open: [incident({ id: 'gone' })],
      rules,
      now: NOW,
      whyGone: () => 'removed',
    });
    expect(plan.resolve).toEqual([{ id: 'gone', resolution: 'removed', notify: false }]);
  });

  it('maps every needs-attention kind but stale readings, maintenance due and overdue as one', () => {
    expect(incidentKindOf('maintenance_due')).toBe('maintenance');
    expect(incidentKindOf('maintenance_overdue')).toBe('maintenance');
    expect(incidentKindOf('stale')).toBeNull();
    expect(INCIDENT_KIND_NAMES).toContain('run_failed');
    expect(rulesOf([{ kind: 'offline', enabled: false, delayMinutes: 5 }]).offline).toEqual({
      enabled: false,
      delayMinutes: 5,
    });
  });

  it('a failed run concerns the buildings where it failed, and reads as a manager’s share', () => {
    const C = '00000000000000000000c0c1';
    const [run] = causesOfRuns([
      {
        runId: '11111111-1111-4111-8111-111111111111',
        total: 14,
        applied: 11,
        failed: 2,
        notSent: 1,
        startedByName: 'Ana',
        finishedAt: minutes(-3),
        byBuilding: {
          [B]: { total: 4, failed: 1, notSent: 1 },
          [A]: { total: 6, failed: 1, notSent: 0 },
          [C]: { total: 4, failed: 0, notSent: 0 },
        },
      },
    ]);
    // C, where it reached every thermostat, is not concerned.
    expect(run).toMatchObject({ kind: 'run_failed', buildingIds: [A, B], buildingId: null });
    const words = (scope: string[] | null) =>
      incidentWords(
        { kind: 'run_failed', facts: run?.facts ?? {} },
        { unit: 'F', now: NOW, scope },
      );
    const whole = {
      title: 'Bulk change failed',
      detail:
        'A bulk change started by Ana did not reach 3 of its 14 thermostats (2 failed, 1 not sent). Its page lists them and can retry them.',
    };
    expect(words(null)).toEqual(whole);
    expect(words([A, B, C])).toEqual(whole);
    // The manager of A reads A's part, nothing of B's or C's.
    expect(words([A]).detail).toBe(
      'A bulk change started by Ana did not reach 1 of its 6 thermostats in your buildings (1 failed). Its page lists them and can retry them.',
    );
    expect(words([A, C]).detail).toBe(
      'A bulk change started by Ana did not reach 1 of its 10 thermostats in your buildings (1 failed). Its page lists them and can retry them.',
    );
    // Every failure taken up by retries: no cause (one of no building would concern everyone).
    expect(
      causesOfRuns([
        {
          runId: '22222222-2222-4222-8222-222222222222',
          total: 2,
          applied: 1,
          failed: 0,
          notSent: 0,
          startedByName: 'Ana',
          finishedAt: minutes(-3),
          byBuilding: { [A]: { total: 2, failed: 0, notSent: 0 } },
        },
      ]),
    ).toEqual([]);
    const failedRun = { kind: 'run_failed', buildingIds: run?.buildingIds ?? [] };
    expect(mayKnow([A], failedRun)).toBe(true);
    expect(mayKnow([C], failedRun)).toBe(false);
  });
});

const subscriber = (overrides: Partial<Subscriber> = {}): Subscriber => ({
  userId: 'u1',
  email: 'u1@example.com',
  role: 'owner',
  memberBuildingIds: [],
  mode: 'immediate',
  kinds: [...INCIDENT_KIND_NAMES],
  buildingIds: null,
  timeZone: 'UTC',
  quiet: null,
  ...overrides,
});
const event = (overrides: Partial<IncidentEvent> = {}): IncidentEvent => ({
  incidentId: 'i1',
  event: 'opened',
  kind: 'offline',
  buildingId: A,
  buildingIds: [A],
  ...overrides,
});
const zoneOf = (id: string) => (id === A ? 'America/New_York' : 'Europe/Paris');

describe('who is told, and when', () => {
  it('tells a member only of incidents whose every building is theirs', () => {
    const offlineIn = (...buildingIds: string[]) => ({ kind: 'offline', buildingIds });
    expect(mayKnow(null, offlineIn(A, B))).toBe(true);
    expect(mayKnow([A], offlineIn(A))).toBe(true);
    expect(mayKnow([A], offlineIn(B))).toBe(false);
    expect(mayKnow([A], offlineIn(A, B))).toBe(false);
    // The connection concerns everyone.
    expect(mayKnow([A], { kind: 'connection_ended', buildingIds: [] })).toBe(true);

    const managerOfB = subscriber({
      userId: 'm',
      role: 'building_manager',
      memberBuildingIds: [B],
    });
    const rows = notificationsOf({
      event: event(),
      subscribers: [subscriber(), managerOfB],
      endpoints: [],
      zoneOf,
      now: NOW,
    });
    expect(rows.map((row) => row.userId)).toEqual(['u1']);
    // Even a subscription naming building A does not reach beyond the member's scope.
    expect(
      notificationsOf({
        event: event(),
        subscribers: [{ ...managerOfB, buildingIds: [A] }],
        endpoints: [],
        zoneOf,
        now: NOW,
      }),
    ).toEqual([]);
  });

  it('follows each choice of kinds and buildings', () => {
    expect(
      wants({ kinds: ['offline'], buildingIds: null }, { kind: 'offline', buildingIds: [A] }),
    ).toBe(true);
    expect(
      wants({ kinds: ['freeze'], buildingIds: null }, { kind: 'offline', buildingIds: [A] }),
    ).toBe(false);
    expect(
      wants({ kinds: ['offline'], buildingIds: [B] }, { kind: 'offline', buildingIds: [A] }),
    ).toBe(false);
    expect(
      wants(
        { kinds: ['not_connected'], buildingIds: [B] },
        { kind: 'not_connected', buildingIds: [] },
      ),
    ).toBe(true);
  });

  it('holds a non-urgent notice through quiet hours in the building’s zone, and lets an urgent one through', () => {
    // 12:00 UTC is 07:00 in New York: inside quiet hours 22:00-08:00 there, not in Paris (13:00).
    const quiet = subscriber({ quiet: { start: 22 * 60, end: 8 * 60 } });
    const [held] = notificationsOf({
      event: event(),
      subscribers: [quiet],
      endpoints: [],
      zoneOf,
      now: NOW,
    });
    expect(held).toMatchObject({ status: 'held', notBefore: new Date('2026-01-15T13:00:00Z') });
    const [paris] = notificationsOf({
      event: event({ buildingId: B, buildingIds: [B] }),
      subscribers: [quiet],
      endpoints: [],
      zoneOf,
      now: NOW,
    });
    expect(paris).toMatchObject({ status: 'pending', notBefore: null });
    const [freeze] = notificationsOf({
      event: event({ kind: 'freeze' }),
      subscribers: [quiet],
      endpoints: [],
      zoneOf,
      now: NOW,
    });
    expect(freeze).toMatchObject({ status: 'pending', notBefore: null });
  });

  it('keeps a digest member’s notices for the digest, but for urgent ones', () => {
    const digest = subscriber({ mode: 'digest' });
    const statuses = ['offline', 'maintenance', 'freeze', 'connection_ended'].map(
      (kind) =>
        notificationsOf({
          event: event({ kind: kind as IncidentEvent['kind'] }),
          subscribers: [digest],
          endpoints: [],
          zoneOf,
          now: NOW,
        })[0]?.status,
    );
    expect(statuses).toEqual(['digest', 'digest', 'pending', 'pending']);
  });

  it('sends a resolved notice only to those told of the opening; a paused endpoint’s waits', () => {
    const endpoints: Endpoint[] = [
      {
        id: 'e1',
        url: 'https://hooks.example.com/in?token=s3cret',
        kinds: ['offline'],
        buildingIds: null,
        status: 'active',
      },
      {
        id: 'e2',
        url: 'https://paused.example.com/',
        kinds: ['offline'],
        buildingIds: null,
        status: 'paused',
      },
      {
        id: 'e3',
        url: 'https://other.example.com/',
        kinds: ['offline'],
        buildingIds: [B],
        status: 'active',
      },
    ];
    const opened = notificationsOf({
      event: event(),
      subscribers: [subscriber()],
      endpoints,
      zoneOf,
      now: NOW,
    });
    expect(opened.map((row) => [row.recipient, row.status])).toEqual([
      ['u1@example.com', 'pending'],
      // The log never shows a query string: it may carry a secret.
      ['https://hooks.example.com/…', 'pending'],
      ['https://paused.example.com', 'paused'],
    ]);
    const resolved = notificationsOf({
      event: event({ event: 'resolved' }),
      subscribers: [subscriber(), subscriber({ userId: 'late', email: 'late@example.com' })],
      endpoints,
      zoneOf,
      told: new Set(['user:u1', 'endpoint:e1']),
      now: NOW,
    });
    expect(resolved.map((row) => row.recipient)).toEqual([
      'u1@example.com',
      'https://hooks.example.com/…',
    ]);
    expect(displayUrl('https://user:pw@x.example/p?q=1')).toBe('https://x.example/…');
    expect(displayUrl('https://hooks.example.com/services/T0/B0/secret')).toBe(
      'https://hooks.example.com/…',
    );
    expect(displayUrl('https://x.example/')).toBe('https://x.example');
  });
});

describe('quiet hours', () => {
  it('reads the time of day in a zone, across midnight and daylight saving time', () => {
    expect(minutesIn('America/New_York', NOW)).toBe(7 * 60);
    expect(minutesIn('Asia/Kolkata', NOW)).toBe(17 * 60 + 30);
    expect(minutesIn('Not/AZone', NOW)).toBe(12 * 60);
    // Summer in New York: UTC-4.
    expect(minutesIn('America/New_York', new Date('2026-07-15T12:00:00Z'))).toBe(8 * 60);
    expect(inQuietHours({ start: 22 * 60, end: 7 * 60 }, 23 * 60)).toBe(true);
    expect(inQuietHours({ start: 22 * 60, end: 7 * 60 }, 6 * 60 + 59)).toBe(true);
    expect(inQuietHours({ start: 22 * 60, end: 7 * 60 }, 7 * 60)).toBe(false);
    expect(inQuietHours({ start: 13 * 60, end: 14 * 60 }, 13 * 60 + 30)).toBe(true);
    expect(inQuietHours(null, 0)).toBe(false);
    expect(quietUntil({ start: 22 * 60, end: 7 * 60 }, 'UTC', NOW)).toEqual(NOW);
    expect(quietUntil({ start: 11 * 60, end: 12 * 60 + 30 }, 'UTC', NOW)).toEqual(minutes(30));
    expect(formatMinutes(parseMinutes('07:05') ?? -1)).toBe('07:05');
  });

  it('ends quiet hours at the local end on the nights the clocks change', () => {
    const night = { start: 22 * 60, end: 7 * 60 };
    // New York springs forward at 02:00 on 2026-03-08: 23:00 EST is 04:00Z, 07:00 EDT is 11:00Z.
    expect(quietUntil(night, 'America/New_York', new Date('2026-03-08T04:00:00Z'))).toEqual(
      new Date('2026-03-08T11:00:00Z'),
    );
    // It falls back at 02:00 on 2026-11-01: 23:00 EDT is 03:00Z, 07:00 EST is 12:00Z.
    expect(quietUntil(night, 'America/New_York', new Date('2026-11-01T03:00:00Z'))).toEqual(
      new Date('2026-11-01T12:00:00Z'),
    );
    // An ordinary night: 23:00 EST is 04:00Z, 07:00 EST is 12:00Z.
    expect(quietUntil(night, 'America/New_York', new Date('2026-01-15T04:00:00Z'))).toEqual(
      new Date('2026-01-15T12:00:00Z'),
    );
    // Quiet hours that end at 02:30, in the hour the spring change skips: free from 03:00 EDT.
    expect(
      quietUntil(
        { start: 22 * 60, end: 2 * 60 + 30 },
        'America/New_York',
        new Date('2026-03-08T04:00:00Z'),
      ),
    ).toEqual(new Date('2026-03-08T07:00:00Z'));
    expect(parseMinutes('24:00')).toBeNull();
  });
});

const facts: IncidentFacts = {
  id: '22222222-2222-4222-8222-222222222222',
  kind: 'freeze',
  severity: 'urgent',
  facts: JSON.parse(
    JSON.stringify({
      kind: 'freeze',
      thermostatId: '100000000001',
      buildingId: A,
      temperature: 40,
      lastKnown: false,
      since: null,
    }),
  ),
  thermostatId: '100000000001',
  runId: null,
  buildingId: A,
  label: 'Unit <4B>',
  buildingName: 'Maple & Court',
  timeZone: 'America/New_York',
  openedAt: minutes(-12),
  resolvedAt: null,
};

describe('words', () => {
  it('revives stored facts and says them in the reader’s unit', () => {
    const stored = JSON.parse(JSON.stringify(offline('1', minutes(-45))));
    expect(reviveItem(stored).since).toEqual(minutes(-45));
    expect(incidentWords(facts, { unit: 'C', now: NOW }).detail).toBe(
      '4.4 °C, below 7.2 °C: pipes can freeze.',
    );
  });

  it('writes one email for a member’s events, text and HTML, each linking to its thermostat', () => {
    const one = notificationEmail({
      to: 'a@example.com',
      orgName: 'Reyes',
      items: [{ event: 'opened', incident: facts, at: NOW }],
      digest: false,
      unit: 'F',
      appUrl: 'https://setpoint.example.com',
      scope: null,
      timeZone: 'America/Los_Angeles',
    });
    expect(one.subject).toBe('Urgent: Freeze risk: Unit <4B>, Maple & Court');
    expect(one.text).toContain('Open it: https://setpoint.example.com/thermostats/100000000001');
    expect(one.text).toContain('Since Jan 15, 2026, 6:48 AM EST');
    expect(one.html).toContain('href="https://setpoint.example.com/thermostats/100000000001"');
    expect(one.html).toContain('Unit &lt;4B&gt;, Maple &amp; Court');
    expect(one.html).not.toContain('<4B>');

    const digest = notificationEmail({
      to: 'a@example.com',
      orgName: 'Reyes',
      items: [
        { event: 'resolved', incident: { ...facts, resolvedAt: NOW }, at: NOW },
        { event: 'opened', incident: facts, at: minutes(-12) },
      ],
      digest: true,
      unit: 'F',
      appUrl: 'https://setpoint.example.com',
      scope: null,
      timeZone: 'America/Los_Angeles',
    });
    expect(digest.subject).toBe('Setpoint daily digest for Reyes: 1 opened, 1 resolved');
    expect(digest.text.indexOf('Urgent: Freeze risk')).toBeLessThan(
      digest.text.indexOf('Resolved: Freeze risk'),
    );
    expect(digest.text).toContain('Back above freezing risk after 12 min.');

    // An incident of no building (the connection) is in the reader's own zone, named.
    const connection = notificationEmail({
      to: 'a@example.com',
      orgName: 'Reyes',
      items: [
        {
          event: 'opened',
          incident: { ...facts, buildingId: null, thermostatId: null, timeZone: null },
          at: NOW,
        },
      ],
      digest: false,
      unit: 'F',
      appUrl: 'https://setpoint.example.com',
      scope: null,
      timeZone: 'America/Los_Angeles',
    });
    expect(connection.text).toContain('Since Jan 15, 2026, 3:48 AM PST');
  });

  it('gives a webhook the Standard Webhooks envelope with the incident and its link', () => {
    const body = JSON.parse(
      webhookPayload({
        event: 'opened',
        at: NOW,
        organization: { id: 'o', name: 'Reyes' },
        incident: facts,
        appUrl: 'https://setpoint.example.com',
      }),
    );
    expect(body).toMatchObject({
      type: 'incident.opened',
      timestamp: NOW.toISOString(),
      data: {
        organization: { id: 'o', name: 'Reyes' },
        incident: {
          kind: 'freeze',
          title: 'Freeze risk',
          severity: 'urgent',
          status: 'open',
          detail: '40 °F, below 45 °F: pipes can freeze.',
          thermostatLabel: 'Unit <4B>',
          link: 'https://setpoint.example.com/thermostats/100000000001',
          facts: { temperature: 40 },
        },
      },
    });
  });
});
