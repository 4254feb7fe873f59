import type { Role } from '@/lib/db/schema';
import { type IncidentKind, isUrgent } from './kinds';
import { type QuietHours, quietUntil } from './quiet-hours';

/**
 * Who is told of an incident's event, and when: pure, so the scope rule ("a member of one
 * building is never told of another") is one function that the fan-out and the delivery both
 * ask, the second time with the member's scope as it is when the message goes.
 */

/**
 * Whether a member whose role sees `scope` (null: every building) may know of an incident.
 * Every building it concerns must be theirs; an incident of the whole organisation (the
 * connection) concerns everyone's buildings. A failed run is the exception: it is told in parts,
 * so a member of any building where it failed knows of it, worded as their share only.
 */
export function mayKnow(
  scope: readonly string[] | null,
  incident: { kind: string; buildingIds: readonly string[] },
) {
  if (scope === null) return true;
  if (incident.kind === 'run_failed') return incident.buildingIds.some((id) => scope.includes(id));
  return incident.buildingIds.every((id) => scope.includes(id));
}

/** Whether a subscription's choice of kinds and buildings takes this incident. */
export function wants(
  filter: { kinds: readonly string[]; buildingIds: readonly string[] | null },
  incident: { kind: string; buildingIds: readonly string[] },
): boolean {
  if (!filter.kinds.includes(incident.kind)) return false;
  if (filter.buildingIds === null || incident.buildingIds.length === 0) return true;
  return incident.buildingIds.some((id) => filter.buildingIds?.includes(id));
}

/** The scope a role gives: a building manager's buildings, or every building (null). */
export const scopeOf = (member: { role: Role; buildingIds: readonly string[] }) =>
  member.role === 'building_manager' ? member.buildingIds : null;

export type Subscriber = {
  userId: string;
  email: string;
  role: Role;
  /** A building manager's buildings (other roles: ignored). */
  memberBuildingIds: string[];
  mode: 'immediate' | 'digest';
  kinds: string[];
  buildingIds: string[] | null;
  timeZone: string;
  quiet: QuietHours;
};

export type Endpoint = {
  id: string;
  url: string;
  kinds: string[];
  buildingIds: string[] | null;
  status: 'active' | 'failing' | 'paused';
};

export type IncidentEvent = {
  incidentId: string;
  event: 'opened' | 'resolved';
  kind: IncidentKind;
  buildingId: string | null;
  buildingIds: string[];
};

export type NewNotification = {
  incidentId: string;
  event: 'opened' | 'resolved';
  channel: 'email' | 'webhook';
  userId: string | null;
  endpointId: string | null;
  recipient: string;
  status: 'pending' | 'held' | 'digest' | 'paused';
  notBefore: Date | null;
};

/** How a recipient is known across events: told of an opening, told of its end. */
export const recipientKey = (row: { userId: string | null; endpointId: string | null }) =>
  row.userId ? `user:${row.userId}` : `endpoint:${row.endpointId}`;

/**
 * An endpoint's address as pages and logs show it: its origin only. Credentials, the query and
 * the path may be secret (a Slack or Zapier hook carries its token in the path), and the activity
 * log that records the address is read by every member; the description tells endpoints apart.
 */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' ? parsed.origin : `${parsed.origin}/…`;
  } catch {
    return 'an invalid address';
  }
}

/**
 * The notices of one event. A resolved notice goes only to those told of the opening (`told`:
 * their recipient keys), so no one hears of the end of something they never heard begin.
 */
export function notificationsOf(input: {
  event: IncidentEvent;
  subscribers: readonly Subscriber[];
  endpoints: readonly Endpoint[];
  /** A building's time zone, for quiet hours. */
  zoneOf: (buildingId: string) => string | null;
  told?: ReadonlySet<string>;
  now: Date;
}): NewNotification[] {
  const { event, now, told } = input;
  const base = { incidentId: event.incidentId, event: event.event };
  const urgent = isUrgent(event.kind);
  const rows: NewNotification[] = [];
  for (const subscriber of input.subscribers) {
    const key = recipientKey({ userId: subscriber.userId, endpointId: null });
    if (told && !told.has(key)) continue;
    if (
      !mayKnow(scopeOf({ role: subscriber.role, buildingIds: subscriber.memberBuildingIds }), event)
    )
      continue;
    if (!wants(subscriber, event)) continue;
    const zone = (event.buildingId && input.zoneOf(event.buildingId)) || subscriber.timeZone;
    const until = urgent ? now : quietUntil(subscriber.quiet, zone, now);
    rows.push({
      ...base,
      channel: 'email',
      userId: subscriber.userId,
      endpointId: null,
      recipient: subscriber.email,
      ...(urgent
        ? { status: 'pending', notBefore: null }
        : subscriber.mode === 'digest'
          ? { status: 'digest', notBefore: null }
          : until > now
            ? { status: 'held', notBefore: until }
            : { status: 'pending', notBefore: null }),
    });
  }
  for (const endpoint of input.endpoints) {
    if (told && !told.has(recipientKey({ userId: null, endpointId: endpoint.id }))) continue;
    if (!wants(endpoint, event)) continue;
    rows.push({
      ...base,
      channel: 'webhook',
      userId: null,
      endpointId: endpoint.id,
      recipient: displayUrl(endpoint.url),
      status: endpoint.status === 'paused' ? 'paused' : 'pending',
      notBefore: null,
    });
  }
  return rows;
}
