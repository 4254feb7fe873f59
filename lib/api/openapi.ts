import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { leaseEventSchema } from '@/lib/units/lease-events';
import {
  attentionPageSchema,
  attentionQuerySchema,
  buildingPageSchema,
  historyQuerySchema,
  historySchema,
  leaseReceiptSchema,
  listThermostatsQuerySchema,
  runFinishedWebhookSchema,
  runQuerySchema,
  runSchema,
  runStartedSchema,
  templateRunRequestSchema,
  thermostatPageSchema,
  thermostatSchema,
  buildingSchema,
  listBuildingsQuerySchema,
  listUnitsQuerySchema,
  newUnitSchema,
  problemSchema,
  unitEventResultSchema,
  unitEventSchema,
  unitPageSchema,
  unitChangesSchema,
  unitSchema,
  unitStateWebhookSchema,
} from './schemas';

/**
 * The OpenAPI 3.1 document of `/api/v1`, generated from the schemas that check requests and
 * shape answers (lib/api/schemas.ts), served at `/api/v1/openapi.json`. Each operation says the
 * scope its key needs; every answer may also be a problem (RFC 9457).
 */

const registry = new OpenAPIRegistry();

const bearer = registry.registerComponent('securitySchemes', 'apiKey', {
  type: 'http',
  scheme: 'bearer',
  description:
    'An API key made on the API keys page (owners and admins): `Authorization: Bearer spk_…`.',
});

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: problemSchema } },
});

/** The answers every operation may give besides its own. */
const COMMON = {
  401: problem('No key, or a revoked one.'),
  403: problem('The key lacks the scope this operation needs.'),
  429: {
    ...problem('Too many requests this minute: wait `Retry-After` seconds.'),
    headers: {
      'Retry-After': {
        description: 'Seconds until the key may ask again.',
        schema: { type: 'integer' as const },
      },
    },
  },
  500: problem('Something went wrong on our side.'),
};

const RATE_HEADERS = {
  'RateLimit-Limit': {
    description: 'Requests this key may make a minute.',
    schema: { type: 'integer' as const },
  },
  'RateLimit-Remaining': {
    description: 'Requests left this minute.',
    schema: { type: 'integer' as const },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the minute ends.',
    schema: { type: 'integer' as const },
  },
};

const ok = (description: string, schema: z.ZodType) => ({
  description,
  headers: {
    ...RATE_HEADERS,
    'Idempotent-Replayed': {
      description: '`true` on a write’s first answer sent again for its Idempotency-Key.',
      schema: { type: 'string' as const },
    },
  },
  content: { 'application/json': { schema } },
});

const security = [{ [bearer.name]: [] }];

/** What every write may answer besides its own: its body or Idempotency-Key refused. */
const WRITE_COMMON = {
  400: problem('The body is not JSON, or the Idempotency-Key is not 1 to 255 visible characters.'),
  413: problem('The body is over 64 KB.'),
};
const IN_FLIGHT = 'a request with this Idempotency-Key is still being answered';
const REUSED = 'the Idempotency-Key was used with another request in the last 24 hours';

/** Every write takes one: the same key and body within 24 hours get the first answer again. */
const idempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .meta({ description: 'The same key and body within 24 hours get the first answer again.' }),
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/buildings',
  operationId: 'listBuildings',
  summary: 'List buildings',
  description: 'The buildings the key may see, oldest first. Scope: read.',
  security,
  request: { query: listBuildingsQuerySchema },
  responses: {
    200: ok('A page of buildings.', buildingPageSchema),
    422: problem('A query value was refused.'),
    ...COMMON,
  },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/buildings/{buildingId}',
  operationId: 'readBuilding',
  summary: 'Read a building',
  description: 'Scope: read. Another building than the key may see is a 404.',
  security,
  request: { params: z.object({ buildingId: z.string() }) },
  responses: {
    200: ok('The building.', buildingSchema),
    404: problem('No such building.'),
    ...COMMON,
  },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/units',
  operationId: 'listUnits',
  summary: 'List units',
  description:
    'The units the key may see, oldest first (a unit added while you page comes at the end), filtered by building, state or external id. Scope: read.',
  security,
  request: { query: listUnitsQuerySchema },
  responses: {
    200: ok('A page of units.', unitPageSchema),
    422: problem('A query value was refused.'),
    ...COMMON,
  },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/units/{unitId}',
  operationId: 'readUnit',
  summary: 'Read a unit',
  description: 'Scope: read.',
  security,
  request: { params: z.object({ unitId: z.uuid() }) },
  responses: { 200: ok('The unit.', unitSchema), 404: problem('No such unit.'), ...COMMON },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/units',
  operationId: 'addUnit',
  summary: 'Add a unit',
  description:
    'An empty unit in a building the key may see, with its label and, optionally, its external id: a thermostat added to the building later with the same label goes into it. Scope: write_units.',
  security,
  request: {
    headers: idempotencyHeader,
    body: { content: { 'application/json': { schema: newUnitSchema } } },
  },
  responses: {
    201: ok('The unit, added.', unitSchema),
    404: problem('No such building that this key may see.'),
    409: problem(`Another unit of the organisation has this external id, or ${IN_FLIGHT}.`),
    422: problem(`A field was refused, or ${REUSED}.`),
    ...WRITE_COMMON,
    ...COMMON,
  },
});

