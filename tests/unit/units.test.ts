import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/auth/store';
import type { DatabaseHandle } from '@/lib/db/client';

// The action asks the session who is signed in: whoever the test says.
const session = vi.hoisted(() => ({ member: null as Member | null }));
vi.mock('@/lib/auth/session', () => ({
  getCurrentMember: async () => session.member,
  requireMember: async () => {
    if (!session.member) throw new Error('not signed in');
    return session.member;
  },
}));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-units-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
});

const { useDatabase } = await import('../support/database');
const { createFirstOwner, inviteAndAccept } = await import('../support/members');
const { refusal } = await import('@/lib/auth/permissions');
const { initialFormState } = await import('@/lib/platform/forms');
const { addThermostat, ensureBuilding, updateThermostatLabel, removeThermostat } = await import(
  '@/lib/portfolio/store'
);
const { findUnitOfThermostat, listUnitEvents, listUnits } = await import('@/lib/units/store');
const { listActivity } = await import('@/lib/activity/store');
const { localInstant, readOccupancyForm } = await import('@/lib/units/change');
const { recordOccupancy } = await import('@/app/(app)/units/[unitId]/actions');

const MINE = 'aaaaaaaaaaaaaaaaaaaaaaa1';
const OTHER = 'bbbbbbbbbbbbbbbbbbbbbbb2';

const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
};

/**
 * Units (issue 36): every thermostat comes in a unit of its own, labelled as it is; a unit's
 * occupancy is recorded by a member who may (`change_occupancy` in the unit's building), each
 * change an event on its timeline and an activity entry; a replayed event changes nothing.
 */
