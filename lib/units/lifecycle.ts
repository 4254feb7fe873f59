import { formatDayOfWeek, formatMoment } from '@/lib/platform/time-format';

/**
 * A unit's occupancy as a state machine: the five states a leasing office uses, and the events
 * that move a unit between them (from a member's form, the API, or a scheduled transition). Pure:
 * the store applies an event inside the transaction that locks the unit, and tests drive it with
 * any sequence of events.
 *
 * Every event is idempotent: applying an event to the state it produced changes nothing, so a
 * move-out sent three times by a property-management system is one move-out. An event that does
 * not fit the state (a move-in scheduled for an occupied unit) is refused with words, and the
 * state is left as it was.
 *
 * Dates and times are the building's: a move-out is a calendar day (`YYYY-MM-DD`), a move-in an
 * instant (ISO 8601) that the form made from a local date and time in the building's zone.
 */

export const UNIT_STATES = [
  'occupied',
  'notice_given',
  'vacant',
  'make_ready',
  'move_in_scheduled',
] as const;
export type UnitStateName = (typeof UNIT_STATES)[number];

export type UnitState =
  | { state: 'occupied' }
  | { state: 'notice_given'; moveOutOn: string }
  | { state: 'vacant' }
  | { state: 'make_ready' }
  /** `ready`: the unit was made ready before the move-in was scheduled (a cancel goes back). */
  | { state: 'move_in_scheduled'; moveInAt: string; ready: boolean };

export const UNIT_EVENTS = [
  'give_notice',
  'cancel_notice',
  'move_out',
  'make_ready',
  'schedule_move_in',
  'cancel_move_in',
  'move_in',
] as const;
export type UnitEventName = (typeof UNIT_EVENTS)[number];

export type UnitEvent =
  | { event: 'give_notice'; moveOutOn: string }
  | { event: 'cancel_notice' }
  | { event: 'move_out' }
  | { event: 'make_ready' }
  | { event: 'schedule_move_in'; moveInAt: string }
  | { event: 'cancel_move_in' }
  | { event: 'move_in' };

export type Transition =
  | { ok: true; changed: boolean; state: UnitState }
  | { ok: false; reason: string };

const to = (state: UnitState): Transition => ({ ok: true, changed: true, state });
const unchanged = (state: UnitState): Transition => ({ ok: true, changed: false, state });
const refuse = (reason: string): Transition => ({ ok: false, reason });

/** What a state is called on the pages. */
export const STATE_WORDS: Record<UnitStateName, string> = {
  occupied: 'Occupied',
  notice_given: 'Notice given',
  vacant: 'Vacant',
  make_ready: 'Make-ready',
  move_in_scheduled: 'Move-in scheduled',
};

/** What an event is called on the pages (as a button or a choice). */
export const EVENT_WORDS: Record<UnitEventName, string> = {
  give_notice: 'Notice given (set the move-out date)',
  cancel_notice: 'Notice withdrawn',
  move_out: 'Moved out: vacant',
  make_ready: 'Make-ready started',
  schedule_move_in: 'Schedule a move-in',
  cancel_move_in: 'Cancel the scheduled move-in',
  move_in: 'Moved in: occupied',
};

/** What an event that leaves the state as it was did, in words (its date or readiness moved). */
export const SAME_STATE_WORDS: Partial<Record<UnitEventName, string>> = {
  give_notice: 'a new move-out day',
  schedule_move_in: 'the move-in rescheduled',
  make_ready: 'made ready, the move-in still scheduled',
};

/** The unit after `event`, or why the event does not fit the unit's state. */
export function applyUnitEvent(current: UnitState, event: UnitEvent): Transition {
  switch (event.event) {
    case 'give_notice':
      if (current.state === 'notice_given') {
        return current.moveOutOn === event.moveOutOn
          ? unchanged(current)
          : to({ state: 'notice_given', moveOutOn: event.moveOutOn });
      }
      if (current.state !== 'occupied') {
        return refuse('Only an occupied unit can be given notice.');
      }
      return to({ state: 'notice_given', moveOutOn: event.moveOutOn });
    case 'cancel_notice':
      if (current.state === 'occupied') return unchanged(current);
      if (current.state !== 'notice_given') {
        return refuse('There is no notice to withdraw: the resident has moved out.');
      }
      return to({ state: 'occupied' });
    case 'move_out':
      if (current.state === 'vacant') return unchanged(current);
      if (current.state !== 'occupied' && current.state !== 'notice_given') {
        return refuse('The unit is already vacant.');
      }
      return to({ state: 'vacant' });
    case 'make_ready':
      if (current.state === 'make_ready') return unchanged(current);
      if (current.state === 'move_in_scheduled') {
        return current.ready ? unchanged(current) : to({ ...current, ready: true });
      }
      if (current.state !== 'vacant') {
        return refuse('A unit is made ready once it is vacant; record the move-out first.');
      }
      return to({ state: 'make_ready' });
    case 'schedule_move_in':
      if (current.state === 'move_in_scheduled') {
        return current.moveInAt === event.moveInAt
          ? unchanged(current)
          : to({ ...current, moveInAt: event.moveInAt });
      }
      if (current.state !== 'vacant' && current.state !== 'make_ready') {
        return refuse('A move-in is scheduled for a vacant unit; record the move-out first.');
      }
      return to({
        state: 'move_in_scheduled',
        moveInAt: event.moveInAt,
        ready: current.state === 'make_ready',
      });
    case 'cancel_move_in':
      if (current.state !== 'move_in_scheduled') {
        return current.state === 'occupied'
          ? refuse('The resident has moved in; there is no scheduled move-in to cancel.')
          : unchanged(current);
      }
      return to({ state: current.ready ? 'make_ready' : 'vacant' });
    case 'move_in':
      if (current.state === 'occupied') return unchanged(current);
      if (current.state === 'notice_given') {
        return refuse('The unit is occupied (its resident has given notice).');
      }
      return to({ state: 'occupied' });
  }
}

/** The events that fit a unit's state and would change it, for the form to offer. */
export function eventsFor(current: UnitState): UnitEventName[] {
  const probe: Record<UnitEventName, UnitEvent> = {
    give_notice: { event: 'give_notice', moveOutOn: '0000-00-00' },
    cancel_notice: { event: 'cancel_notice' },
    move_out: { event: 'move_out' },
    make_ready: { event: 'make_ready' },
    schedule_move_in: { event: 'schedule_move_in', moveInAt: '' },
    cancel_move_in: { event: 'cancel_move_in' },
    move_in: { event: 'move_in' },
  };
  return UNIT_EVENTS.filter((name) => {
    const result = applyUnitEvent(current, probe[name]);
    return result.ok && result.changed;
  });
}

/** What comes next for a unit in its state, in words, its dates in the building's zone. */
export function nextStepOf(state: UnitState, timeZone: string): string | null {
  switch (state.state) {
    case 'notice_given':
      return `Moves out ${formatDayOfWeek(state.moveOutOn)}`;
    case 'move_in_scheduled':
      return `Moves in ${formatMoment(new Date(state.moveInAt), timeZone)}`;
    default:
      return null;
  }
}
