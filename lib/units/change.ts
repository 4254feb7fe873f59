import 'server-only';
import { TZDate } from '@date-fns/tz';
import { z } from 'zod';
import { logActivity } from '@/lib/activity/sink';
import { queueRun } from '@/lib/runs/sweep';
import type { Member } from '@/lib/auth/store';
import { fieldErrorsOf } from '@/lib/platform/forms';
import type { FormState } from '@/lib/platform/forms';
import { formatDate, formatMoment, knownZone } from '@/lib/platform/time-format';
import { isCalendarDate } from '@/lib/settings/alerts';
import {
  applyUnitEvent,
  SAME_STATE_WORDS,
  STATE_WORDS,
  type Transition,
  UNIT_EVENTS,
  type UnitEvent,
  type UnitState,
} from './lifecycle';
import type { Tx } from '@/lib/runs/store';
import { applyToUnit, type Unit } from './store';
import { occupancyRunStarter } from './turnover/start';

/**
 * Recording a unit's occupancy from a member's form: the input checked (a move-out day, a
 * move-in's local date and time in the building's zone, in the future), the event applied with
 * the unit locked, and each change an activity entry with who made it. The action opens the unit
 * (session, scope, `change_occupancy`) before this; nothing here reaches the service.
 */

export type OccupancyField = 'event' | 'moveOutOn' | 'moveInDate' | 'moveInTime';
export type OccupancyState = FormState<OccupancyField>;

const day = (what: string) =>
  z
    .string(`Enter the ${what}.`)
    .trim()
    .min(1, `Enter the ${what}.`)
    .refine(isCalendarDate, 'Enter a date such as 2027-01-31.');

const occupancySchema = z.discriminatedUnion(
  'event',
  [
    z.object({ event: z.literal('give_notice'), moveOutOn: day('move-out day') }),
    z.object({
      event: z.literal('schedule_move_in'),
      moveInDate: day('move-in day'),
      moveInTime: z
        .string('Enter the move-in time.')
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time such as 15:00.'),
    }),
    ...UNIT_EVENTS.filter((name) => name !== 'give_notice' && name !== 'schedule_move_in').map(
      (name) => z.object({ event: z.literal(name) }),
    ),
  ] as [z.ZodObject, z.ZodObject, ...z.ZodObject[]],
  { error: 'Choose what happened.' },
);

/** The instant of a local date and time in a zone (a time a clock change skips moves on). */
export function localInstant(date: string, time: string, timeZone: string): Date {
  const [year = 0, month = 1, dayOfMonth = 1] = date.split('-').map(Number);
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return new Date(
    new TZDate(year, month - 1, dayOfMonth, hours, minutes, knownZone(timeZone)).getTime(),
  );
}

/** The event a posted form asks for, or the form's errors. */
export function readOccupancyForm(
  form: FormData,
  unit: Pick<Unit, 'timeZone'>,
  now = new Date(),
): { ok: true; event: UnitEvent } | { ok: false; state: OccupancyState } {
  const values = {
    event: String(form.get('event') ?? ''),
    moveOutOn: String(form.get('moveOutOn') ?? ''),
    moveInDate: String(form.get('moveInDate') ?? ''),
    moveInTime: String(form.get('moveInTime') ?? ''),
  };
  const refuse = (fieldErrors: OccupancyState['fieldErrors']) => ({
    ok: false as const,
    state: {
      status: 'error' as const,
      message: 'Check the highlighted fields; nothing was changed.',
      fieldErrors,
      values,
    },
  });
  const parsed = occupancySchema.safeParse({
    event: form.get('event') ?? undefined,
    moveOutOn: form.get('moveOutOn') ?? undefined,
    moveInDate: form.get('moveInDate') ?? undefined,
    moveInTime: form.get('moveInTime') ?? undefined,
  });
  if (!parsed.success) return refuse(fieldErrorsOf<OccupancyField>(parsed.error));
  const input = parsed.data as Record<string, string> & { event: UnitEvent['event'] };
  if (input.event === 'give_notice') {
    return { ok: true, event: { event: 'give_notice', moveOutOn: input.moveOutOn ?? '' } };
  }
  if (input.event === 'schedule_move_in') {
    const at = localInstant(input.moveInDate ?? '', input.moveInTime ?? '', unit.timeZone);
    if (at.getTime() <= now.getTime()) {
      return refuse({ moveInDate: ['A move-in is scheduled for a time still to come.'] });
    }
    return { ok: true, event: { event: 'schedule_move_in', moveInAt: at.toISOString() } };
  }
  return { ok: true, event: { event: input.event } as UnitEvent };
}

