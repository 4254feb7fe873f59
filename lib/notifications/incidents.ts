import 'server-only';
import { dateIn } from '@/lib/attention/conditions';
import { listAttention } from '@/lib/attention/list';
import {
  applyIncidentPlan,
  listDigestSubscriptions,
  listFailedRuns,
  listKnownThermostats,
  listNotificationRules,
  listOpenIncidents,
  listOrganizationsToReconcile,
  listStrandedNotices,
  listSubscribers,
  listWebhookEndpoints,
  releaseHeldNotices,
  type SubscriberRow,
  takeDigest,
} from '@/lib/notifications/store';
import { listOrganizationBuildings } from '@/lib/portfolio/store';
import type { Scope } from '@/lib/db/scope';
import { logWarning } from '@/lib/platform/log';
import { queueNotices } from './delivery';
import { type Endpoint, notificationsOf, type Subscriber } from './fan-out';
import { isIncidentKind, rulesOf } from './kinds';
import { minutesIn } from './quiet-hours';
import { causesOfItems, causesOfRuns, planReconcile, type Resolution } from './reconcile';

/**
 * The notifications' jobs: every minute, each organisation's incidents are brought in step with
 * what needs attention (lib/attention, the same rules as the page) and its failed bulk runs, and
 * the notices of what opened or cleared are written and queued; notices held by quiet hours are
 * released when they end; each member's digest goes at their hour.
 */

/** A failed run is an incident for a week, unless a retry reaches every thermostat sooner. */
export const FAILED_RUN_WINDOW_MS = 7 * 24 * 60 * 60_000;

/** Setpoint itself, reading a whole organisation. */
const wholeOrganization = (orgId: string): Scope => ({ orgId, userId: '', buildingIds: null });

export const subscriberOf = (row: SubscriberRow): Subscriber => ({
  userId: row.userId,
  email: row.email,
  role: row.role,
  memberBuildingIds: row.memberBuildingIds,
  mode: row.mode === 'digest' ? 'digest' : 'immediate',
  kinds: row.kinds,
  buildingIds: row.buildingIds,
  timeZone: row.timeZone,
  quiet:
    row.quietStart !== null && row.quietEnd !== null
      ? { start: row.quietStart, end: row.quietEnd }
      : null,
});

/** Brings one organisation's incidents in step with now, and queues the notices of the change. */
export async function reconcileOrganization(input: { orgId: string; now?: Date }) {
  const now = input.now ?? new Date();
  const { orgId } = input;
  const [{ items }, runs, open, stored, subscribers, endpoints, buildings] = await Promise.all([
    listAttention({ scope: wholeOrganization(orgId), now }),
    listFailedRuns({ orgId, since: new Date(now.getTime() - FAILED_RUN_WINDOW_MS) }),
    listOpenIncidents({ orgId }),
    listNotificationRules({ orgId }),
    listSubscribers({ orgId }),
    listWebhookEndpoints({ orgId }),
    listOrganizationBuildings({ orgId }),
  ]);
  const retries = new Map(runs.map((run) => [run.runId, run.retry]));
  const causes = [
    ...causesOfItems(items),
    ...causesOfRuns(runs.filter((run) => run.retry === 'none' || run.retry === 'partial')),
  ];
  const current = new Set(causes.map((cause) => cause.subject));
  const known = await listKnownThermostats({
    orgId,
    thermostatIds: open
      .filter(
        (incident) =>
          incident.kind !== 'run_failed' && incident.subject && !current.has(incident.subject),
      )
      .map((incident) => incident.subject),
  });
  const whyGone = (incident: { kind: string; subject: string }): Resolution | null => {
    if (incident.kind === 'run_failed') {
      const retry = retries.get(incident.subject);
      return retry === 'failed' ? 'superseded' : retry === 'clean' ? null : 'expired';
    }
    // Gone from the portfolio only when none of its causes remain and it is not known: a
    // thermostat with another cause still open (too cold after freeze risk) is still there.
    return incident.subject && !current.has(incident.subject) && !known.has(incident.subject)
      ? 'removed'
      : null;
  };
  const plan = planReconcile({ causes, open, rules: rulesOf(stored), now, whyGone });
  if (plan.open.length + plan.keep.length + plan.resolve.length === 0) {
    return { opened: 0, announced: 0, resolved: 0, notices: 0 };
  }
  const zones = new Map(buildings.map((building) => [building.buildingId, building.timeZone]));
  const people = subscribers.map(subscriberOf);
  const hooks: Endpoint[] = endpoints;
  const result = await applyIncidentPlan({
    orgId,
    plan,
    now,
    fanOut: (events, told) =>
      events.flatMap((event) =>
        isIncidentKind(event.kind)
          ? notificationsOf({
              event: { ...event, kind: event.kind },
              subscribers: people,
              endpoints: hooks,
              zoneOf: (buildingId) => zones.get(buildingId) ?? null,
              told:
                event.event === 'resolved' ? (told.get(event.incidentId) ?? new Set()) : undefined,
              now,
            })
          : [],
      ),
  });
  await queueNotices(result.notices);
  return {
    opened: result.opened,
    announced: result.announced,
    resolved: result.resolved,
    notices: result.notices.length,
  };
}

/**
 * The minute's round: every organisation reconciled (one failing does not stop the others), then
 * notices whose quiet hours ended, and any pending notice no job carries, queued.
 */
export async function runNotificationRound(now = new Date()): Promise<void> {
  for (const organization of await listOrganizationsToReconcile()) {
    try {
      await reconcileOrganization({ orgId: organization.id, now });
    } catch (error) {
      logWarning(`notifications: incidents of an organisation not reconciled`, String(error));
    }
  }
  await queueNotices(await releaseHeldNotices({ now }));
  await queueNotices(await listStrandedNotices({ now }));
}

/** Sends each member's digest once their hour has come today, in their zone. */
export async function sendDueDigests(now = new Date()): Promise<number> {
  let sent = 0;
  for (const subscription of await listDigestSubscriptions()) {
    const date = dateIn(subscription.timeZone, now);
    if (subscription.lastDigestDate === date) continue;
    if (minutesIn(subscription.timeZone, now) < subscription.digestHour * 60) continue;
    const notices = await takeDigest({
      orgId: subscription.orgId,
      userId: subscription.userId,
      date,
    });
    await queueNotices(notices, { digest: true });
    if (notices.length > 0) sent += 1;
  }
  return sent;
}
