import 'server-only';
import { Webhook } from 'standardwebhooks';
import { logActivity } from '@/lib/activity/sink';
import {
  LEASE_ACTOR,
  LEASE_EVENT_WORDS,
  OUTCOME_WORDS,
  leaseEventSchema,
  receiveLeaseEvent,
} from '@/lib/units/lease-events';
import { openLeaseInbox } from '@/lib/units/lease-inbox';
import { ApiProblem, internalError, invalidInput, problemBody, readBody, respond } from './http';

/**
 * The organisation's lease inbox (`POST /api/v1/lease-events/{inboxId}`): an event from its
 * property-management system, signed with the inbox's secret by the Standard Webhooks scheme
 * (the package outbound webhooks use), is checked (signature; a timestamp more than five minutes
 * off is refused, so a captured request cannot be replayed later), read by its schema, and
 * recorded once by its `webhook-id` (lib/units/lease-events.ts). The answer says what came of it;
 * the same `webhook-id` again gets the same answer and does nothing.
 */

const INBOX_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const refuse = (problem: ApiProblem) => respond(problem.status, problemBody(problem));

export async function receiveLeaseWebhook(
  request: Request,
  route: { params: Promise<{ inboxId: string }> },
): Promise<Response> {
  try {
    return await receive(request, route);
  } catch (error) {
    return internalError('lease event', error);
  }
}

async function receive(
  request: Request,
  route: { params: Promise<{ inboxId: string }> },
): Promise<Response> {
  const { inboxId } = await route.params;
  const inbox = INBOX_ID.test(inboxId) ? await openLeaseInbox(inboxId) : null;
  if (!inbox) {
    return refuse(
      new ApiProblem(
        404,
        'Not found',
        'No lease inbox has this address (a new one was made since?): copy it from the Lease events page.',
      ),
    );
  }
  const text = await readBody(request);
  if (text === null) {
    return refuse(new ApiProblem(413, 'Too large', 'A lease event is at most 64 KB.'));
  }
  const messageId = request.headers.get('webhook-id') ?? '';
  let signed: unknown;
  try {
    signed = new Webhook(inbox.secret).verify(text, {
      'webhook-id': messageId,
      'webhook-timestamp': request.headers.get('webhook-timestamp') ?? '',
      'webhook-signature': request.headers.get('webhook-signature') ?? '',
    });
  } catch (error) {
    const late = /timestamp/i.test(String((error as Error).message));
    return respond(
      401,
      problemBody(
        new ApiProblem(
          401,
          'Unauthorized',
          late
            ? 'The webhook-timestamp is more than five minutes off Setpoint’s clock: an old or replayed event is refused. Send it again, newly signed.'
            : 'The signature does not match this inbox’s secret, or a webhook-id, webhook-timestamp or webhook-signature header is missing.',
        ),
      ),
    );
  }
  const parsed = leaseEventSchema.safeParse(signed);
  if (!parsed.success) {
    const problem = invalidInput(parsed.error);
    return refuse(problem);
  }
  const { event, replayed } = await receiveLeaseEvent({
    orgId: inbox.orgId,
    messageId,
    source: 'webhook',
    event: parsed.data,
  });
  if (!replayed) {
    await logActivity({
      actor: { orgId: inbox.orgId, userId: null, name: LEASE_ACTOR },
      action: 'lease.event',
      summary: `${LEASE_EVENT_WORDS[parsed.data.type]} for ${parsed.data.unit}: ${OUTCOME_WORDS[event.outcome].toLowerCase()}`,
      changes: { eventId: event.id, messageId, outcome: event.outcome },
    });
  }
  return respond(
    200,
    {
      id: event.id,
      outcome: event.outcome,
      detail: event.detail,
      replayed,
      unitIds: event.unitIds,
      runIds: event.runIds,
    },
    replayed ? { 'idempotent-replayed': 'true' } : {},
  );
}