/** Who or what changes a unit: a member, or Setpoint itself for a scheduled step. */
export type UnitActor = {
  orgId: string;
  userId: string | null;
  name: string;
  temperatureUnit: 'F' | 'C';
};

type Recorded = (Transition & { from: UnitState; runId: string | null }) | null;

/**
 * An event ready to apply to a unit with the unit locked, with the run its new state's policy
 * asks for (the policies read now, before any transaction): applying it gives the transition as
 * the lifecycle gave it (refused, unchanged or changed), or null for no such unit. In the
 * caller's transaction when given one; `announceUnitChange` follows its commit.
 */
export async function unitChange(input: {
  by: UnitActor;
  unit: Unit;
  event: UnitEvent;
}): Promise<(within?: Tx) => Promise<Recorded>> {
  const { by, unit, event } = input;
  const startRun = await occupancyRunStarter({ orgId: by.orgId, unit, by });
  return (within) =>
    applyToUnit(
      {
        orgId: by.orgId,
        unitId: unit.id,
        event,
        apply: (current) => applyUnitEvent(current, event),
        actor: { userId: by.userId, name: by.name },
        startRun,
      },
      within,
    );
}

/** After a change is committed: its activity entry with who made it, and its run queued. */
export async function announceUnitChange(input: {
  by: UnitActor;
  unit: Unit;
  event: UnitEvent;
  result: Recorded;
}): Promise<void> {
  const { by, unit, event, result } = input;
  if (!result?.ok || !result.changed) return;
  if (result.runId) await queueRun(result.runId);
  const now = STATE_WORDS[result.state.state].toLowerCase();
  const was = STATE_WORDS[result.from.state].toLowerCase();
  await logActivity({
    actor: { orgId: by.orgId, userId: by.userId, name: by.name },
    action: 'unit.state',
    summary:
      result.from.state === result.state.state
        ? `${unit.label}: ${SAME_STATE_WORDS[event.event] ?? now}`
        : `${unit.label}: ${now} (was ${was})`,
    thermostatId: unit.thermostatId,
    buildingId: unit.buildingId,
    // In words, as the log shows them: the states by name, the dates in the building's zone.
    changes: {
      unitId: unit.id,
      occupancy: { from: STATE_WORDS[result.from.state], to: STATE_WORDS[result.state.state] },
      ...(result.state.state === 'notice_given' && {
        moveOutDay: formatDate(result.state.moveOutOn),
      }),
      ...(result.state.state === 'move_in_scheduled' && {
        moveIn: formatMoment(new Date(result.state.moveInAt), unit.timeZone),
      }),
    },
  });
}

/** Applies a member's event to a unit and announces it: `unitChange`, then its entry. */
export async function recordUnitEvent(input: {
  member: Member;
  unit: Unit;
  event: UnitEvent;
}): Promise<Recorded> {
  const change = { by: input.member, unit: input.unit, event: input.event };
  const result = await (await unitChange(change))();
  await announceUnitChange({ ...change, result });
  return result;
}

/** Records what happened to a unit, and says so as the form shows it. */
export async function changeOccupancy(input: {
  member: Member;
  unit: Unit;
  event: UnitEvent;
}): Promise<OccupancyState> {
  const { unit } = input;
  const result = await recordUnitEvent(input);
  if (!result) return { status: 'error', message: 'That unit is not in your portfolio.' };
  if (!result.ok) return { status: 'error', message: `${result.reason} Nothing was changed.` };
  const now = STATE_WORDS[result.state.state].toLowerCase();
  if (!result.changed) {
    return { status: 'success', message: `${unit.label} was already ${now}; nothing changed.` };
  }
  const run = result.runId ? ' Its thermostat is being put in its settings; follow it below.' : '';
  return { status: 'success', message: `Saved: ${unit.label} is ${now}.${run}` };
}
