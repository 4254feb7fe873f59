import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DeliveryLog } from '@/components/notifications/delivery-log';
import { IncidentList } from '@/components/notifications/incident-list';
import { RulesForm } from '@/components/notifications/rules-form';
import { SubscriptionForm } from '@/components/notifications/subscription-form';
import { AddWebhookForm } from '@/components/notifications/webhook-forms';
import type { IncidentRow, LogEntry } from '@/lib/notifications/store';
import type { FormState } from '@/lib/platform/forms';
import { INCIDENT_KIND_NAMES, INCIDENT_KINDS } from '@/lib/notifications/kinds';
import {
  INCIDENTS_PER_PAGE,
  lastIncidentPage,
  notificationsHref,
  readNotificationsView,
} from '@/lib/notifications/page-view';
import { subscriptionInput, subscriptionSchema } from '@/lib/notifications/settings';
import { failureAndCodes, noticeCodes, noticeStatusWords } from '@/lib/notifications/words';

// The notifications page's forms as the server renders them (so, as a browser without JavaScript
// gets them): every control labelled, the choices the member may make, and what the schema then
// reads back from a posted form.

const action = async (state: FormState) => state;
const kinds = INCIDENT_KIND_NAMES.map((kind) => ({
  kind,
  name: INCIDENT_KINDS[kind].name,
  help: INCIDENT_KINDS[kind].help,
  off: kind === 'mode_pending',
}));
const A = 'aaaaaaaaaaaaaaaaaaaaaaaa';

const incident: IncidentRow = {
  id: '22222222-2222-4222-8222-222222222222',
  kind: 'offline',
  severity: 'warning',
  facts: { kind: 'offline', thermostatId: '100000000001', buildingId: A, since: null },
  thermostatId: '100000000001',
  runId: null,
  buildingId: A,
  buildingIds: [A],
  label: 'Unit 1',
  buildingName: 'North House',
  timeZone: 'UTC',
  openedAt: new Date('2026-01-15T11:00:00Z'),
  notifiedAt: new Date('2026-01-15T11:30:00Z'),
  resolvedAt: null,
  resolution: null,
};

