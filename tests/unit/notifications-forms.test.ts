import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DeliveryLog } from '@/components/notifications/delivery-log';
import { IncidentList } from '@/components/notifications/incident-list';
import { RulesForm } from '@/components/notifications/rules-form';
import { SubscriptionForm } from '@/components/notifications/subscription-form';
import { AddWebhookForm } from '@/components/notifications/webhook-forms';
import type { IncidentRow, LogEntry } from '@/lib/db/notifications';
import type { FormState } from '@/lib/forms';
import { INCIDENT_KIND_NAMES, INCIDENT_KINDS } from '@/lib/notifications/kinds';
import { subscriptionInput, subscriptionSchema } from '@/lib/notifications/settings';

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
        timeZones: [{ value: 'UTC', label: 'UTC' }],
        allBuildingsLabel: 'Every building I look after, as they change',
        initial: {
          mode: 'digest',
          kinds: ['offline'],
          buildingScope: 'all',
          buildingIds: [],
          timeZone: 'UTC',
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
  });

  it('reads a posted subscription back, refusing half of quiet hours', () => {
    const form = new FormData();
    form.set('mode', 'immediate');
    form.append('kinds', 'offline');
    form.append('kinds', 'freeze');
    form.set('buildingScope', 'chosen');
    form.append('buildingIds', A);
    form.set('timeZone', 'America/New_York');
    form.set('digestHour', '6');
    form.set('quietStart', '22:30');
    form.set('quietEnd', '06:00');
    expect(subscriptionSchema.parse(subscriptionInput(form))).toEqual({
      mode: 'immediate',
      kinds: ['offline', 'freeze'],
      buildings: [A],
      timeZone: 'America/New_York',
      digestHour: 6,
      quietStart: 22 * 60 + 30,
      quietEnd: 6 * 60,
    });
    form.set('quietEnd', '');
    form.set('timeZone', 'Mars/Olympus');
    const issues = subscriptionSchema.safeParse(subscriptionInput(form)).error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['timeZone', 'Choose a time zone from the list.'],
      ['quietEnd', 'Give both ends of quiet hours, or neither.'],
    ]);
    form.set('timeZone', 'UTC');
    expect(
      subscriptionSchema.safeParse(subscriptionInput(form)).error?.issues.map((i) => i.message),
    ).toEqual(['Give both ends of quiet hours, or neither.']);
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
      }),
    );
    expect(list).toContain('href="/thermostats/100000000001"');
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
      incident,
    };
    const log = renderToStaticMarkup(
      createElement(DeliveryLog, { entries: [entry], caption: 'Delivery log' }),
    );
    expect(log).toContain('Opened: Offline, Unit 1, North House');
    expect(log).toContain('Webhook: https://hooks.example.com/in');
    expect(log).toContain(
      'Waiting for the endpoint to be resumed: The endpoint failed with a server error (HTTP 500).',
    );
  });
});
