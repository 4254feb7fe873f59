import { z } from 'zod';
import { API_SCOPES } from '@/lib/db/schema';
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