registry.registerPath({
  method: 'patch',
  path: '/api/v1/units/{unitId}',
  operationId: 'changeUnit',
  summary: 'Change a unit’s label or external id',
  description:
    'Its thermostat takes the new label too; `externalId: null` takes the external id away. Scope: write_units.',
  security,
  request: {
    params: z.object({ unitId: z.uuid() }),
    headers: idempotencyHeader,
    body: { content: { 'application/json': { schema: unitChangesSchema } } },
  },
  responses: {
    200: ok('The unit, changed.', unitSchema),
    404: problem('No such unit.'),
    409: problem(`Another unit of the organisation has this external id, or ${IN_FLIGHT}.`),
    422: problem(`A field was refused, or ${REUSED}.`),
    ...WRITE_COMMON,
    ...COMMON,
  },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/units/{unitId}/events',
  operationId: 'recordUnitEvent',
  summary: 'Record what happened to a unit',
  description:
    'A move-out, a move-in, notice, make-ready, or a move-in scheduled or cancelled, as on the unit’s page: recorded once however often it is sent, and the run its new state’s policy asks for starts with it (a move-out: the turnover). Send an `Idempotency-Key` to make a retry safe. Scope: write_units.',
  security,
  request: {
    params: z.object({ unitId: z.uuid() }),
    headers: idempotencyHeader,
    body: { content: { 'application/json': { schema: unitEventSchema } } },
  },
  responses: {
    200: ok('Recorded; no run was needed (or it was already so).', unitEventResultSchema),
    202: ok(
      'Recorded; the run putting the thermostat in its settings follows.',
      unitEventResultSchema,
    ),
    400: problem(
      'The body is not JSON, or the Idempotency-Key is not 1 to 255 visible characters.',
    ),
    404: problem('No such unit.'),
    409: problem(
      'The event does not fit the unit’s state (a move-in while it is occupied), or a request with this Idempotency-Key is still being answered.',
    ),
    413: problem('The body is over 64 KB.'),
    422: problem('A field was refused, or the Idempotency-Key was used with another body.'),
    ...COMMON,
  },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/thermostats',
  operationId: 'listThermostats',
  summary: 'List thermostats',
  description:
    'The thermostats the key may see, oldest in the portfolio first (one added while you page comes at the end), each with its last reading and how old it is. From Setpoint’s store: no call reaches the thermostat service. Scope: read.',
  security,
  request: { query: listThermostatsQuerySchema },
  responses: {
    200: ok('A page of thermostats.', thermostatPageSchema),
    422: problem('A query value was refused.'),
    ...COMMON,
  },
});

const thermostatParams = z.object({ thermostatId: z.string().regex(/^\d{12}$/) });

