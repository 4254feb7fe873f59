import { type NextRequest, NextResponse } from 'next/server';
import { z } from 'zod';
import { CHECK_FIELDS } from '@/lib/actions';
import { can, refusal } from '@/lib/auth/permissions';
import { getCurrentMember } from '@/lib/auth/session';
import { applyBulkChanges } from '@/lib/bulk/apply';
import { MAX_PER_REQUEST, MAX_PER_RUN, summarize } from '@/lib/bulk/plan';
import { listThermostats } from '@/lib/db/queries';
import { getEnv } from '@/lib/env';
import {
  CONFIGURATION_FIELDS,
  DEFAULT_HEAT_COOL_MIN_DELTA,
  validateConfiguration,
} from '@/lib/settings/configuration';
import { thermostatIdSchema } from '@/lib/thermostat-api/schemas';

const bodySchema = z.object({
  thermostatIds: z
    .array(thermostatIdSchema)
    .min(1, 'Select at least one thermostat.')
    .max(MAX_PER_RUN, `Select at most ${MAX_PER_RUN} thermostats per run.`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each thermostat once.'),
  values: z.object(
    Object.fromEntries(CONFIGURATION_FIELDS.map((field) => [field, z.string().max(32).optional()])),
  ),
});

const json = (status: number, body: unknown) =>
  NextResponse.json(body, { status, headers: { 'cache-control': 'no-store' } });

/**
 * Applies one bulk change and streams its progress as NDJSON: a `start` line, a `chunk` line
 * per request of at most 25 as it finishes (one result per thermostat), a `done` line. A route
 * handler rather than server actions because the client's server-action calls run one at a
 * time, and the requests of a run should overlap (a few at once, within the rate limit).
 */
export async function POST(request: NextRequest) {
  const appOrigin = new URL(getEnv().NEXTAUTH_URL).origin;
  if (request.headers.get('origin') !== appOrigin) {
    return json(403, { message: 'Cross-origin request refused.' });
  }
  const member = await getCurrentMember();
  if (!member) return json(401, { message: 'Sign in again to continue.' });
  if (!can(member, 'change_thermostat')) {
    return json(403, { message: refusal(member.role, 'change_thermostat') });
  }

  const parsed = bodySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) {
    return json(400, { message: parsed.error.issues[0]?.message ?? 'Malformed request.' });
  }
  const { thermostatIds, values } = parsed.data;

  // Every id must be in the member's scope (their organisation, and for a building manager their
  // buildings) before anything reaches the service.
  const owned = new Set(
    (await listThermostats({ scope: member })).map((thermostat) => thermostat.thermostatId),
  );
  const foreign = thermostatIds.filter((id) => !owned.has(id));
  if (foreign.length > 0) {
    return json(403, {
      message: `${foreign.length} selected thermostat${foreign.length === 1 ? ' is' : 's are'} not in your portfolio${member.buildingIds === null ? '' : ' (your buildings)'}; nothing was sent.`,
    });
  }

  const checked = validateConfiguration(values, {
    unit: member.temperatureUnit,
    heatCoolMinDelta: DEFAULT_HEAT_COOL_MIN_DELTA,
  });
  if (!checked.ok) {
    return json(422, {
      message: CHECK_FIELDS,
      fieldErrors: checked.fieldErrors,
    });
  }
  if (Object.keys(checked.changes).length === 0) {
    return json(422, { message: 'Change at least one setting; nothing was sent.' });
  }

  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: unknown) => {
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
        } catch {
          // The browser went away; the run stops sending new requests (see the signal below).
        }
      };
      send({
        type: 'start',
        total: thermostatIds.length,
        requests: Math.ceil(thermostatIds.length / MAX_PER_REQUEST),
        changes: checked.changes,
      });
      const results = await applyBulkChanges({
        actor: member,
        thermostatIds,
        changes: checked.changes,
        signal: request.signal,
        onChunk: (chunk) => send({ type: 'chunk', results: chunk }),
      });
      send({ type: 'done', summary: summarize(results) });
      try {
        controller.close();
      } catch {
        // Already closed by the browser leaving.
      }
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
