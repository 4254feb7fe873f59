import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  applyUnitEvent,
  eventsFor,
  UNIT_EVENTS,
  type UnitEvent,
  type UnitState,
} from '@/lib/units/lifecycle';

// The unit lifecycle as a state machine (issue 36): no sequence of events reaches a state
// outside the five, and replaying any event that was taken changes nothing.

/** Every state a unit may be in, as the store keeps it: a state outside this is a bug. */
const definedState = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('occupied') }),
  z.strictObject({ state: z.literal('notice_given'), moveOutOn: z.iso.date() }),
  z.strictObject({ state: z.literal('vacant') }),
  z.strictObject({ state: z.literal('make_ready') }),
  z.strictObject({
    state: z.literal('move_in_scheduled'),
    moveInAt: z.iso.datetime({ offset: true }),
    ready: z.boolean(),
  }),
]);

const day = fc
  .date({
    min: new Date('2026-01-01T00:00:00Z'),
    max: new Date('2028-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString().slice(0, 10));
const instant = fc
  .date({
    min: new Date('2026-01-01T00:00:00Z'),
    max: new Date('2028-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString());

const anEvent: fc.Arbitrary<UnitEvent> = fc.oneof(
  day.map((moveOutOn) => ({ event: 'give_notice' as const, moveOutOn })),
  fc.constant({ event: 'cancel_notice' as const }),
  fc.constant({ event: 'move_out' as const }),
  fc.constant({ event: 'make_ready' as const }),
  instant.map((moveInAt) => ({ event: 'schedule_move_in' as const, moveInAt })),
  fc.constant({ event: 'cancel_move_in' as const }),
  fc.constant({ event: 'move_in' as const }),
);

const anyStart: fc.Arbitrary<UnitState> = fc.oneof(
  fc.constant({ state: 'occupied' as const }),
  fc.constant({ state: 'vacant' as const }),
);

describe('a unit’s lifecycle', () => {
  it('no sequence of events leaves the five states, and a refused event leaves the unit as it was', () => {
    fc.assert(
      fc.property(anyStart, fc.array(anEvent, { maxLength: 40 }), (start, events) => {
        let unit = start;
        for (const event of events) {
          const result = applyUnitEvent(unit, event);
          if (result.ok) {
            expect(definedState.safeParse(result.state).success).toBe(true);
            if (!result.changed) expect(result.state).toEqual(unit);
            unit = result.state;
          } else {
            expect(result.reason).toMatch(/\.$/);
          }
        }
      }),
    );
  });

  it('replaying any event that was taken is a no-op', () => {
    fc.assert(
      fc.property(
        anyStart,
        fc.array(anEvent, { maxLength: 30 }),
        anEvent,
        fc.integer({ min: 1, max: 3 }),
        (start, before, event, replays) => {
          let unit = start;
          for (const earlier of before) {
            const result = applyUnitEvent(unit, earlier);
            if (result.ok) unit = result.state;
          }
          const first = applyUnitEvent(unit, event);
          if (!first.ok) return;
          for (let n = 0; n < replays; n += 1) {
            expect(applyUnitEvent(first.state, event)).toEqual({
              ok: true,
              changed: false,
              state: first.state,
            });
          }
        },
      ),
    );
  });

  it('walks a turnover: notice, move-out, make-ready, a move-in scheduled, then moved in', () => {
    const steps: [UnitEvent, UnitState][] = [
      [
        { event: 'give_notice', moveOutOn: '2027-01-31' },
        { state: 'notice_given', moveOutOn: '2027-01-31' },
      ],
      [{ event: 'move_out' }, { state: 'vacant' }],
      [{ event: 'make_ready' }, { state: 'make_ready' }],
      [
        { event: 'schedule_move_in', moveInAt: '2027-02-15T15:00:00.000Z' },
        { state: 'move_in_scheduled', moveInAt: '2027-02-15T15:00:00.000Z', ready: true },
      ],
      [{ event: 'move_in' }, { state: 'occupied' }],
    ];
    let unit: UnitState = { state: 'occupied' };
    for (const [event, expected] of steps) {
      const result = applyUnitEvent(unit, event);
      expect(result).toEqual({ ok: true, changed: true, state: expected });
      if (result.ok) unit = result.state;
    }
  });

  it('refuses what does not fit, in words, and a cancelled move-in goes back to where it was', () => {
    expect(applyUnitEvent({ state: 'occupied' }, { event: 'make_ready' })).toEqual({
      ok: false,
      reason: 'A unit is made ready once it is vacant; record the move-out first.',
    });
    expect(
      applyUnitEvent(
        { state: 'occupied' },
        { event: 'schedule_move_in', moveInAt: '2027-02-15T15:00:00.000Z' },
      ),
    ).toMatchObject({ ok: false });
    const scheduled = (ready: boolean): UnitState => ({
      state: 'move_in_scheduled',
      moveInAt: '2027-02-15T15:00:00.000Z',
      ready,
    });
    expect(applyUnitEvent(scheduled(true), { event: 'cancel_move_in' })).toMatchObject({
      state: { state: 'make_ready' },
    });
    expect(applyUnitEvent(scheduled(false), { event: 'cancel_move_in' })).toMatchObject({
      state: { state: 'vacant' },
    });
  });

  it('offers each state only the events that would change it', () => {
    expect(eventsFor({ state: 'occupied' })).toEqual(['give_notice', 'move_out']);
    expect(eventsFor({ state: 'vacant' })).toEqual(['make_ready', 'schedule_move_in', 'move_in']);
    const offered = new Set(
      (['occupied', 'vacant', 'make_ready'] as const).flatMap((state) => eventsFor({ state })),
    );
    offered.add('cancel_notice');
    offered.add('cancel_move_in');
    expect([...offered].sort()).toEqual([...UNIT_EVENTS].sort());
  });
});
