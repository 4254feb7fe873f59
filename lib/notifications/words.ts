import type { AttentionItem, Severity } from '@/lib/attention/conditions';
import type { EventKind } from './kinds';
import { describeItem, formatDuration, TITLES } from '@/lib/attention/words';
import { type Email, escapeHtml } from '@/lib/platform/email';
import { formatMoment } from '@/lib/platform/time-format';
import type { TemperatureUnit } from '@/lib/platform/units';
import { INCIDENT_KINDS, isIncidentKind } from './kinds';

/**
 * What people read of an incident: its title and sentence (the needs-attention page's words, in
 * the reader's unit), where it leads, the email that tells a member of one or several, and the
 * webhook's JSON. Pure: the delivery, the page and the tests share it.
 */

/** An incident as its words need it. */
export type IncidentFacts = {
  id: string;
  kind: string;
  severity: Severity;
  facts: Record<string, unknown>;
  thermostatId: string | null;
  runId: string | null;
  buildingId: string | null;
  label: string | null;
  buildingName: string | null;
  timeZone: string | null;
  openedAt: Date;
  resolvedAt: Date | null;
};

const DATE_KEYS = ['since', 'readAt', 'addedAt', 'expiresAt'] as const;

/** A needs-attention item back from its stored JSON (its moments as dates again). */
export function reviveItem(facts: Record<string, unknown>): AttentionItem {
  const item: Record<string, unknown> = { ...facts };
  for (const key of DATE_KEYS) {
    if (typeof item[key] === 'string') item[key] = new Date(item[key]);
  }
  const last = item.last as { at?: unknown } | undefined;
  if (last && typeof last.at === 'string') item.last = { ...last, at: new Date(last.at) };
  return item as AttentionItem;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * A failed run's counts in the reader's buildings (`scope`; null: every building), from the
 * share of each building it recorded; null when the reader sees the whole run, or the incident
 * is older than those shares (then it was told only to those who see every building of it).
 */
function runShareIn(
  facts: Record<string, unknown>,
  scope: readonly string[] | null,
): { total: number; failed: number; notSent: number } | null {
  const byBuilding = facts.byBuilding;
  if (scope === null || !byBuilding || typeof byBuilding !== 'object') return null;
  const shares = Object.entries(byBuilding as Record<string, Record<string, unknown>>);
  if (shares.every(([buildingId]) => scope.includes(buildingId))) return null;
  const share = { total: 0, failed: 0, notSent: 0 };
  for (const [buildingId, counts] of shares) {
    if (!scope.includes(buildingId)) continue;
    share.total += Number(counts.total ?? 0);
    share.failed += Number(counts.failed ?? 0);
    share.notSent += Number(counts.notSent ?? 0);
  }
  return share;
}

/**
 * The incident's title and sentence as it stood (temperatures in `unit`, ages as of `now`). A
 * failed run reads as the reader's share when `scope` (a building manager's buildings) holds
 * only part of it, never the counts of buildings not theirs.
 */
export function incidentWords(
  incident: Pick<IncidentFacts, 'kind' | 'facts'>,
  options: { unit: TemperatureUnit; now: Date; scope?: readonly string[] | null },
): { title: string; detail: string } {
  const { facts } = incident;
  if (incident.kind === 'run_failed') {
    const share = runShareIn(facts, options.scope ?? null);
    const failed = share?.failed ?? Number(facts.failed ?? 0);
    const notSent = share?.notSent ?? Number(facts.notSent ?? 0);
    const total = share?.total ?? Number(facts.total ?? 0);
    const parts = [failed ? `${failed} failed` : '', notSent ? `${notSent} not sent` : '']
      .filter(Boolean)
      .join(', ');
    const where = share ? ' in your buildings' : '';
    return {
      title: INCIDENT_KINDS.run_failed.name,
      detail: `A bulk change started by ${String(facts.startedByName ?? 'someone')} did not reach ${failed + notSent} of its ${plural(total, 'thermostat')}${where} (${parts}). Its page lists them and can retry them.`,
    };
  }
  try {
    return describeItem(reviveItem(facts), options);
  } catch {
    // Facts of an older shape: the kind's name still says what it was.
    const title = isIncidentKind(incident.kind) ? INCIDENT_KINDS[incident.kind].name : 'Incident';
    return { title, detail: title };
  }
}

const RESOLVED: Record<string, string> = {
  freeze: 'Back above freezing risk',
  overheat: 'No longer overheating',
  too_cold: 'Back within its comfort band',
  too_hot: 'Back within its comfort band',
  offline: 'Back online',
  maintenance: 'Maintenance is no longer due (recorded, or the reminder was turned off)',
  run_failed: 'A retry reached every thermostat',
  connection_ended: 'The service connection works again',
  not_connected: 'A service account is connected',
  connection_expiring: 'Reconnected: the connection no longer runs out soon',
  mode_pending: 'The mode change took effect, or was withdrawn',
  failed_writes: 'The changes have succeeded since',
  template_drift: 'Matches its template again (or another template was applied)',
  vacant_unsettled: 'In its settings now (applied again, or the unit is occupied)',
  move_out_passed: 'The move-out, or the notice withdrawn, is recorded',
};

/** The title of an incident (the kind as it was last seen: "Maintenance overdue"). */
export function incidentTitle(incident: Pick<IncidentFacts, 'kind' | 'facts'>): string {
  if (incident.kind === 'run_failed') return INCIDENT_KINDS.run_failed.name;
  const kind = incident.facts.kind;
  if (typeof kind === 'string' && Object.hasOwn(TITLES, kind)) {
    return TITLES[kind as keyof typeof TITLES];
  }
  return isIncidentKind(incident.kind) ? INCIDENT_KINDS[incident.kind].name : 'Incident';
}

/** The sentence of a resolved notice: what cleared, after how long. */
export function resolvedWords(incident: Pick<IncidentFacts, 'kind' | 'openedAt' | 'resolvedAt'>) {
  const lasted = incident.resolvedAt
    ? ` after ${formatDuration(incident.resolvedAt.getTime() - incident.openedAt.getTime())}`
    : '';
  return `${RESOLVED[incident.kind] ?? 'Cleared'}${lasted}.`;
}

/** Where an incident leads in the app: its thermostat, its run, or the connection page. */
export function incidentPath(incident: Pick<IncidentFacts, 'thermostatId' | 'runId'>): string {
  if (incident.thermostatId) return `/thermostats/${encodeURIComponent(incident.thermostatId)}`;
  if (incident.runId) return `/bulk/runs/${encodeURIComponent(incident.runId)}`;
  return '/connection';
}

/** What it is about: "Unit 4B, Maple Court", "A bulk change", "The service connection". */
export function incidentSubject(
  incident: Pick<IncidentFacts, 'thermostatId' | 'runId' | 'label' | 'buildingName'>,
): string {
  if (incident.thermostatId) {
    const label = incident.label || incident.thermostatId;
    return incident.buildingName ? `${label}, ${incident.buildingName}` : label;
  }
  if (incident.runId) return 'A bulk change';
  return 'The service connection';
}

/** One event of one incident, as a message lists it. */
export type MessageItem = {
  event: 'opened' | 'resolved';
  incident: IncidentFacts;
  /** When the event happened (the notice's creation), for ages and the time shown. */
  at: Date;
};

type Line = { heading: string; subject: string; detail: string; when: string; link: string };

function lineOf(
  item: MessageItem,
  options: {
    unit: TemperatureUnit;
    appUrl: string;
    scope: readonly string[] | null;
    timeZone: string;
  },
): Line {
  const { incident } = item;
  const title = incidentTitle(incident);
  const resolved = item.event === 'resolved';
  const urgent = incident.severity === 'urgent' && !resolved;
  return {
    heading: `${resolved ? 'Resolved: ' : urgent ? 'Urgent: ' : ''}${title}`,
    subject: incidentSubject(incident),
    detail: resolved
      ? resolvedWords(incident)
      : incidentWords(incident, { unit: options.unit, now: item.at, scope: options.scope }).detail,
    when: `${resolved ? 'Resolved' : 'Since'} ${formatMoment(resolved ? (incident.resolvedAt ?? item.at) : incident.openedAt, incident.timeZone ?? options.timeZone)}`,
    link: new URL(incidentPath(incident), options.appUrl).toString(),
  };
}

/**
 * The email that tells a member of one or several events (one reconcile round's, or those held
 * by quiet hours), or of a day's as the digest: a plain-text and an HTML body, each event linking
 * to where it can be dealt with, most urgent first.
 */
export function notificationEmail(input: {
  to: string;
  orgName: string;
  items: readonly MessageItem[];
  digest: boolean;
  unit: TemperatureUnit;
  appUrl: string;
  /** The reader's buildings (null: every building), so that a failed run reads as their share. */
  scope: readonly string[] | null;
  /** The reader's zone, for incidents of no building (a building's are in its own zone). */
  timeZone: string;
}): Email {
  const rank = (item: MessageItem) =>
    (item.event === 'opened' ? 0 : 3) +
    ['urgent', 'warning', 'notice'].indexOf(item.incident.severity);
  const items = [...input.items].sort(
    (a, b) => rank(a) - rank(b) || a.at.getTime() - b.at.getTime(),
  );
  const lines = items.map((item) => lineOf(item, input));
  const opened = items.filter((item) => item.event === 'opened').length;
  const resolved = items.length - opened;
  const counts = [opened ? `${opened} opened` : '', resolved ? `${resolved} resolved` : '']
    .filter(Boolean)
    .join(', ');
  const first = lines[0];
  const subject = input.digest
    ? `Setpoint daily digest for ${input.orgName}: ${counts}`
    : lines.length === 1 && first
      ? `${first.heading}: ${first.subject}`
      : `Setpoint: ${plural(lines.length, 'update')} for ${input.orgName} (${counts})`;
  const settings = new URL('/notifications', input.appUrl).toString();
  const intro = input.digest
    ? `What happened in ${input.orgName} since your last digest:`
    : `Setpoint noticed ${lines.length === 1 ? 'this' : 'these'} in ${input.orgName}:`;
  const text = [
    intro,
    '',
    ...lines.flatMap((line) => [
      `${line.heading}: ${line.subject}`,
      line.detail,
      line.when,
      `Open it: ${line.link}`,
      '',
    ]),
    `You get this because of your notification settings: ${settings}`,
  ].join('\n');
  const html = `<p>${escapeHtml(intro)}</p>
${lines
  .map(
    (line) => `<div style="margin:0 0 16px">
<p style="margin:0"><strong>${escapeHtml(line.heading)}</strong>: ${escapeHtml(line.subject)}</p>
<p style="margin:4px 0">${escapeHtml(line.detail)}</p>
<p style="margin:4px 0;color:#555">${escapeHtml(line.when)}</p>
<p style="margin:4px 0"><a href="${escapeHtml(line.link)}">Open ${escapeHtml(line.subject)}</a></p>
</div>`,
  )
  .join('\n')}
<p style="color:#555">You get this because of your <a href="${escapeHtml(settings)}">notification settings</a>.</p>`;
  return { to: input.to, subject, text, html };
}

/** A member's test email, from the notifications page. */
export function testEmail(input: { to: string; orgName: string; appUrl: string }): Email {
  const settings = new URL('/notifications', input.appUrl).toString();
  return {
    to: input.to,
    subject: `Setpoint test message for ${input.orgName}`,
    text: `This is a test from Setpoint: email reaches you.\n\nYour notification settings: ${settings}`,
    html: `<p>This is a test from Setpoint: email reaches you.</p>\n<p><a href="${escapeHtml(settings)}">Your notification settings</a></p>`,
  };
}

/** The JSON a webhook receives (Standard Webhooks' `type`, `timestamp`, `data`). */
export function webhookPayload(input: {
  event: 'opened' | 'resolved' | 'test';
  at: Date;
  organization: { id: string; name: string };
  incident: IncidentFacts | null;
  appUrl: string;
}): string {
  const { incident } = input;
  const type = input.event === 'test' ? 'test' : `incident.${input.event}`;
  const data = incident
    ? {
        organization: input.organization,
        incident: {
          id: incident.id,
          kind: incident.kind,
          title: incidentTitle(incident),
          severity: incident.severity,
          status: incident.resolvedAt ? 'resolved' : 'open',
          detail:
            input.event === 'resolved'
              ? resolvedWords(incident)
              : incidentWords(incident, { unit: 'F', now: input.at }).detail,
          openedAt: incident.openedAt.toISOString(),
          resolvedAt: incident.resolvedAt?.toISOString() ?? null,
          thermostatId: incident.thermostatId,
          thermostatLabel: incident.thermostatId ? incident.label || incident.thermostatId : null,
          buildingId: incident.buildingId,
          buildingName: incident.buildingName,
          runId: incident.runId,
          link: new URL(incidentPath(incident), input.appUrl).toString(),
          /** The condition's figures as Setpoint saw them (temperatures in °F). */
          facts: incident.facts,
        },
      }
    : {
        organization: input.organization,
        message: 'A test from Setpoint: this endpoint receives signed notifications.',
      };
  return JSON.stringify({ type, timestamp: input.at.toISOString(), data });
}

/** The webhook `type` of each event kind. */
export const EVENT_TYPES: Record<EventKind, string> = {
  unit_state: 'unit.state_changed',
  run_finished: 'run.finished',
};

/** What an event's webhook carries: its type, when, and its data with the organisation. */
export function eventWebhookBody(input: {
  event: EventKind;
  at: Date;
  organization: { id: string; name: string };
  payload: Record<string, unknown>;
}): string {
  const { kind: _kind, buildingIds: _buildings, ...data } = input.payload;
  return JSON.stringify({
    type: EVENT_TYPES[input.event],
    timestamp: input.at.toISOString(),
    data: { organization: input.organization, ...data },
  });
}

/**
 * A system's code in a failure's reason, as the senders put it after their words: a connection's
 * error code or name ("(ENOTFOUND)", "(TypeError)"), or an HTTP or SMTP status ("(HTTP 500)",
 * "(SMTP 550)"). One word in brackets, starting with a capital: the reasons' words never are.
 */
const SYSTEM_CODE = /\s*\(((?:HTTP|SMTP) \d{3}|[A-Z][A-Za-z0-9_-]{2,})\)/g;

/**
 * A failure's reason split in two: its words for everyone ("Could not reach the endpoint: its
 * name was not found.") and the system codes it carried, for a technician ("ENOTFOUND"), which
 * people are never shown among the words.
 */
export function failureAndCodes(reason: string): { words: string; codes: string[] } {
  const codes = [...reason.matchAll(SYSTEM_CODE)].map((match) => match[1] ?? '');
  const words = reason.replace(SYSTEM_CODE, '').replace(/\s+\./g, '.').trim();
  return { words, codes: [...new Set(codes)].filter(Boolean) };
}

/** The system codes of a notice's last failure, for a technician (empty: none). */
export function noticeCodes(notice: { lastError: string | null }): string[] {
  return notice.lastError ? failureAndCodes(notice.lastError).codes : [];
}

/**
 * A notice's state in the delivery log, in words (its reason after it, where there is one, in
 * words only: a system code it carried is for `noticeCodes`).
 */
export function noticeStatusWords(notice: {
  status: 'pending' | 'held' | 'digest' | 'sent' | 'failed' | 'skipped' | 'paused';
  attempts: number;
  lastError: string | null;
}): string {
  const because = notice.lastError ? `: ${failureAndCodes(notice.lastError).words}` : '';
  switch (notice.status) {
    case 'pending':
      return notice.attempts > 0
        ? `Retrying after ${plural(notice.attempts, 'failed attempt')}${because}`
        : 'Sending';
    case 'held':
      return 'Held for quiet hours';
    case 'digest':
      return 'Waiting for the daily digest';
    case 'sent':
      return 'Sent';
    case 'failed':
      return `Failed${because}`;
    case 'skipped':
      return `Not sent${because}`;
    case 'paused':
      return `Waiting for the endpoint to be resumed${because}`;
  }
}
