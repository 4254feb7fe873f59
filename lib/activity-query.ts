import 'server-only';
import { z } from 'zod';
import { ACTIVITY_ACTION_NAMES, type ActivityAction } from '@/lib/activity-actions';
import { type ActivityFilter, type Scope, searchThermostats } from '@/lib/db/queries';
import { buildingIdSchema } from '@/lib/thermostat-api/schemas';

/**
 * The activity log's filters as the address carries them (so a filtered view can be linked,
 * paged and exported), checked and turned into a query. Anything malformed is ignored, never an
 * error page.
 */
export type ActivityQuery = {
  /** What the form shows back. */
  values: {
    building: string;
    thermostat: string;
    person: string;
    action: string;
    from: string;
    to: string;
  };
  filter: ActivityFilter;
  /** The thermostats a thermostat search matched (empty: none did). */
  matched: { thermostatId: string; unitLabel: string }[] | null;
  before?: { at: Date; id: number };
};

type Params = Record<string, string | string[] | undefined>;

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value.slice(0, 200) : '';

const dateSchema = z.iso.date();
const cursorSchema = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z_\d{1,12}$/)
  .transform((value) => {
    const [at = '', id = ''] = value.split('_');
    return { at: new Date(at), id: Number(id) };
  })
  .refine((cursor) => !Number.isNaN(cursor.at.getTime()));

/** Dates are whole days in UTC: `to` includes its day. */
const dayStart = (date: string) => new Date(`${date}T00:00:00.000Z`);
const nextDay = (date: string) => new Date(dayStart(date).getTime() + 86_400_000);

export async function readActivityQuery(scope: Scope, params: Params): Promise<ActivityQuery> {
  const action = z
    .enum(ACTIVITY_ACTION_NAMES as [ActivityAction, ...ActivityAction[]])
    .safeParse(one(params.action)).data;
  const values = {
    building: buildingIdSchema.safeParse(one(params.building)).data ?? '',
    thermostat: one(params.thermostat).trim(),
    person: z.uuid().safeParse(one(params.person)).data ?? '',
    action: action ?? '',
    from: dateSchema.safeParse(one(params.from)).data ?? '',
    to: dateSchema.safeParse(one(params.to)).data ?? '',
  };
  const matched = values.thermostat
    ? (await searchThermostats({ scope, text: values.thermostat, limit: 100 })).map((t) => ({
        thermostatId: t.thermostatId,
        unitLabel: t.unitLabel,
      }))
    : null;
  const filter: ActivityFilter = {
    buildingId: values.building || undefined,
    thermostatIds: matched?.map((t) => t.thermostatId),
    userId: values.person || undefined,
    action,
    from: values.from ? dayStart(values.from) : undefined,
    to: values.to ? nextDay(values.to) : undefined,
  };
  const before = cursorSchema.safeParse(one(params.before)).data;
  return { values, filter, matched, before };
}

/** The address of this view with other parameters (empty ones dropped). */
export function activityHref(
  path: string,
  values: ActivityQuery['values'],
  extra: Record<string, string> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...values, ...extra })) {
    if (value) params.set(key, value);
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

export const cursorOf = (entry: { at: Date; id: number }) =>
  `${entry.at.toISOString()}_${entry.id}`;
