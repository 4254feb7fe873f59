import type { Metadata } from 'next';
import { ButtonForm } from '@/components/ui/button-form';
import { ConfirmForm } from '@/components/ui/confirm-form';
import type { KindChoice } from '@/components/notifications/choices';
import { DeliveryLog } from '@/components/notifications/delivery-log';
import { IncidentList } from '@/components/notifications/incident-list';
import { RulesForm } from '@/components/notifications/rules-form';
import { SubscriptionForm } from '@/components/notifications/subscription-form';
import { AddWebhookForm } from '@/components/notifications/webhook-forms';
import { Card } from '@/components/ui/card';
import { LocalTime } from '@/components/ui/local-time';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import {
  type EndpointListing,
  listDeliveryLog,
  listIncidents,
  listNotificationRules,
  listWebhookEndpoints,
} from '@/lib/db/notifications';
import { listBuildings } from '@/lib/db/queries';
import { emailEnabled } from '@/lib/email';
import { displayUrl } from '@/lib/notifications/fan-out';
import { INCIDENT_KIND_NAMES, INCIDENT_KINDS, isUrgent, rulesOf } from '@/lib/notifications/kinds';
import { formatMinutes } from '@/lib/notifications/quiet-hours';
import { subscriptionOf } from '@/lib/notifications/settings';
import { timeZoneName } from '@/lib/words';
import {
  addWebhookAction,
  removeWebhookAction,
  resumeWebhookAction,
  saveMySubscription,
  saveNotificationRulesAction,
  sendMeATestEmail,
  testWebhookAction,
} from './actions';

export const metadata: Metadata = { title: 'Notifications' };

/** Resolved incidents stay listed this long. */
const RESOLVED_SHOWN_MS = 7 * 24 * 60 * 60_000;

const ENDPOINT_STATES: Record<EndpointListing['status'], { label: string; className: string }> = {
  active: { label: 'Active', className: 'text-success' },
  failing: { label: 'Failing: retrying', className: 'text-caution' },
  paused: { label: 'Paused after failing repeatedly', className: 'text-danger' },
};

/**
 * Incidents and who hears of them: the incidents people were told of (in the member's
 * buildings), each member's own email, and, for owners and admins, the organisation's rules,
 * its webhooks and the whole delivery log. Every form posts without JavaScript.
 */