describe('the notifications page’s forms', () => {
  it('offers a member how, which incidents, which of their buildings and when, each labelled', () => {
    const html = renderToStaticMarkup(
      createElement(SubscriptionForm, {
        action,
        kinds,
        buildings: [{ buildingId: A, name: 'North House' }],
        zoneName: 'Eastern Time (New York)',
        allBuildingsLabel: 'Every building I look after, as they change',
        initial: {
          mode: 'digest',
          kinds: ['offline'],
          buildingScope: 'all',
          buildingIds: [],
          digestHour: '7',
          quietStart: '22:00',
          quietEnd: '07:00',
        },
      }),
    );
    expect(html).toContain('aria-label="Your email notifications"');
    expect(html).toContain('name="mode" checked="" value="digest"');
    expect(html).toMatch(
      /id="subscription-kind-offline"[^>]*name="kinds" checked="" value="offline"/,
    );
    expect(html).toContain('Turned off for the organisation.');
    expect(html).toContain('North House');
    expect(html).toMatch(/id="field-quietStart"[^>]*type="time" name="quietStart" value="22:00"/);
    expect(html).toContain('Send the digest at');
    // One clock: the member's own zone, named, chosen on their account page (no second choice).
    expect(html).toContain('In your time zone, Eastern Time (New York)');
    expect(html).toContain('href="/account"');
    expect(html).not.toContain('name="timeZone"');
  });

  it('reads a posted subscription back, refusing half of quiet hours', () => {
    const form = new FormData();
    form.set('mode', 'immediate');
    form.append('kinds', 'offline');
    form.append('kinds', 'freeze');
    form.set('buildingScope', 'chosen');
    form.append('buildingIds', A);
    form.set('digestHour', '6');
    form.set('quietStart', '22:30');
    form.set('quietEnd', '06:00');
    expect(subscriptionSchema.parse(subscriptionInput(form))).toEqual({
      mode: 'immediate',
      kinds: ['offline', 'freeze'],
      buildings: [A],
      digestHour: 6,
      quietStart: 22 * 60 + 30,
      quietEnd: 6 * 60,
    });
    form.set('quietEnd', '');
    const issues = subscriptionSchema.safeParse(subscriptionInput(form)).error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['quietEnd', 'Give both ends of quiet hours, or neither.'],
    ]);
  });

  it('gives each rule a checkbox and a delay labelled with its kind', () => {
    const html = renderToStaticMarkup(
      createElement(RulesForm, {
        action,
        rules: [
          {
            kind: 'offline',
            name: 'Offline',
            help: 'h',
            urgent: false,
            enabled: true,
            delayMinutes: 30,
          },
        ],
      }),
    );
    expect(html).toMatch(
      /id="rule-offline" type="checkbox"[^>]*name="enabled" checked="" value="offline"/,
    );
    expect(html).toContain('Tell after (minutes)<span class="sr-only"> of Offline</span>');
    expect(html).toMatch(/id="delay-offline" type="number"[^>]*name="delay-offline" value="30"/);
  });

  it('asks a webhook’s address, kinds and buildings', () => {
    const html = renderToStaticMarkup(
      createElement(AddWebhookForm, {
        action,
        kinds,
        buildings: [{ buildingId: A, name: 'North House' }],
        defaultKinds: ['freeze'],
      }),
    );
    expect(html).toContain('aria-label="Add a webhook"');
    expect(html).toContain('Endpoint address');
    expect(html).toContain('name="kinds" checked="" value="freeze"');
    expect(html).not.toContain('Signing secret');
  });

  it('lists incidents and the delivery log in words, linking to the thermostat', () => {
    const list = renderToStaticMarkup(
      createElement(IncidentList, {
        incidents: [incident],
        unit: 'F',
        now: new Date(),
        scope: null,
        zone: 'America/New_York',
      }),
    );
    expect(list).toContain('href="/thermostats/100000000001"');
    // A building's incident in the building's zone, named; the log in the reader's.
    expect(list).toContain(
      'Since <time dateTime="2026-01-15T11:00:00.000Z">Jan 15, 2026, 11:00 AM UTC</time>',
    );
    expect(list).toContain('Unit 1, North House');
    const entry: LogEntry = {
      id: '33333333-3333-4333-8333-333333333333',
      createdAt: new Date('2026-01-15T11:30:00Z'),
      event: 'opened',
      channel: 'webhook',
      recipient: 'https://hooks.example.com/in',
      status: 'paused',
      attempts: 3,
      lastError: 'The endpoint failed with a server error (HTTP 500).',
      notBefore: null,
      sentAt: null,
      payload: null,
      incident,
    };
    const log = renderToStaticMarkup(
      createElement(DeliveryLog, {
        entries: [entry],
        caption: 'Delivery log',
        zone: 'America/New_York',
      }),
    );
    expect(log).toContain('Jan 15, 2026, 6:30 AM EST');
    expect(log).toContain('Opened: Offline, Unit 1, North House');
    expect(log).toContain('Webhook: https://hooks.example.com/in');
    // Words in the outcome; the status code folded away for a technician.
    expect(log).toContain(
      'Waiting for the endpoint to be resumed: The endpoint failed with a server error.',
    );
    expect(log).toMatch(
      /<details[^>]*><summary[^>]*>Technical detail<\/summary><p[^>]*>System code: <code[^>]*>HTTP 500<\/code>/,
    );
  });

  it('says why a notice failed in words, never a system code among them', () => {
    const base: LogEntry = {
      id: '44444444-4444-4444-8444-444444444444',
      createdAt: new Date('2026-01-15T11:30:00Z'),
      event: 'opened',
      channel: 'webhook',
      recipient: 'https://hooks.example.com/in',
      status: 'failed',
      attempts: 8,
      lastError:
        'Could not reach the endpoint: its name was not found (ENOTFOUND). Gave up after 8 attempts.',
      notBefore: null,
      sentAt: null,
      payload: null,
      incident,
    };
    expect(noticeStatusWords(base)).toBe(
      'Failed: Could not reach the endpoint: its name was not found. Gave up after 8 attempts.',
    );
    expect(noticeCodes(base)).toEqual(['ENOTFOUND']);
    const html = renderToStaticMarkup(
      createElement(DeliveryLog, { entries: [base], caption: 'Delivery log', zone: 'UTC' }),
    );
    // The code only inside the disclosure, never in the outcome's words.
    const [outside, inside] = html.split('<details');
    expect(outside).not.toContain('ENOTFOUND');
    expect(inside).toContain('ENOTFOUND');

    for (const [reason, words, codes] of [
      [
        'The mail server refused the message (SMTP 550).',
        'The mail server refused the message.',
        ['SMTP 550'],
      ],
      ['Could not send it (ECONNREFUSED).', 'Could not send it.', ['ECONNREFUSED']],
      [
        'Could not reach the endpoint: its certificate was not accepted (CERT_HAS_EXPIRED).',
        'Could not reach the endpoint: its certificate was not accepted.',
        ['CERT_HAS_EXPIRED'],
      ],
      // Words in brackets are words: kept.
      [
        'Not sent: localhost resolves to a loopback address (this machine).',
        'Not sent: localhost resolves to a loopback address (this machine).',
        [],
      ],
      [
        'Setpoint could not send it (an error on the server).',
        'Setpoint could not send it (an error on the server).',
        [],
      ],
    ] as const) {
      expect(failureAndCodes(reason)).toEqual({ words, codes: [...codes] });
    }
    // Nothing to fold away: no disclosure.
    const sent = renderToStaticMarkup(
      createElement(DeliveryLog, {
        entries: [{ ...base, status: 'sent', lastError: null }],
        caption: 'Delivery log',
        zone: 'UTC',
      }),
    );
    expect(sent).not.toContain('<details');
  });

  it('reads the incidents’ filters and pages from the address, ignoring what is not one', () => {
    const B = 'bbbbbbbbbbbbbbbbbbbbbbbb';
    expect(
      readNotificationsView({ kind: 'offline', building: A, page: '3', log: '2' }, [A]),
    ).toEqual({
      kind: 'offline',
      building: A,
      page: 3,
      log: 2,
    });
    // Another's building, a kind that is none, pages that are not numbers: all, from page 1.
    expect(
      readNotificationsView({ kind: 'stale', building: B, page: '-2', log: 'x' }, [A]),
    ).toEqual({ kind: '', building: '', page: 1, log: 1 });
    expect(readNotificationsView({ page: ['2', '3'] }, [A]).page).toBe(1);
    const view = { kind: 'freeze', building: A, page: 2, log: 1 };
    expect(notificationsHref(view, { page: 3 }, 'incidents')).toBe(
      `/notifications?kind=freeze&building=${A}&page=3#incidents`,
    );
    expect(notificationsHref(view, { page: 1, kind: '' }, 'incidents')).toBe(
      `/notifications?building=${A}#incidents`,
    );
    expect(notificationsHref(view, { log: 2 }, 'delivery-log')).toBe(
      `/notifications?kind=freeze&building=${A}&page=2&log=2#delivery-log`,
    );
    expect(lastIncidentPage(0)).toBe(1);
    expect(lastIncidentPage(INCIDENTS_PER_PAGE)).toBe(1);
    expect(lastIncidentPage(INCIDENTS_PER_PAGE + 1)).toBe(2);
  });
});
