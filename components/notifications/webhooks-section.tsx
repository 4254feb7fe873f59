import { ButtonForm } from '@/components/ui/button-form';
import { ConfirmForm } from '@/components/ui/confirm-form';
import { When } from '@/components/ui/when';
import { displayUrl } from '@/lib/notifications/fan-out';
import { EVENT_KINDS, INCIDENT_KINDS } from '@/lib/notifications/kinds';
import type { EndpointListing } from '@/lib/notifications/store';
import { failureAndCodes } from '@/lib/notifications/words';
import type { FormAction } from '@/lib/platform/forms';
import { CardSection } from './card-section';
import type { BuildingChoice, KindChoice } from './choices';
import { TechnicalDetail } from './delivery-log';
import { AddWebhookForm } from './webhook-forms';

const ENDPOINT_STATES: Record<EndpointListing['status'], { label: string; className: string }> = {
  active: { label: 'Active', className: 'text-success' },
  failing: { label: 'Failing: retrying', className: 'text-caution' },
  paused: { label: 'Paused after failing repeatedly', className: 'text-danger' },
};

/** What can be done to one endpoint, each action bound to it by the page. */
export type EndpointActions = { test: FormAction; resume: FormAction; remove: FormAction };

/**
 * The organisation's webhooks (`#webhooks`), for owners and admins: each endpoint, how its
 * deliveries go and what can be done to it, then the form that adds one.
 */
export function WebhooksSection({
  endpoints,
  kinds,
  buildings,
  defaultKinds,
  zone,
  add,
  actionsFor,
}: {
  endpoints: EndpointListing[];
  kinds: KindChoice[];
  /** The reader's buildings: an endpoint's are named by them. */
  buildings: BuildingChoice[];
  /** The kinds a new endpoint starts with: those the organisation's rules have on. */
  defaultKinds: string[];
  /** The reader's zone, for the times. */
  zone: string;
  add: FormAction;
  actionsFor: (endpointId: string) => EndpointActions;
}) {
  const buildingName = new Map(buildings.map((b) => [b.buildingId, b.name]));
  return (
    <CardSection
      id="webhooks"
      title="Webhooks"
      intro={
        <>
          Each incident opened or resolved, and each unit occupancy change or finished run the
          endpoint chose, is POSTed as JSON, signed per Standard Webhooks with the endpoint’s own
          secret. A failed delivery is retried with backoff for about an hour; after 10 failures in
          a row the endpoint is paused until you resume it. Endpoints must be on the public
          internet: a private, loopback or link-local address is refused.
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
            const actions = actionsFor(endpoint.id);
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
                          : kind in EVENT_KINDS
                            ? EVENT_KINDS[kind as keyof typeof EVENT_KINDS].name
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
                        Last delivered <When at={endpoint.lastSuccessAt} zone={zone} />.
                      </>
                    ) : null}
                  </p>
                </div>
                <div className="flex flex-wrap items-start gap-3">
                  <ButtonForm
                    action={actions.test}
                    label={`Send a test to ${where}`}
                    pending="Sending…"
                  />
                  {endpoint.status === 'active' ? null : (
                    <ButtonForm
                      action={actions.resume}
                      label={`Resume ${where}`}
                      pending="Resuming…"
                    />
                  )}
                </div>
                <ConfirmForm
                  action={actions.remove}
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
          action={add}
          kinds={kinds}
          buildings={buildings}
          defaultKinds={defaultKinds}
        />
      </div>
    </CardSection>
  );
}
