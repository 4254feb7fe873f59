import 'server-only';
import { z } from 'zod';
import { ACTIVITY_ACTION_NAMES, type ActivityAction } from '@/lib/activity/actions';
import type { ActivityFilter } from '@/lib/activity/store';
import type { Scope } from '@/lib/db/scope';
import { searchThermostats } from '@/lib/portfolio/store';
import { formerThermostatsToo } from '@/lib/portfolio/units';
import { buildingIdSchema } from '@/lib/service/schemas';
import { dayIn } from '@/lib/platform/time-format';

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
  /** Whether `from` is after `to`, so that nothing can match (the page says so). */
  reversed: boolean;
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

/**
 * The filters of a scope's log, read in `timeZone` (the member's: their dates are whole days of
 * their own calendar, `to` including its day).
 */
export async function readActivityQuery(
  scope: Scope & { timeZone: string },
  params: Params,
): Promise<ActivityQuery> {
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
  // A unit's activity goes on across a new thermostat: the ones it held before count too.
  const thermostatIds = matched
    ? await formerThermostatsToo({
        orgId: scope.orgId,
        thermostatIds: matched.map((t) => t.thermostatId),
      })
    : undefined;
  const filter: ActivityFilter = {
    buildingId: values.building || undefined,
    thermostatIds,
    userId: values.person || undefined,
    action,
    from: values.from ? dayIn(values.from, scope.timeZone).start : undefined,
    to: values.to ? dayIn(values.to, scope.timeZone).end : undefined,
  };
  const before = cursorSchema.safeParse(one(params.before)).data;
  const reversed = Boolean(values.from && values.to && values.from > values.to);
  return { values, filter, matched, before, reversed };
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