registry.registerPath({
  method: 'get',
  path: '/api/v1/thermostats/{thermostatId}',
  operationId: 'readThermostat',
  summary: 'Read a thermostat',
  description: 'Its last reading and how old it is. Scope: read.',
  security,
  request: { params: thermostatParams },
  responses: {
    200: ok('The thermostat.', thermostatSchema),
    404: problem('No such thermostat.'),
    ...COMMON,
  },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/thermostats/{thermostatId}/history',
  operationId: 'readThermostatHistory',
  summary: 'A thermostat’s history',
  description:
    'Its unit’s readings over the last 24 hours or 7 days, across the unit’s thermostats (a replaced one’s readings come first). Scope: read.',
  security,
  request: { params: thermostatParams, query: historyQuerySchema },
  responses: {
    200: ok('The readings, oldest first.', historySchema),
    404: problem('No such thermostat.'),
    422: problem('A query value was refused.'),
    ...COMMON,
  },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/needs-attention',
  operationId: 'listNeedsAttention',
  summary: 'What needs attention',
  description:
    'Everything in the key’s buildings that needs attention now, most urgent first, as the Needs attention page lists it, filtered by kind and building. The list is worked out afresh at each request: a page’s `next` goes on from where it ended in the list as it stands then. Scope: read.',
  security,
  request: { query: attentionQuerySchema },
  responses: {
    200: ok('A page of the items.', attentionPageSchema),
    422: problem('A query value was refused.'),
    ...COMMON,
  },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/runs/{runId}',
  operationId: 'readRun',
  summary: 'Read a run',
  description:
    'A run (a unit’s turnover, a template, a bulk change) and its result per thermostat, 200 items a page. A key limited to some buildings sees a run that reaches them, and only their thermostats in it. Scope: read.',
  security,
  request: { params: z.object({ runId: z.uuid() }), query: runQuerySchema },
  responses: {
    200: ok('The run.', runSchema),
    404: problem('No such run.'),
    422: problem('A query value was refused.'),
    ...COMMON,
  },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/lease-events/{inboxId}',
  operationId: 'sendLeaseEvent',
  summary: 'Send a lease event',
  description:
    'Your property-management system’s inbox (its address is on the Lease events page): a notice, a move-out, a move-in or a transfer, naming units by their external ids, recorded as on the unit’s page. No API key: each request is signed with the inbox’s secret by the Standard Webhooks scheme (HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, base64, in `webhook-signature` as `v1,<signature>`). A timestamp more than five minutes off is refused; the same `webhook-id` again gets the first answer and changes nothing. A unit’s events are applied in the order they happened (`occurredAt`).',
  security: [],
  request: {
    params: z.object({ inboxId: z.uuid() }),
    headers: z.object({
      'webhook-id': z.string().meta({ description: 'Your id of the event: each is taken once.' }),
      'webhook-timestamp': z
        .string()
        .meta({ description: 'When it was signed, in seconds since 1970.' }),
      'webhook-signature': z.string().meta({ description: '`v1,` and the signature.' }),
    }),
    body: { content: { 'application/json': { schema: leaseEventSchema } } },
  },
  responses: {
    200: {
      description: 'Recorded, with what came of it (also for a refused, stale or unmatched event).',
      content: { 'application/json': { schema: leaseReceiptSchema } },
    },
    401: problem('The signature does not match, or the timestamp is too old.'),
    404: problem('No inbox has this address.'),
    413: problem('The body is over 64 KB.'),
    422: problem('A field was refused.'),
    500: problem('Something went wrong on our side; send it again.'),
  },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/template-runs',
  operationId: 'planTemplateRun',
  summary: 'Plan a template run',
  description:
    'Plans a template on thermostats or on units (their thermostats): the run reads each thermostat and works out what applying the template would change, and nothing is sent yet. Follow it with `GET /api/v1/runs/{runId}` until its `state` is `planned`: its `plan` says what changes and what it costs. Apply it with `POST /api/v1/runs/{runId}/apply` within the hour. Scope: write_thermostats.',
  security,
  request: {
    headers: idempotencyHeader,
    body: { content: { 'application/json': { schema: templateRunRequestSchema } } },
  },
  responses: {
    202: ok('Planning; follow the run.', runStartedSchema),
    404: problem('No such template, thermostat or unit that this key may see.'),
    409: problem('A request with this Idempotency-Key is still being answered.'),
    422: problem(
      `A field was refused (a unit with no thermostat, both lists or neither), or ${REUSED}.`,
    ),
    ...WRITE_COMMON,
    ...COMMON,
  },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/runs/{runId}/apply',
  operationId: 'applyRun',
  summary: 'Apply a planned run',
  description:
    'Applies the plan the run shows, as it was planned; every thermostat is checked again. Only a plan the key made (or, for a key of every building, any plan) within the last hour. Scope: write_thermostats.',
  security,
  request: { params: z.object({ runId: z.uuid() }), headers: idempotencyHeader },
  responses: {
    202: ok('Applying; follow the run.', runStartedSchema),
    404: problem(
      'No such run that this key may see, or not one it may apply (another key’s, or one reaching thermostats outside its buildings).',
    ),
    409: problem(
      `Not planned yet, applied or discarded already, planned over an hour ago, or ${IN_FLIGHT}.`,
    ),
    422: problem('The Idempotency-Key was used with another request in the last 24 hours.'),
    ...WRITE_COMMON,
    ...COMMON,
  },
});

/** What Setpoint sends to an endpoint (the Notifications page), signed by Standard Webhooks. */
const SIGNED =
  'Signed by the Standard Webhooks scheme with the endpoint’s secret (`webhook-id`, the same on every retry; `webhook-timestamp`; `webhook-signature`). Answer 2xx within 10 seconds; anything else is retried with backoff, and an endpoint that keeps failing is paused.';

registry.registerWebhook({
  method: 'post',
  path: 'unit.state_changed',
  operationId: 'unitStateChanged',
  summary: 'A unit’s occupancy changed',
  description: `Sent to the webhook endpoints that chose “Unit occupancy changes”, for units in their buildings, a few seconds after each change (from a page, the API, a lease event or a scheduled move-in). ${SIGNED}`,
  request: { body: { content: { 'application/json': { schema: unitStateWebhookSchema } } } },
  responses: { 200: { description: 'Received.' } },
});

registry.registerWebhook({
  method: 'post',
  path: 'run.finished',
  operationId: 'runFinished',
  summary: 'A run finished',
  description: `Sent to the webhook endpoints that chose “Runs finished”, for runs that reached their buildings, when the run ends (done or cancelled). ${SIGNED}`,
  request: { body: { content: { 'application/json': { schema: runFinishedWebhookSchema } } } },
  responses: { 200: { description: 'Received.' } },
});

let document: ReturnType<OpenApiGeneratorV31['generateDocument']> | null = null;

/** The document, generated once per process. */
export function openApiDocument() {
  document ??= new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Setpoint API',
      version: '1.0.0',
      description:
        'Setpoint’s own API for property-management systems: units and their occupancy, buildings, thermostats and their readings, what needs attention, runs, and a signed inbox for lease events. JSON in and out; temperatures in °F; errors are RFC 9457 problem details.',
    },
    servers: [{ url: '/' }],
  });
  return document;
}
