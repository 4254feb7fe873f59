import { z } from 'zod';
import { ATTENTION_KINDS, type AttentionKind } from '@/lib/attention/conditions';
import {
  API_SCOPES,
  BULK_ITEM_OUTCOMES,
  BULK_RUN_KINDS,
  BULK_RUN_STATES,
  LEASE_EVENT_OUTCOMES,
} from '@/lib/db/schema';
import { UNIT_STATES } from '@/lib/units/lifecycle';

/**
 * The API's shapes, as zod schemas that both check what comes in and describe what goes out:
 * the OpenAPI document (openapi.ts) is generated from these, so the document and the code cannot
 * drift. Names (`meta({ id })`) become the document's components.
 */

/** RFC 9457 problem details, with the fields a validation error names. */
export const problemSchema = z
  .object({
    type: z.string().meta({ description: 'A URI reference naming the kind of problem.' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'For a validation problem: each field refused, and why.' }),
  })
  .meta({ id: 'Problem', description: 'An error, as RFC 9457 problem details.' });
export type Problem = z.output<typeof problemSchema>;

export const buildingSchema = z
  .object({
    id: z.string().meta({ example: 'f2e3d58637b4759b53f233b1' }),
    name: z.string(),
    timeZone: z.string().meta({ description: 'IANA time zone.', example: 'America/Denver' }),
    address: z.string(),
  })
  .meta({ id: 'Building' });

export const unitStateSchema = z.enum(UNIT_STATES).meta({ id: 'UnitState' });

export const unitSchema = z
  .object({
    id: z.uuid(),
    buildingId: z.string(),
    label: z.string(),
    externalId: z
      .string()
      .nullable()
      .meta({ description: 'The unit’s id in your property-management system.' }),
    thermostatId: z.string().nullable(),
    state: unitStateSchema,
    since: z.iso.datetime({ offset: true }).nullable(),
    moveOutOn: z.iso
      .date()
      .nullable()
      .meta({ description: 'Notice given: the move-out day, in the building’s calendar.' }),
    moveInAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .meta({ description: 'Move-in scheduled: when.' }),
    settings: z
      .object({
        status: z.enum(['matches', 'changed', 'running', 'differs', 'unknown']),
        runId: z.uuid().nullable(),
        detail: z.string().nullable(),
      })
      .meta({
        description:
          'Whether the thermostat is in the settings its state’s policy asks for, as the latest run found.',
      }),
  })
  .meta({ id: 'Unit' });

const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item),
      next: z
        .string()
        .nullable()
        .meta({ description: 'The cursor of the next page (`after`), or null on the last.' }),
    })
    .meta({ id });

export const buildingPageSchema = pageOf(buildingSchema, 'BuildingPage');
export const unitPageSchema = pageOf(unitSchema, 'UnitPage');

const unitLabel = z.string().trim().min(1).max(64);
const unitExternalId = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .meta({ description: 'The unit’s id in your property-management system, unique.' });

/** A unit to add to a building (empty: a thermostat added later with its label goes into it). */
export const newUnitSchema = z
  .object({
    buildingId: z.string().max(64),
    label: unitLabel,
    externalId: unitExternalId.optional(),
  })
  .meta({ id: 'NewUnit' });

/** A unit's label and external id to change (`externalId: null` takes it away). */
export const unitChangesSchema = z
  .object({ label: unitLabel.optional(), externalId: unitExternalId.nullable().optional() })
  .refine((body) => body.label !== undefined || body.externalId !== undefined, {
    message: 'Send a label, an external id, or both.',
    path: ['label'],
  })
  .meta({ id: 'UnitChanges' });

/** A change of a unit's occupancy, as a property-management system reports it. */
export const unitEventSchema = z
  .discriminatedUnion('event', [
    z.object({ event: z.literal('give_notice'), moveOutOn: z.iso.date() }),
    z.object({ event: z.literal('cancel_notice') }),
    z.object({ event: z.literal('move_out') }),
    z.object({ event: z.literal('make_ready') }),
    z.object({
      event: z.literal('schedule_move_in'),
      moveInAt: z.iso
        .datetime({ offset: true })
        .meta({ description: 'When, with its offset.', example: '2027-03-01T15:00:00-07:00' }),
    }),
    z.object({ event: z.literal('cancel_move_in') }),
    z.object({ event: z.literal('move_in') }),
  ])
  .meta({ id: 'UnitEvent' });

export const unitEventResultSchema = z
  .object({
    unit: unitSchema,
    changed: z.boolean().meta({ description: 'False when the unit was already so (a replay).' }),
    run: z
      .object({ id: z.uuid() })
      .nullable()
      .meta({ description: 'The run putting the thermostat in the new state’s settings.' }),
  })
  .meta({ id: 'UnitEventResult' });

// --- Thermostats ---------------------------------------------------------------------------------

const fahrenheit = (description: string) =>
  z
    .number()
    .nullable()
    .meta({ description: `${description}, in °F.` });

