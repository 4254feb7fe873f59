import type { Metadata } from 'next';
import type { KindChoice } from '@/components/notifications/choices';
import { DeliveryLogSection } from '@/components/notifications/delivery-log-section';
import { IncidentsSection } from '@/components/notifications/incidents-section';
import { RulesSection } from '@/components/notifications/rules-section';
import { WebhooksSection } from '@/components/notifications/webhooks-section';
import { YourEmailSection } from '@/components/notifications/your-email-section';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import {
  countIncidents,
  type IncidentFilter,
  listDeliveryLog,
  listIncidents,
  listNotificationRules,
  listWebhookEndpoints,
} from '@/lib/notifications/store';
import { listBuildings } from '@/lib/portfolio/store';
import { emailEnabled } from '@/lib/platform/email';
import { readNotice } from '@/lib/platform/notice';
import {
  EVENT_KIND_NAMES,
  EVENT_KINDS,
  INCIDENT_KIND_NAMES,
  INCIDENT_KINDS,
  rulesOf,
} from '@/lib/notifications/kinds';
import {
  INCIDENTS_PER_PAGE,
  isFiltered,
  LOG_PER_PAGE,
  lastIncidentPage,
  readNotificationsView,
} from '@/lib/notifications/page-view';
import { subscriptionOf } from '@/lib/notifications/settings';
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

/**
 * Who hears of incidents, and the incidents themselves, in that order: each member's own email
 * first; for owners and admins, the organisation's rules and webhooks; then the incidents people
 * were told of (in the member's buildings), ten a page and filtered by kind and building in the
 * address; last the delivery log (an owner's or admin's whole, a member's own), a page at a time.
 * Every form posts without JavaScript.
 */
export default async function NotificationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const params = await searchParams;
  const notice = readNotice(params, member);
  const manages = can(member, 'manage_notifications');
  const now = new Date();
  const [subscription, buildings, storedRules, endpoints] = await Promise.all([
    subscriptionOf(member),
    listBuildings({ scope: member }),
    listNotificationRules({ orgId: member.orgId }),
    manages ? listWebhookEndpoints({ orgId: member.orgId }) : Promise.resolve([]),
  ]);
  // The view in the address, a building only among the member's own.
  const view = readNotificationsView(
    params,
    buildings.map((b) => b.buildingId),
  );
  const listed = {
    scope: member,
    resolvedSince: new Date(now.getTime() - RESOLVED_SHOWN_MS),
    filter: {
      kind: view.kind || undefined,
      buildingId: view.building || undefined,
    } satisfies IncidentFilter,
  };
  const [counts, everyKind, pageOfIncidents, logRows] = await Promise.all([
    countIncidents(listed),
    isFiltered(view) ? countIncidents({ ...listed, filter: undefined }) : Promise.resolve(null),
    listIncidents({
      ...listed,
      offset: (view.page - 1) * INCIDENTS_PER_PAGE,
      limit: INCIDENTS_PER_PAGE,
    }),
    listDeliveryLog({
      orgId: member.orgId,
      member: manages ? undefined : member,
      offset: (view.log - 1) * LOG_PER_PAGE,
      limit: LOG_PER_PAGE + 1,
    }),
  ]);
  // A page past the last (the list shrank since the link was made) shows the last page.
  const lastPage = lastIncidentPage(counts.total);
  const page = Math.min(view.page, lastPage);
  const incidents =
    page === view.page
      ? pageOfIncidents
      : await listIncidents({
          ...listed,
          offset: (page - 1) * INCIDENTS_PER_PAGE,
          limit: INCIDENTS_PER_PAGE,
        });
  const log = logRows.slice(0, LOG_PER_PAGE);
  const olderLog = logRows.length > LOG_PER_PAGE;
  const here = { ...view, page };
  const rules = rulesOf(storedRules);
  const kinds: KindChoice[] = INCIDENT_KIND_NAMES.map((kind) => ({
    kind,
    name: INCIDENT_KINDS[kind].name,
    help: INCIDENT_KINDS[kind].help,
    off: !rules[kind].enabled,
  }));
  const buildingChoices = buildings.map(({ buildingId, name }) => ({ buildingId, name }));
  const defaultKinds = INCIDENT_KIND_NAMES.filter((kind) => rules[kind].enabled);
  const emailOn = emailEnabled();
  const sections = [
    ['your-email', 'Your email'],
    ...(manages
      ? [
          ['rules', 'Rules'],
          ['webhooks', 'Webhooks'],
        ]
      : []),
    ['incidents', 'Incidents'],
    ['delivery-log', manages ? 'Delivery log' : 'Your notices'],
  ] as const;

  return (
    <div className="grid gap-6">
      <PageHeader title="Notifications">
        Setpoint opens an incident when something in your buildings needs attention for long enough,
        tells the people who asked (by email and webhooks), and says so again when it clears: one
        incident per cause, not one message per reading.
      </PageHeader>

      <RedirectNotice notice={notice} />
      {emailOn ? null : (
        <Notice tone="warning">
          Email is not set up on this Setpoint, so no email is sent: notices are logged as not sent.
          Webhooks and the list below work without it.{' '}
          {manages
            ? 'Whoever runs Setpoint sets it up with the SMTP_URL setting.'
            : 'Ask an owner or admin if you want email.'}
        </Notice>
      )}

      <nav aria-label="On this page" className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {sections.map(([id, title]) => (
          <a key={id} href={`#${id}`} className="underline underline-offset-2">
            {title}
          </a>
        ))}
      </nav>

      <YourEmailSection
        member={member}
        subscription={subscription}
        kinds={kinds}
        buildings={buildingChoices}
        defaultKinds={defaultKinds}
        emailOn={emailOn}
        save={saveMySubscription}
        sendTest={sendMeATestEmail}
      />
      {manages ? <RulesSection rules={rules} action={saveNotificationRulesAction} /> : null}
      {manages ? (
        <WebhooksSection
          endpoints={endpoints}
          kinds={[
            ...kinds,
            ...EVENT_KIND_NAMES.map((kind) => ({ kind, ...EVENT_KINDS[kind], off: false })),
          ]}
          buildings={buildingChoices}
          defaultKinds={defaultKinds}
          zone={member.timeZone}
          add={addWebhookAction}
          actionsFor={(endpointId) => ({
            test: testWebhookAction.bind(null, endpointId),
            resume: resumeWebhookAction.bind(null, endpointId),
            remove: removeWebhookAction.bind(null, endpointId),
          })}
        />
      ) : null}
      <IncidentsSection
        member={member}
        view={here}
        counts={counts}
        everyKind={everyKind}
        incidents={incidents}
        lastPage={lastPage}
        buildings={buildingChoices}
        now={now}
      />
      <DeliveryLogSection
        entries={log}
        older={olderLog}
        view={here}
        manages={manages}
        zone={member.timeZone}
      />
    </div>
  );
}