describe('units', () => {
  let handle: DatabaseHandle;
  let owner: Member;
  let manager: Member;
  let viewer: Member;
  const unitOf = async (thermostatId: string) => {
    const unit = await findUnitOfThermostat({ scope: owner, thermostatId });
    if (!unit) throw new Error(`no unit for ${thermostatId}`);
    return unit;
  };

  beforeAll(async () => {
    handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
    owner = await createFirstOwner('owner@units.example', 'Units Property');
    const orgId = owner.orgId;
    await ensureBuilding({
      orgId,
      buildingId: MINE,
      name: 'Harbor View',
      timeZone: 'America/New_York',
    });
    await ensureBuilding({
      orgId,
      buildingId: OTHER,
      name: 'Lakeshore',
      timeZone: 'America/Chicago',
    });
    await addThermostat({
      orgId,
      thermostatId: '100000000001',
      buildingId: MINE,
      unitLabel: 'Unit 10',
    });
    await addThermostat({
      orgId,
      thermostatId: '100000000002',
      buildingId: MINE,
      unitLabel: 'Unit 2',
    });
    await addThermostat({ orgId, thermostatId: '100000000003', buildingId: OTHER, unitLabel: '' });
    manager = await inviteAndAccept(orgId, 'bm@units.example', 'building_manager', [MINE]);
    viewer = await inviteAndAccept(orgId, 'viewer@units.example', 'viewer');
  });
  afterAll(async () => {
    session.member = null;
    await handle.close();
  });

  it('gives each thermostat a unit of its own, labelled as it is, in label order, occupied', async () => {
    const units = await listUnits({ scope: owner, buildingId: MINE });
    expect(units.map((unit) => [unit.label, unit.thermostatId, unit.occupancy.state])).toEqual([
      ['Unit 2', '100000000002', 'occupied'],
      ['Unit 10', '100000000001', 'occupied'],
    ]);
    expect((await unitOf('100000000003')).label).toBe('100000000003');
    await updateThermostatLabel({
      orgId: owner.orgId,
      thermostatId: '100000000002',
      unitLabel: 'Unit 2B',
    });
    expect((await unitOf('100000000002')).label).toBe('Unit 2B');
    // A building manager sees only their buildings' units.
    expect(await listUnits({ scope: manager, buildingId: OTHER })).toEqual([]);
  });

  it('a building manager records notice, then the move-out; a replay changes nothing', async () => {
    const unit = await unitOf('100000000001');
    session.member = manager;
    const notice = await recordOccupancy(
      unit.id,
      initialFormState,
      formOf({ event: 'give_notice', moveOutOn: '2027-01-31' }),
    );
    expect(notice).toMatchObject({ status: 'success', message: 'Saved: Unit 10 is notice given.' });
    for (let replay = 0; replay < 3; replay += 1) {
      expect(
        await recordOccupancy(unit.id, initialFormState, formOf({ event: 'move_out' })),
      ).toMatchObject({ status: 'success' });
    }
    expect((await unitOf('100000000001')).occupancy).toEqual({ state: 'vacant' });
    const events = await listUnitEvents({ orgId: owner.orgId, unitId: unit.id });
    expect(
      events.map((event) => [event.event, event.fromState, event.toState, event.actorName]),
    ).toEqual([
      ['move_out', 'notice_given', 'vacant', manager.name],
      ['give_notice', 'occupied', 'notice_given', manager.name],
    ]);
    expect(events[1]?.detail).toEqual({ moveOutOn: '2027-01-31' });
    const entries = await listActivity({ scope: owner, filter: { action: 'unit.state' } });
    expect(entries.map((entry) => entry.summary)).toEqual([
      'Unit 10: vacant (was notice given)',
      'Unit 10: notice given (was occupied)',
    ]);
    expect(entries[0]).toMatchObject({ actorName: manager.name, thermostatId: '100000000001' });
  });

  it('refuses what does not fit the state, in words, and changes nothing', async () => {
    const unit = await unitOf('100000000002');
    session.member = owner;
    expect(
      await recordOccupancy(unit.id, initialFormState, formOf({ event: 'make_ready' })),
    ).toEqual({
      status: 'error',
      message:
        'A unit is made ready once it is vacant; record the move-out first. Nothing was changed.',
    });
    expect(await listUnitEvents({ orgId: owner.orgId, unitId: unit.id })).toEqual([]);
  });

  it('refuses a viewer, a building manager outside their buildings, and a forged id, before anything is written', async () => {
    const mine = await unitOf('100000000002');
    const other = await unitOf('100000000003');
    const move = formOf({ event: 'move_out' });
    session.member = viewer;
    expect(await recordOccupancy(mine.id, initialFormState, move)).toEqual({
      status: 'error',
      message: refusal('viewer', 'change_occupancy'),
    });
    session.member = manager;
    for (const id of [other.id, 'not-a-unit', '00000000-0000-4000-8000-000000000000']) {
      expect(await recordOccupancy(id, initialFormState, move)).toEqual({
        status: 'error',
        message: 'That unit is not in your portfolio.',
      });
    }
    for (const unit of [mine, other]) {
      expect(await listUnitEvents({ orgId: owner.orgId, unitId: unit.id })).toEqual([]);
    }
  });

  it('reads a move-in as a local time of the building, still to come, and says what is missing', () => {
    const unit = { timeZone: 'America/New_York' };
    const now = new Date('2027-03-01T12:00:00Z');
    // Across the spring change (March 14, 2027): 15:00 is UTC-4 after it, UTC-5 before.
    expect(
      readOccupancyForm(
        formOf({ event: 'schedule_move_in', moveInDate: '2027-03-15', moveInTime: '15:00' }),
        unit,
        now,
      ),
    ).toEqual({
      ok: true,
      event: { event: 'schedule_move_in', moveInAt: '2027-03-15T19:00:00.000Z' },
    });
    expect(localInstant('2027-03-13', '15:00', 'America/New_York').toISOString()).toBe(
      '2027-03-13T20:00:00.000Z',
    );
    expect(
      readOccupancyForm(
        formOf({ event: 'schedule_move_in', moveInDate: '2027-02-01', moveInTime: '15:00' }),
        unit,
        now,
      ),
    ).toMatchObject({
      ok: false,
      state: { fieldErrors: { moveInDate: ['A move-in is scheduled for a time still to come.'] } },
    });
    expect(readOccupancyForm(formOf({ event: 'give_notice' }), unit, now)).toMatchObject({
      ok: false,
      state: { fieldErrors: { moveOutOn: ['Enter the move-out day.'] } },
    });
    expect(readOccupancyForm(formOf({ event: 'evict' }), unit, now)).toMatchObject({
      ok: false,
      state: { fieldErrors: { event: ['Choose what happened.'] } },
    });
  });

  it('keeps a unit, its occupancy and its timeline when its thermostat leaves the portfolio', async () => {
    const unit = await unitOf('100000000001');
    await removeThermostat({ orgId: owner.orgId, thermostatId: '100000000001' });
    const [kept] = (await listUnits({ scope: owner, buildingId: MINE })).filter(
      (each) => each.id === unit.id,
    );
    expect(kept).toMatchObject({
      label: 'Unit 10',
      thermostatId: null,
      occupancy: { state: 'vacant' },
    });
    expect(await listUnitEvents({ orgId: owner.orgId, unitId: unit.id })).toHaveLength(2);
  });
});
