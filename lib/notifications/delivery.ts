import 'server-only';
import { z } from 'zod';
import {
  createTestNotice,
  type DeliveryRow,
  findWebhookEndpoint,
  type IncidentRow,
  listNoticesToDeliver,
  listSubscribers,
  MAX_DELIVERY_ATTEMPTS,
  markNoticesQueued,
  type QueuedNotice,
  recordEndpointAttempt,
  recordNoticeResults,
} from '@/lib/notifications/store';
import { deliverEmail, type Email, emailEnabled } from '@/lib/platform/email';
import { getEnv } from '@/lib/platform/env';
import { sendJob } from '@/lib/queue/queue';
import { logWarning } from '@/lib/platform/log';
import { unsealToken } from '@/lib/service/connection/vault';
import { mayKnow, scopeOf, wants } from './fan-out';
import { postWebhook } from './webhooks';
import {
  eventWebhookBody,
  failureAndCodes,
  notificationEmail,
  testEmail,
  webhookPayload,
} from './words';

/**
 * Delivering notices: each is a row of the delivery log, carried by a `deliver-notification` job
 * (a member's notices of one round in one email; one request per webhook notice). A failed
 * attempt is counted on the row and the job retried with backoff, until MAX_ATTEMPTS (a webhook
 * refused because its address is not public fails at once); a webhook endpoint that fails
 * WEBHOOK_PAUSE_AFTER times in a row is paused, and its notices wait for an owner or admin to
 * resume it. Before an email goes, the member's role, buildings and
 * subscription are read again, so no one is told of a building that is no longer theirs.
 */

/** Attempts per notice before it is logged as failed (about an hour of backoff). */
export const MAX_ATTEMPTS = MAX_DELIVERY_ATTEMPTS;
/** Failed webhook requests in a row (over every notice) before the endpoint is paused. */
export const WEBHOOK_PAUSE_AFTER = 10;

/** A delivery job's data, as the queue hands it back (checked: it came through the database). */
export const deliveryJobSchema = z.object({
  ids: z.array(z.uuid()).min(1).max(1000),
  digest: z.boolean().optional(),
});
export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

/**
 * Gives pending notices their jobs: a member's emails together (one message), each webhook
 * notice alone. Notices waiting for quiet hours or a digest wait on.
 */
export async function queueNotices(
  notices: readonly QueuedNotice[],
  options: { digest?: boolean } = {},
): Promise<void> {
  const pending = notices.filter((notice) => notice.status === 'pending');
  if (pending.length === 0) return;
  const jobs: DeliveryJob[] = [];
  const byMember = new Map<string, string[]>();
  for (const notice of pending) {
    if (notice.channel === 'webhook' || !notice.userId) {
      jobs.push({ ids: [notice.id] });
      continue;
    }
    byMember.set(notice.userId, [...(byMember.get(notice.userId) ?? []), notice.id]);
  }
  for (const ids of byMember.values()) {
    jobs.push(options.digest ? { ids, digest: true } : { ids });
  }
  for (const job of jobs) {
    try {
      await sendJob('deliver-notification', job);
      await markNoticesQueued({ ids: job.ids });
    } catch (error) {
      // Pending and marked never queued: the next round's sweep queues it.
      logWarning('notifications: a delivery was not queued', String(error));
      await markNoticesQueued({ ids: job.ids, now: null }).catch(() => undefined);
    }
  }
}

/**
 * What a delivery job came to: `retry` when some notice failed and will be tried again;
 * `reasons`, why attempts failed, in words.
 */
export type DeliveryOutcome = {
  sent: number;
  failed: number;
  skipped: number;
  retry: boolean;
  reasons: string[];
};

const emptyOutcome = (): DeliveryOutcome => ({
  sent: 0,
  failed: 0,
  skipped: 0,
  retry: false,
  reasons: [],
});

/**
 * Sends the pending notices of one job that no other delivery holds (claimed here, released as
 * each outcome is recorded). Never throws for a failed send: it says `retry`.
 */
export async function deliverNotices(job: DeliveryJob): Promise<DeliveryOutcome> {
  const rows = await listNoticesToDeliver({ ids: job.ids });
  const outcome = emptyOutcome();
  const emails = new Map<string, DeliveryRow[]>();
  for (const row of rows) {
    if (row.channel === 'webhook') {
      add(outcome, await guarded([row], () => deliverWebhookNotice(row)));
    } else {
      const key = row.userId ?? row.id;
      emails.set(key, [...(emails.get(key) ?? []), row]);
    }
  }
  for (const group of emails.values()) {
    add(outcome, await guarded(group, () => deliverEmailNotices(group, Boolean(job.digest))));
  }
  return outcome;
}

/**
 * One row's or group's delivery, where an error (a secret that no longer unseals after the keys
 * changed, the database, a bad address) counts as a failed attempt like any other, so it ends
 * after MAX_ATTEMPTS instead of being queued again for ever. Logged by kind, never its text
 * (it may quote a secret or an address).
 */