export const readingSchema = z
  .object({
    at: z.iso.datetime({ offset: true }).meta({ description: 'When Setpoint read it.' }),
    ageSeconds: z.number().int().meta({ description: 'How old the reading is, in seconds.' }),
    temperature: fahrenheit('Indoor temperature'),
    humidity: z.number().nullable().meta({ description: 'Relative humidity, in %.' }),
    hvacMode: z.string().nullable().meta({ example: 'heat' }),
    desiredHeat: fahrenheit('Heating setpoint'),
    desiredCool: fahrenheit('Cooling setpoint'),
    isResidentMode: z.boolean().nullable(),
    connected: z.boolean().nullable(),
  })
  .meta({
    id: 'Reading',
    description:
      'The last status Setpoint read (readings are minutes apart under the service’s call budget).',
  });

export const thermostatSchema = z
  .object({
    id: z.string().meta({ example: '491109100550' }),
    buildingId: z.string(),
    label: z.string().meta({ description: 'Its unit’s label (empty when it has none).' }),
    lastReading: readingSchema.nullable().meta({ description: 'Null until it is first read.' }),
    readProblem: z.string().nullable().meta({
      description: 'Why the latest attempt to read it failed, in words; null when it did not.',
    }),
  })
  .meta({ id: 'Thermostat' });

export const thermostatPageSchema = pageOf(thermostatSchema, 'ThermostatPage');

