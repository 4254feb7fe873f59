import { z } from 'zod';
import {
  COMFORT_MARGIN_F,
  FREEZE_BELOW_F,
  MAINTENANCE_DUE_WITHIN_DAYS,
  OVERHEAT_ABOVE_F,
} from '@/lib/attention/conditions';
import { CONNECTION_FILTERS, RESIDENT_FILTERS } from '@/lib/readings/view';
import { buildingIdSchema } from '@/lib/service/schemas';

/**
 * A saved filter: the thermostats a group holds, evaluated anew each time the group is used
 * (lib/groups/store.ts turns it into SQL over the thermostats, their readings and what needs
 * attention). Every condition given must hold; within one (buildings, attention kinds) any of
 * the values will do. Pure: the forms, the data layer and the tests share it.
 */

/**
 * The needs-attention kinds a filter can ask for: those about one thermostat and its building
 * (lib/attention/conditions.ts decides each). Left out on purpose: readings out of date, which is
 * about Setpoint's own reading rather than the thermostat (and an outage would put the whole
 * fleet in it), and the service connection, which is about the organisation.
 */
export const FILTER_ATTENTION_KINDS = {
  freeze: { name: 'Freeze risk', help: `Below ${FREEZE_BELOW_F} °F as last read.` },
  overheat: { name: 'Overheating', help: `Above ${OVERHEAT_ABOVE_F} °F as last read.` },
  too_cold: {
    name: 'Too cold',
    help: `More than ${COMFORT_MARGIN_F} °F below the heat setpoint for an hour of readings.`,
  },
  too_hot: {
    name: 'Too hot',
    help: `More than ${COMFORT_MARGIN_F} °F above the cool setpoint for an hour of readings.`,
  },
  offline: { name: 'Offline', help: 'The service says it is not connected.' },
  mode_pending: {
    name: 'Mode change not taking effect',
    help: 'A mode change still waiting 15 minutes after it was first seen.',
  },
  failed_writes: {
    name: 'Changes failed',
    help: 'A change failed in the last day and has not succeeded since.',
  },
  maintenance: {
    name: 'Maintenance due',
    help: `HVAC maintenance due within ${MAINTENANCE_DUE_WITHIN_DAYS} days, or overdue.`,
  },
} as const;

export type FilterAttentionKind = keyof typeof FILTER_ATTENTION_KINDS;
export const FILTER_ATTENTION_KIND_NAMES = Object.keys(
  FILTER_ATTENTION_KINDS,
) as FilterAttentionKind[];

export const CONNECTION_NAMES: Record<(typeof CONNECTION_FILTERS)[number], string> = {
  online: 'Online',
  offline: 'Offline',
  unread: 'Not read (never, or the last read failed)',
};

/** At most this many buildings in one filter (a portfolio has fewer). */
const MAX_BUILDINGS = 500;
export const MAX_LABEL_LENGTH = 64;

export const groupFilterSchema = z
  .strictObject({
    /** In any of these buildings. */
    buildingIds: z
      .array(buildingIdSchema)
      .min(1)
      .max(MAX_BUILDINGS)
      .transform((ids) => [...new Set(ids)])
      .optional(),
    /** The unit label contains this text, ignoring case. */
    label: z
      .string()
      .trim()
      .min(1)
      .max(MAX_LABEL_LENGTH, `At most ${MAX_LABEL_LENGTH} characters.`)
      .optional(),
    /** Connectivity as last read. */
    connection: z.enum(CONNECTION_FILTERS).optional(),
    /** Resident mode as last read. */
    resident: z.enum(RESIDENT_FILTERS).optional(),
    /** Needs attention for any of these. */
    attention: z
      .array(z.enum(FILTER_ATTENTION_KIND_NAMES as [FilterAttentionKind, ...FilterAttentionKind[]]))
      .min(1)
      .max(FILTER_ATTENTION_KIND_NAMES.length)
      .transform((kinds) => [...new Set(kinds)])
      .optional(),
  })
  .refine((filter) => Object.values(filter).some((value) => value !== undefined), {
    message: 'Choose at least one condition: a building, a label, a status or an attention kind.',
  });

export type GroupFilter = z.infer<typeof groupFilterSchema>;

/** The filter's fields as a form posts them (checkboxes repeat their name; '' is "any"). */
export function filterInputFromForm(form: FormData): unknown {
  const text = (name: string) => {
    const value = form.get(name);
    return value === '' || value === null ? undefined : value;
  };
  const many = (name: string) => {
    const values = form.getAll(name);
    return values.length > 0 ? values : undefined;
  };
  const label = form.get('label');
  const input: Record<string, unknown> = {
    buildingIds: many('buildingIds'),
    label: typeof label === 'string' && label.trim() === '' ? undefined : (label ?? undefined),
    connection: text('connection'),
    resident: text('resident'),
    attention: many('attention'),
  };
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

/** A stored filter, if it still parses (an unreadable one matches nothing). */
export function parseStoredFilter(value: unknown): GroupFilter | null {
  const parsed = groupFilterSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const or = (words: string[]) =>
  words.length <= 1
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;

/**
 * The filter in words, e.g. "In Maple Court or Oak House; label contains “4”; offline; needs
 * attention for freeze risk or too cold". `buildingName` names a building id (one gone from the
 * portfolio reads as "a removed building").
 */
export function describeFilter(
  filter: GroupFilter,
  buildingName: (buildingId: string) => string | undefined,
): string {
  const parts: string[] = [];
  if (filter.buildingIds) {
    parts.push(
      `In ${or(filter.buildingIds.map((id) => buildingName(id) ?? 'a removed building'))}`,
    );
  }
  if (filter.label) parts.push(`label contains “${filter.label}”`);
  if (filter.connection) {
    parts.push(filter.connection === 'unread' ? 'not read' : filter.connection);
  }
  if (filter.resident) parts.push(`resident mode ${filter.resident}`);
  if (filter.attention) {
    parts.push(
      `needs attention for ${or(filter.attention.map((kind) => FILTER_ATTENTION_KINDS[kind].name.toLowerCase()))}`,
    );
  }
  const sentence = parts.join('; ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