async function guarded(
  rows: readonly DeliveryRow[],
  deliver: () => Promise<Partial<DeliveryOutcome>>,
): Promise<Partial<DeliveryOutcome>> {
  try {
    return await deliver();
  } catch (error) {
    const kind = error instanceof Error ? error.name : typeof error;
    logWarning('notifications: delivery failed', kind);
    const test = rows.every((row) => row.event === 'test');
    return failedAttempt(rows, 'Setpoint could not send it (an error on the server).', test);
  }
}

function add(total: DeliveryOutcome, part: Partial<DeliveryOutcome>) {
  total.sent += part.sent ?? 0;
  total.failed += part.failed ?? 0;
  total.skipped += part.skipped ?? 0;
  total.retry ||= part.retry ?? false;
  total.reasons.push(...(part.reasons ?? []));
}

const appUrl = () => getEnv().NEXTAUTH_URL;

/** A failed attempt: pending again to retry, or failed for good. */
async function failedAttempt(
  rows: readonly DeliveryRow[],
  reason: string,
  permanent: boolean,
): Promise<Partial<DeliveryOutcome>> {
  const ids = rows.map((row) => row.id);
  const attempts = Math.max(...rows.map((row) => row.attempts)) + 1;
  if (permanent || attempts >= MAX_ATTEMPTS) {
    const why = permanent ? reason : `${reason} Gave up after ${attempts} attempts.`;
    await recordNoticeResults({ ids, status: 'failed', error: why, attempted: true });
    return { failed: ids.length, reasons: [reason] };
  }
  await recordNoticeResults({ ids, status: 'pending', error: reason, attempted: true });
  return { retry: true, reasons: [reason] };
}

async function skip(rows: readonly DeliveryRow[], reason: string) {
  await recordNoticeResults({
    ids: rows.map((row) => row.id),
    status: 'skipped',
    error: reason,
    attempted: false,
  });
  return { skipped: rows.length };
}

/** One member's notices in one email, after checking again that they may and want to know. */
async function deliverEmailNotices(
  rows: readonly DeliveryRow[],
  digest: boolean,
): Promise<Partial<DeliveryOutcome>> {
  const first = rows[0];
  if (!first?.userId) return skip(rows, 'No one to send it to.');
  if (!emailEnabled()) return skip(rows, 'Email is not set up on this Setpoint.');
  const outcome = emptyOutcome();
  const tests = rows.filter((row) => row.event === 'test');
  const notices = rows.filter((row) => row.event !== 'test');
  if (tests.length > 0) {
    // A test goes to the address of the member who asked for it a moment ago.
    const to = first.recipient;
    add(
      outcome,
      await sendEmailTo(tests, testEmail({ to, orgName: first.orgName, appUrl: appUrl() }), {
        test: true,
      }),
    );
  }
  if (notices.length === 0) return outcome;
  const [subscriber] = await listSubscribers({ orgId: first.orgId, userId: first.userId });
  if (!subscriber) {
    add(outcome, await skip(notices, 'No longer a member of the organisation.'));
    return outcome;
  }
  const scope = scopeOf({ role: subscriber.role, buildingIds: subscriber.memberBuildingIds });
  const allowed = notices.filter(
    (row) =>
      row.incident &&
      subscriber.mode !== 'off' &&
      mayKnow(scope, row.incident) &&
      wants(subscriber, row.incident),
  );
  const dropped = notices.filter((row) => !allowed.includes(row));
  if (dropped.length > 0) {
    const why =
      subscriber.mode === 'off'
        ? 'Email notifications were turned off.'
        : 'No longer in their buildings or their choice of incidents.';
    add(outcome, await skip(dropped, why));
  }
  if (allowed.length === 0) return outcome;
  const email = notificationEmail({
    to: subscriber.email,
    orgName: first.orgName,
    items: allowed.map((row) => ({
      event: row.event === 'resolved' ? 'resolved' : 'opened',
      incident: row.incident as IncidentRow,
      at: row.createdAt,
    })),
    digest,
    unit: subscriber.temperatureUnit,
    appUrl: appUrl(),
    scope,
    timeZone: subscriber.timeZone,
  });
  add(outcome, await sendEmailTo(allowed, email));
  return outcome;
}

/**
 * Sends one email for these notices and records what came of it. A test is tried once: failed,
 * it is logged failed (as a webhook test), not left pending for the sweep to send hours later.
 */
async function sendEmailTo(
  rows: readonly DeliveryRow[],
  email: Email,
  options: { test?: boolean } = {},
): Promise<Partial<DeliveryOutcome>> {
  const result = await deliverEmail(email);
  if (!result.ok)
    return failedAttempt(rows, result.reason, result.permanent || Boolean(options.test));
  await recordNoticeResults({ ids: rows.map((row) => row.id), status: 'sent', attempted: true });
  return { sent: rows.length };
}