export const listThermostatsQuerySchema = z.object({
  buildingId: z.string().max(64).optional(),
  after: z.string().max(200).optional().meta({ description: 'A page’s `next` cursor.' }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const historyQuerySchema = z.object({
  window: z.enum(['24h', '7d']).default('24h').meta({
    description: 'The last 24 hours (every reading) or 7 days (one a quarter hour past two days).',
  }),
});

export const historySchema = z
  .object({
    thermostatId: z.string(),
    window: z.enum(['24h', '7d']),
    points: z.array(
      z.object({
        at: z.iso.datetime({ offset: true }),
        thermostatId: z.string().meta({
          description: 'The thermostat read: an earlier one of the unit, before a replacement.',
        }),
        temperature: fahrenheit('Indoor temperature'),
        humidity: z.number().nullable(),
        desiredHeat: fahrenheit('Heating setpoint'),
        desiredCool: fahrenheit('Cooling setpoint'),
        hvacMode: z.string().nullable(),
        running: z.array(z.string()).nullable().meta({
          description: 'The equipment running, in the service’s words; null where unknown.',
        }),
        connected: z.boolean().nullable(),
      }),
    ),
  })
  .meta({ id: 'History', description: 'A unit’s readings across its thermostats, oldest first.' });

// --- Needs attention ----------------------------------------------------------------------------

export const attentionItemSchema = z
  .object({
    kind: z.enum(Object.keys(ATTENTION_KINDS) as [AttentionKind, ...AttentionKind[]]),
    severity: z.enum(['urgent', 'warning', 'notice']),
    title: z.string(),
    detail: z.string().meta({ description: 'What is wrong and what to do, in words (°F).' }),
    buildingId: z.string().nullable(),
    thermostatId: z.string().nullable(),
    unitId: z.uuid().nullable(),
    label: z.string().nullable(),
    since: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: 'AttentionItem' });

export const attentionPageSchema = pageOf(attentionItemSchema, 'AttentionPage');

export const attentionQuerySchema = z.object({
  kind: attentionItemSchema.shape.kind.optional(),
  buildingId: z.string().max(64).optional(),
  after: z.string().max(200).optional().meta({ description: 'A page’s `next` cursor.' }),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

// --- Runs ---------------------------------------------------------------------------------------

export const planSchema = z
  .object({
    thermostats: z.number().int(),
    changing: z.number().int().meta({ description: 'Thermostats the template changes.' }),
    unchanged: z.number().int().meta({ description: 'Thermostats that already match it.' }),
    blocked: z
      .number()
      .int()
      .meta({ description: 'Thermostats it cannot change (nothing is sent to them).' }),
    calls: z
      .number()
      .int()
      .meta({ description: 'Calls to the thermostat service applying costs.' }),
    seconds: z.number().meta({
      description: 'How long those calls take under the service’s call budget, at least.',
    }),
    resets: z
      .number()
      .int()
      .optional()
      .meta({ description: 'Thermostats whose settings turning resident mode off resets.' }),
  })
  .meta({ id: 'Plan' });

export const runSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(BULK_RUN_KINDS),
    title: z.string().nullable(),
    state: z.enum(BULK_RUN_STATES),
    finished: z.boolean(),
    status: z.string().meta({ description: 'How it stands, in words.' }),
    startedBy: z.string(),
    createdAt: z.iso.datetime({ offset: true }),
    finishedAt: z.iso.datetime({ offset: true }).nullable(),
    counts: z
      .record(z.enum([...BULK_ITEM_OUTCOMES, 'total']), z.number().int())
      .meta({ description: 'Thermostats by outcome, of those the key may see.' }),
    items: z.array(
      z.object({
        thermostatId: z.string(),
        buildingId: z.string(),
        label: z.string().nullable(),
        outcome: z.enum(BULK_ITEM_OUTCOMES),
        detail: z.string().nullable().meta({ description: 'What happened there, in words.' }),
      }),
    ),
    next: z.string().nullable().meta({
      description: 'The cursor of the next page of items (`after`), or null on the last.',
    }),
    plan: planSchema
      .nullable()
      .meta({ description: 'A template run once planned: what applying it changes and costs.' }),
  })
  .meta({
    id: 'Run',
    description: 'A run and its result per thermostat, a page of items at a time.',
  });

/** A template run to plan: a template, on thermostats or on units (their thermostats). */
export const templateRunRequestSchema = z
  .object({
    templateId: z.uuid().meta({ description: 'A template of your organisation.' }),
    thermostatIds: z
      .array(z.string().regex(/^\d{12}$/))
      .min(1)
      .max(500)
      .optional(),
    unitIds: z.array(z.uuid()).min(1).max(500).optional(),
  })
  .refine((body) => (body.thermostatIds === undefined) !== (body.unitIds === undefined), {
    message: 'Name the thermostats or the units, not both.',
    path: ['thermostatIds'],
  })
  .meta({ id: 'TemplateRunRequest' });

export const runStartedSchema = z
  .object({ run: z.object({ id: z.uuid(), state: z.enum(BULK_RUN_STATES) }) })
  .meta({ id: 'RunStarted', description: 'The run to follow with `GET /api/v1/runs/{runId}`.' });

export const runQuerySchema = z.object({
  after: z.string().max(200).optional().meta({ description: 'The run’s `next` cursor.' }),
});

// --- Lease events -------------------------------------------------------------------------------

export const leaseReceiptSchema = z
  .object({
    id: z.uuid().meta({ description: 'Setpoint’s id of the event.' }),
    outcome: z.enum(LEASE_EVENT_OUTCOMES).meta({
      description:
        'applied: recorded; unchanged: the unit was already so; refused: it does not fit the unit’s state (detail says why); stale: older than an event already recorded for the unit; unmatched: no unit has that external id yet (kept, and applied once an admin gives a unit the id).',
    }),
    detail: z.string().meta({ description: 'What came of it, in words.' }),
    replayed: z
      .boolean()
      .meta({ description: 'True when this webhook-id came before: nothing was done again.' }),
    unitIds: z.array(z.uuid()),
    runIds: z
      .array(z.uuid())
      .meta({ description: 'The runs putting the units’ thermostats in their settings.' }),
  })
  .meta({ id: 'LeaseEventReceipt' });

// --- Outbound webhooks -------------------------------------------------------------------------

const organizationSchema = z.object({ id: z.uuid(), name: z.string() });

export const unitStateWebhookSchema = z
  .object({
    type: z.literal('unit.state_changed'),
    timestamp: z.iso.datetime({ offset: true }),
    data: z.object({
      organization: organizationSchema,
      unit: z.object({
        id: z.uuid(),
        label: z.string(),
        externalId: z.string().nullable(),
        buildingId: z.string(),
      }),
      event: z.string().meta({ description: 'What was recorded, as the unit events name it.' }),
      from: unitStateSchema,
      to: unitStateSchema,
      at: z.iso.datetime({ offset: true }),
      by: z.string().meta({ description: 'Who or what recorded it.' }),
      moveOutOn: z.iso.date().nullable(),
      moveInAt: z.iso.datetime({ offset: true }).nullable(),
      runId: z.uuid().nullable().meta({ description: 'The run the change started, if any.' }),
      link: z.url(),
    }),
  })
  .meta({ id: 'UnitStateChangedWebhook' });

export const runFinishedWebhookSchema = z
  .object({
    type: z.literal('run.finished'),
    timestamp: z.iso.datetime({ offset: true }),
    data: z.object({
      organization: organizationSchema,
      run: z.object({
        id: z.uuid(),
        kind: z.enum(BULK_RUN_KINDS),
        title: z.string().nullable(),
        state: z.enum(['done', 'cancelled']),
        startedBy: z.string(),
        createdAt: z.iso.datetime({ offset: true }),
        finishedAt: z.iso.datetime({ offset: true }).nullable(),
        counts: z.object({
          total: z.number().int(),
          applied: z.number().int(),
          failed: z.number().int(),
          notSent: z.number().int(),
          cancelled: z.number().int(),
        }),
        buildingIds: z.array(z.string()),
      }),
    }),
  })
  .meta({ id: 'RunFinishedWebhook' });

export const apiScopeSchema = z.enum(API_SCOPES);

export const listUnitsQuerySchema = z.object({
  buildingId: z.string().max(64).optional(),
  state: unitStateSchema.optional(),
  externalId: z.string().max(64).optional(),
  after: z.string().max(200).optional().meta({ description: 'A page’s `next` cursor.' }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const listBuildingsQuerySchema = z.object({
  after: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