export default async function NotificationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const { removed, resumed, waiting } = await searchParams;
  const waitingCount = Math.max(0, Math.min(100_000, Number(waiting) || 0));
  const manages = can(member, 'manage_notifications');
  const now = new Date();
  const [incidents, subscription, buildings, storedRules, endpoints, log] = await Promise.all([
    listIncidents({ scope: member, resolvedSince: new Date(now.getTime() - RESOLVED_SHOWN_MS) }),
    subscriptionOf(member),
    listBuildings({ scope: member }),
    listNotificationRules({ orgId: member.orgId }),
    manages ? listWebhookEndpoints({ orgId: member.orgId }) : Promise.resolve([]),
    listDeliveryLog({ orgId: member.orgId, member: manages ? undefined : member }),
  ]);
  const rules = rulesOf(storedRules);
  const kinds: KindChoice[] = INCIDENT_KIND_NAMES.map((kind) => ({
    kind,
    name: INCIDENT_KINDS[kind].name,
    help: INCIDENT_KINDS[kind].help,
    off: !rules[kind].enabled,
  }));
  const buildingChoices = buildings.map(({ buildingId, name }) => ({ buildingId, name }));
  const buildingName = new Map(buildings.map((b) => [b.buildingId, b.name]));
  const zones = [
    ...new Set([
      ...buildings.map((b) => b.timeZone),
      ...(subscription ? [subscription.timeZone] : []),
      'UTC',
    ]),
  ];
  const defaultKinds = INCIDENT_KIND_NAMES.filter((kind) => rules[kind].enabled);
  const open = incidents.filter((incident) => incident.resolvedAt === null).length;

  return (
    <div className="grid gap-6">
      <PageHeader title="Notifications">
        Setpoint opens an incident when something in your buildings needs attention for long enough,
        tells the people who asked (by email and webhooks), and says so again when it clears: one
        incident per cause, not one message per reading.
      </PageHeader>

      {typeof removed === 'string' && removed ? (
        <Notice tone="success">Removed the webhook to {removed.slice(0, 300)}.</Notice>
      ) : null}
      {typeof resumed === 'string' && resumed ? (
        <Notice tone="success">
          Resumed the webhook to {resumed.slice(0, 300)}.
          {waitingCount > 0
            ? ` ${waitingCount} notice${waitingCount === 1 ? '' : 's'} that waited for it ${waitingCount === 1 ? 'is' : 'are'} being sent.`
            : ''}
        </Notice>
      ) : null}
      {emailEnabled() ? null : (
        <Notice tone="warning">
          Email is not set up on this Setpoint, so no email is sent: notices are logged as not sent.
          Webhooks and the list below work without it.{' '}
          {manages
            ? 'Whoever runs Setpoint sets it up with the SMTP_URL setting.'
            : 'Ask an owner or admin if you want email.'}
        </Notice>
      )}

      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">Incidents</h2>
        <p className="text-sm text-muted">
          {open === 0
            ? 'Nothing open in your buildings.'
            : `${open} open in ${member.buildingIds === null ? 'the portfolio' : 'your buildings'}.`}{' '}
          Resolved ones stay here for a week. Needs attention lists everything as it is now.
        </p>
        {incidents.length > 0 ? (
          <IncidentList
            incidents={incidents}
            unit={member.temperatureUnit}
            now={now}
            scope={member.buildingIds}
          />
        ) : null}
      </Card>

      <Card className="grid gap-4">
        <h2 className="text-lg font-medium">Your email</h2>
        <p className="text-sm text-muted">
          To {member.email}, only of {member.buildingIds === null ? 'the' : 'your'} buildings you
          can see.
          {subscription?.mode === 'off' || !subscription ? ' You are not emailed now.' : ''}
          {subscription?.quietStart != null && subscription.quietEnd != null
            ? ` Quiet hours ${formatMinutes(subscription.quietStart)} to ${formatMinutes(subscription.quietEnd)}.`
            : ''}
        </p>
        <SubscriptionForm
          action={saveMySubscription}
          kinds={kinds}
          buildings={buildingChoices}
          allBuildingsLabel={
            member.buildingIds === null
              ? 'Every building'
              : 'Every building I look after, as they change'
          }
          timeZones={zones.map((zone) => ({ value: zone, label: timeZoneName(zone) }))}
          initial={{
            mode: subscription?.mode ?? 'off',
            kinds: subscription?.kinds ?? defaultKinds,
            buildingScope: subscription?.buildingIds ? 'chosen' : 'all',
            buildingIds: subscription?.buildingIds ?? [],
            timeZone: subscription?.timeZone ?? buildings[0]?.timeZone ?? 'UTC',
            digestHour: String(subscription?.digestHour ?? 7),
            quietStart:
              subscription?.quietStart != null ? formatMinutes(subscription.quietStart) : '',
            quietEnd: subscription?.quietEnd != null ? formatMinutes(subscription.quietEnd) : '',
          }}
        />
        {emailEnabled() ? (
          <div className="border-t border-slate-100 pt-4 dark:border-slate-800">
            <ButtonForm action={sendMeATestEmail} label="Send me a test email" pending="Sending…" />
          </div>
        ) : null}
      </Card>

      {manages ? (
        <Card className="grid gap-4">
          <h2 className="text-lg font-medium">Rules</h2>
          <p className="text-sm text-muted">
            For the whole organisation: which kinds of incident are opened, and how many minutes a
            cause must last before anyone is told (a blip that clears sooner tells no one). The
            conditions are those of Needs attention.
          </p>
          <RulesForm
            action={saveNotificationRulesAction}
            rules={INCIDENT_KIND_NAMES.map((kind) => ({
              kind,
              name: INCIDENT_KINDS[kind].name,
              help: INCIDENT_KINDS[kind].help,
              urgent: isUrgent(kind),
              ...rules[kind],
            }))}
          />
        </Card>
      ) : null}

      {manages ? (
        <Card className="grid gap-4">
          <h2 className="text-lg font-medium">Webhooks</h2>
          <p className="text-sm text-muted">
            Each incident opened or resolved is POSTed as JSON, signed per Standard Webhooks with
            the endpoint’s own secret. A failed delivery is retried with backoff for about an hour;
            after 10 failures in a row the endpoint is paused until you resume it. Endpoints must be
            on the public internet: a private, loopback or link-local address is refused.
          </p>
          {endpoints.length === 0 ? (
            <p className="text-sm">No webhooks yet.</p>
          ) : (
            <ul className="divide-y divide-slate-100 dark:divide-slate-800">
              {endpoints.map((endpoint) => {
                const state = ENDPOINT_STATES[endpoint.status];
                const where = displayUrl(endpoint.url);
                return (
                  <li key={endpoint.id} className="grid gap-3 py-4">
                    <div className="min-w-0 text-sm">
                      <p className="font-medium break-all">{where}</p>
                      {endpoint.description ? (
                        <p className="text-muted">{endpoint.description}</p>
                      ) : null}
                      <p>
                        <span className={`font-medium ${state.className}`}>{state.label}</span>
                        {endpoint.lastError && endpoint.status !== 'active'
                          ? `: ${endpoint.lastError}`
                          : ''}
                      </p>
                      <p className="text-muted">
                        {endpoint.kinds
                          .map((kind) =>
                            kind in INCIDENT_KINDS
                              ? INCIDENT_KINDS[kind as keyof typeof INCIDENT_KINDS].name
                              : kind,
                          )
                          .join(', ')}
                        ;{' '}
                        {endpoint.buildingIds === null
                          ? 'every building'
                          : endpoint.buildingIds.map((id) => buildingName.get(id) ?? id).join(', ')}
                        . Added by {endpoint.createdByName}.
                        {endpoint.lastSuccessAt ? (
                          <>
                            {' '}
                            Last delivered{' '}
                            <LocalTime value={endpoint.lastSuccessAt.toISOString()} />.
                          </>
                        ) : null}
                      </p>
                    </div>
                    <div className="flex flex-wrap items-start gap-3">
                      <ButtonForm
                        action={testWebhookAction.bind(null, endpoint.id)}
                        label={`Send a test to ${where}`}
                        pending="Sending…"
                      />
                      {endpoint.status === 'active' ? null : (
                        <ButtonForm
                          action={resumeWebhookAction.bind(null, endpoint.id)}
                          label={`Resume ${where}`}
                          pending="Resuming…"
                        />
                      )}
                    </div>
                    <ConfirmForm
                      action={removeWebhookAction.bind(null, endpoint.id)}
                      label={`Remove ${where}`}
                      question="Nothing more is sent to it, and its lines of the delivery log go with it."
                      pending="Removing…"
                    />
                  </li>
                );
              })}
            </ul>
          )}
          {/* Not behind a disclosure: without JavaScript the page comes back closed, and the
              new secret, shown once, would be hidden in it. */}
          <div className="grid gap-3 border-t border-slate-100 pt-4 dark:border-slate-800">
            <h3 className="font-medium">Add a webhook</h3>
            <AddWebhookForm
              action={addWebhookAction}
              kinds={kinds}
              buildings={buildingChoices}
              defaultKinds={defaultKinds}
            />
          </div>
        </Card>
      ) : null}

      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">{manages ? 'Delivery log' : 'Your notices'}</h2>
        <p className="text-sm text-muted">
          {manages
            ? 'Every notice to every member and webhook, newest first (the last 100).'
            : 'What Setpoint sent you, newest first (the last 100).'}
        </p>
        {log.length === 0 ? (
          <p className="text-sm">Nothing sent yet.</p>
        ) : (
          <DeliveryLog entries={log} caption={manages ? 'Delivery log' : 'Your notices'} />
        )}
      </Card>
    </div>
  );
}