/** One webhook notice, signed with its endpoint's secret. */
async function deliverWebhookNotice(row: DeliveryRow): Promise<Partial<DeliveryOutcome>> {
  const endpoint = row.endpointId
    ? await findWebhookEndpoint({ orgId: row.orgId, id: row.endpointId })
    : null;
  if (!endpoint) return skip([row], 'The endpoint was removed.');
  const test = row.event === 'test';
  if (endpoint.status === 'paused' && !test) {
    await recordNoticeResults({
      ids: [row.id],
      status: 'paused',
      error: 'The endpoint is paused after failing repeatedly.',
      attempted: false,
    });
    return {};
  }
  if (row.incident && !wants(endpoint, row.incident)) {
    return skip([row], 'The endpoint no longer takes this kind of incident or building.');
  }
  const event = row.event === 'unit_state' || row.event === 'run_finished' ? row.event : null;
  if (
    event &&
    !wants(endpoint, {
      kind: event,
      buildingIds: (row.payload?.buildingIds as string[] | undefined) ?? [],
    })
  ) {
    return skip([row], 'The endpoint no longer takes these events, or not in this building.');
  }
  const secret = await unsealToken(
    endpoint.secretSealed,
    { rowId: endpoint.id, field: 'webhook_secret' },
    getEnv().TOKEN_KEYS,
  );
  const result = await postWebhook({
    url: endpoint.url,
    secret,
    msgId: row.id,
    payload: event
      ? eventWebhookBody({
          event,
          at: row.createdAt,
          organization: { id: row.orgId, name: row.orgName },
          payload: row.payload ?? {},
        })
      : webhookPayload({
          event: row.event === 'resolved' || row.event === 'test' ? row.event : 'opened',
          at: row.createdAt,
          organization: { id: row.orgId, name: row.orgName },
          incident: row.incident,
          appUrl: appUrl(),
        }),
    allowPrivateHosts: getEnv().WEBHOOK_ALLOW_PRIVATE_HOSTS,
  });
  if (test) {
    // A test says how the endpoint answers now; it neither counts towards pausing nor resumes.
    await recordNoticeResults({
      ids: [row.id],
      status: result.ok ? 'sent' : 'failed',
      error: result.ok ? null : result.reason,
      attempted: true,
    });
    return result.ok ? { sent: 1 } : { failed: 1, reasons: [result.reason] };
  }
  const state = await recordEndpointAttempt({
    endpointId: endpoint.id,
    ok: result.ok,
    error: result.ok ? undefined : result.reason,
    pauseAfter: WEBHOOK_PAUSE_AFTER,
  });
  if (result.ok) {
    await recordNoticeResults({ ids: [row.id], status: 'sent', attempted: true });
    return { sent: 1 };
  }
  if (state?.status === 'paused') {
    await recordNoticeResults({
      ids: [row.id],
      status: 'paused',
      error: `${result.reason} The endpoint is paused after ${state.consecutiveFailures} failures in a row.`,
      attempted: true,
    });
    return { reasons: [result.reason] };
  }
  // Refused (an address that is not public): failed at once, since trying again sends nothing.
  return failedAttempt([row], result.reason, !result.ok && result.refused === true);
}

/**
 * The `deliver-notification` job: sends its notices, and throws when some are to be tried again,
 * so the queue retries it with backoff (the notices keep their own count of attempts).
 */
export async function workDeliveryJob(data: unknown): Promise<void> {
  const job = deliveryJobSchema.safeParse(data);
  if (!job.success) return;
  const outcome = await deliverNotices(job.data);
  if (outcome.retry) throw new Error(`delivery to retry: ${outcome.reasons.join(' ')}`);
}

// --- Tests from the page ---------------------------------------------------------------------------

/**
 * Why a test was not delivered, in words only: a system code a reason carried ("ENOTFOUND") is
 * for a technician, kept in the delivery log's line of the test, not said in the answer.
 */
const reasonsInWords = (reasons: readonly string[]) =>
  [...new Set(reasons.map((reason) => failureAndCodes(reason).words))].join(' ');

/** Sends a member a test email now, logged like any notice: what came of it, in words. */
export async function sendTestEmail(member: {
  orgId: string;
  userId: string;
  email: string;
}): Promise<{ ok: boolean; message: string }> {
  if (!emailEnabled()) {
    return {
      ok: false,
      message: 'Email is not set up on this Setpoint, so nothing was sent.',
    };
  }
  const id = await createTestNotice({
    orgId: member.orgId,
    channel: 'email',
    userId: member.userId,
    endpointId: null,
    recipient: member.email,
  });
  const outcome = await deliverNotices({ ids: [id] });
  return outcome.sent > 0
    ? { ok: true, message: `Test email sent to ${member.email}.` }
    : {
        ok: false,
        message: `The test email was not sent. ${reasonsInWords(outcome.reasons)}`.trim(),
      };
}

/** Sends an endpoint a signed test request now; the answer in words. */
export async function sendTestWebhook(input: {
  orgId: string;
  endpointId: string;
  recipient: string;
}): Promise<{ ok: boolean; message: string }> {
  const id = await createTestNotice({
    orgId: input.orgId,
    channel: 'webhook',
    userId: null,
    endpointId: input.endpointId,
    recipient: input.recipient,
  });
  const outcome = await deliverNotices({ ids: [id] });
  return outcome.sent > 0
    ? { ok: true, message: 'The endpoint accepted the signed test request.' }
    : {
        ok: false,
        message:
          `The endpoint did not accept the test request. ${reasonsInWords(outcome.reasons)}`.trim(),
      };
}
