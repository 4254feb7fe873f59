import type { Metadata } from 'next';
import { CardSection } from '@/components/notifications/card-section';
import type { KindChoice } from '@/components/notifications/choices';
import { DeliveryLog, TechnicalDetail } from '@/components/notifications/delivery-log';
import { IncidentList } from '@/components/notifications/incident-list';
import { RulesForm } from '@/components/notifications/rules-form';
import { SubscriptionForm } from '@/components/notifications/subscription-form';
import { AddWebhookForm } from '@/components/notifications/webhook-forms';
import { ButtonForm } from '@/components/ui/button-form';
import { ConfirmForm } from '@/components/ui/confirm-form';
import { FilterButtons, FilterSelect } from '@/components/ui/filters';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { When } from '@/components/ui/when';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import {
  countIncidents,
  type EndpointListing,
  type IncidentFilter,
  listDeliveryLog,
  listIncidents,
  listNotificationRules,
  listWebhookEndpoints,
} from '@/lib/notifications/store';
import { listBuildings } from '@/lib/portfolio/store';
import { emailEnabled } from '@/lib/platform/email';
import { readNotice } from '@/lib/platform/notice';
import { displayUrl } from '@/lib/notifications/fan-out';
import { INCIDENT_KIND_NAMES, INCIDENT_KINDS, isUrgent, rulesOf } from '@/lib/notifications/kinds';
import {
  INCIDENTS_PER_PAGE,
  isFiltered,
  LOG_PER_PAGE,
  lastIncidentPage,
  notificationsHref,
  readNotificationsView,
} from '@/lib/notifications/page-view';
import { formatMinutes } from '@/lib/notifications/quiet-hours';
import { subscriptionOf } from '@/lib/notifications/settings';
import { failureAndCodes } from '@/lib/notifications/words';
import { timeZoneName } from '@/lib/platform/words';
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
  const buildingName = new Map(buildings.map((b) => [b.buildingId, b.name]));
  const defaultKinds = INCIDENT_KIND_NAMES.filter((kind) => rules[kind].enabled);
  const inScope = member.buildingIds === null ? 'the portfolio' : 'your buildings';
  const first = (page - 1) * INCIDENTS_PER_PAGE + 1;
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
      {emailEnabled() ? null : (
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

      <CardSection
        id="your-email"
        title="Your email"
        intro={
          <>
            To {member.email}, only of {member.buildingIds === null ? 'the' : 'your'} buildings you
            can see.
            {subscription?.mode === 'off' || !subscription ? ' You are not emailed now.' : ''}
            {subscription?.quietStart != null && subscription.quietEnd != null
              ? ` Quiet hours ${formatMinutes(subscription.quietStart)} to ${formatMinutes(subscription.quietEnd)}.`
              : ''}
          </>
        }
      >
        <SubscriptionForm
          action={saveMySubscription}
          kinds={kinds}
          buildings={buildingChoices}
          allBuildingsLabel={
            member.buildingIds === null
              ? 'Every building'
              : 'Every building I look after, as they change'
          }
          zoneName={timeZoneName(member.timeZone)}
          initial={{
            mode: subscription?.mode ?? 'off',
            kinds: subscription?.kinds ?? defaultKinds,
            buildingScope: subscription?.buildingIds ? 'chosen' : 'all',
            buildingIds: subscription?.buildingIds ?? [],
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
      </CardSection>

      {manages ? (
        <CardSection
          id="rules"
          title="Rules"
          intro={
            <>
              For the whole organisation: which kinds of incident are opened, and how many minutes a
              cause must last before anyone is told (a blip that clears sooner tells no one). The
              conditions are those of Needs attention.
            </>
          }
        >
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
        </CardSection>
      ) : null}

      {manages ? (
        <CardSection
          id="webhooks"
          title="Webhooks"
          intro={
            <>
              Each incident opened or resolved is POSTed as JSON, signed per Standard Webhooks with
              the endpoint’s own secret. A failed delivery is retried with backoff for about an
              hour; after 10 failures in a row the endpoint is paused until you resume it. Endpoints
              must be on the public internet: a private, loopback or link-local address is refused.
            </>
          }
        >
          {endpoints.length === 0 ? (
            <p className="text-sm">No webhooks yet.</p>
          ) : (
            <ul className="divide-y divide-slate-100 dark:divide-slate-800">
              {endpoints.map((endpoint) => {
                const state = ENDPOINT_STATES[endpoint.status];
                const where = displayUrl(endpoint.url);
                // Words for everyone; a system code it carried, for a technician.
                const failed =
                  endpoint.lastError && endpoint.status !== 'active'
                    ? failureAndCodes(endpoint.lastError)
                    : null;
                return (
                  <li key={endpoint.id} className="grid gap-3 py-4">
                    <div className="min-w-0 text-sm">
                      <p className="font-medium break-all">{where}</p>
                      {endpoint.description ? (
                        <p className="text-muted">{endpoint.description}</p>
                      ) : null}
                      <p>
                        <span className={`font-medium ${state.className}`}>{state.label}</span>
                        {failed ? `: ${failed.words}` : ''}
                      </p>
                      {failed ? <TechnicalDetail codes={failed.codes} /> : null}
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
                            <When at={endpoint.lastSuccessAt} zone={member.timeZone} />.
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
        </CardSection>
      ) : null}

      <CardSection
        id="incidents"
        title="Incidents"
        intro={
          <>
            {everyKind && everyKind.open > 0
              ? `${everyKind.open} open in ${inScope}; ${counts.open} of them ${counts.open === 1 ? 'matches' : 'match'} these filters.`
              : counts.open === 0
                ? `Nothing open in ${inScope}${isFiltered(view) ? ' matches these filters' : ''}.`
                : `${counts.open} open in ${inScope}.`}{' '}
            Resolved ones stay here for a week. Needs attention lists everything as it is now.
          </>
        }
      >
        {/* Offered once there is something to narrow, and always while narrowed (to widen). */}
        {counts.total > 0 || isFiltered(view) ? (
          <form
            method="get"
            action="/notifications#incidents"
            aria-label="Filter incidents"
            className="flex flex-wrap items-end gap-3"
          >
            <FilterSelect
              label="Kind"
              name="kind"
              value={view.kind}
              all="Every kind"
              options={INCIDENT_KIND_NAMES.map((kind) => ({
                value: kind,
                label: INCIDENT_KINDS[kind].name,
              }))}
            />
            {buildings.length > 1 ? (
              <FilterSelect
                label="Building"
                name="building"
                value={view.building}
                all={member.buildingIds === null ? 'Every building' : 'All my buildings'}
                options={buildings.map((b) => ({ value: b.buildingId, label: b.name }))}
              />
            ) : null}
            <FilterButtons filtered={isFiltered(view)} clearHref="/notifications#incidents" />
          </form>
        ) : null}
        {incidents.length > 0 ? (
          <>
            <p className="text-sm">
              {counts.total <= INCIDENTS_PER_PAGE
                ? `${counts.total} ${counts.total === 1 ? 'incident' : 'incidents'}`
                : `Incidents ${first}–${first + incidents.length - 1} of ${counts.total}`}
              {isFiltered(view) ? ' matching these filters' : ''}, open ones first.
            </p>
            <IncidentList
              incidents={incidents}
              unit={member.temperatureUnit}
              now={now}
              scope={member.buildingIds}
              zone={member.timeZone}
            />
          </>
        ) : isFiltered(view) ? (
          <p className="text-sm">No incident in the last week matches these filters.</p>
        ) : null}
        {lastPage > 1 ? (
          <nav aria-label="Incident pages" className="flex flex-wrap items-center gap-4 text-sm">
            {page > 1 ? (
              <Link
                href={notificationsHref(here, { page: page - 1 }, 'incidents')}
                className="underline"
              >
                Previous {INCIDENTS_PER_PAGE}
              </Link>
            ) : null}
            <span>
              Page {page} of {lastPage}
            </span>
            {page < lastPage ? (
              <Link
                href={notificationsHref(here, { page: page + 1 }, 'incidents')}
                className="underline"
              >
                Next {INCIDENTS_PER_PAGE}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </CardSection>

      <CardSection
        id="delivery-log"
        title={manages ? 'Delivery log' : 'Your notices'}
        gap="gap-3"
        intro={
          manages
            ? `Every notice to every member and webhook, newest first, ${LOG_PER_PAGE} a page.`
            : `What Setpoint sent you, newest first, ${LOG_PER_PAGE} a page.`
        }
      >
        {log.length === 0 ? (
          <p className="text-sm">{view.log > 1 ? 'Nothing older.' : 'Nothing sent yet.'}</p>
        ) : (
          <DeliveryLog
            entries={log}
            caption={manages ? 'Delivery log' : 'Your notices'}
            zone={member.timeZone}
          />
        )}
        {view.log > 1 || olderLog ? (
          <nav aria-label="Delivery log pages" className="flex flex-wrap gap-4 text-sm">
            {view.log > 1 ? (
              <Link
                href={notificationsHref(here, { log: 1 }, 'delivery-log')}
                className="underline"
              >
                Newest
              </Link>
            ) : null}
            {olderLog ? (
              <Link
                href={notificationsHref(here, { log: view.log + 1 }, 'delivery-log')}
                className="underline"
              >
                Older notices
              </Link>
            ) : null}
          </nav>
        ) : null}
      </CardSection>
    </div>
  );
}
