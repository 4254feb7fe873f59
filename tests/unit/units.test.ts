import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/auth/store';
import type { DatabaseHandle } from '@/lib/db/client';

// The action asks the session who is signed in: whoever the test says.
vi.mock('@/lib/auth/session', () =>
  import('../support/session').then((mocked) => mocked.sessionModule),
);
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-units-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
});

const { session } = await import('../support/session');
const { useDatabase } = await import('../support/database');
const { createFirstOwner, inviteAndAccept } = await import('../support/members');
const { refusal } = await import('@/lib/auth/permissions');
const { initialFormState } = await import('@/lib/platform/forms');
const { addThermostat, ensureBuilding, updateThermostatLabel, removeThermostat } = await import(
  '@/lib/portfolio/store'
);
const { findUnitOfThermostat, listUnitEvents, listUnits } = await import('@/lib/units/store');
const { listUnitHistory, listUnitThermostats, replaceThermostat } = await import(
  '@/lib/portfolio/units'
);
const { sql } = await import('drizzle-orm');
const { listActivity } = await import('@/lib/activity/store');
const { logActivity } = await import('@/lib/activity/sink');
const { localInstant, readOccupancyForm } = await import('@/lib/units/change');
const { recordOccupancy } = await import('@/app/(app)/units/[unitId]/actions');
const { saveOrganisationPolicy } = await import('@/app/(app)/templates/occupancy/actions');
const { saveBuildingPolicy } = await import('@/app/(app)/buildings/[buildingId]/units/actions');
const { policyView } = await import('@/lib/units/manage-policies');
const { createTemplate, deleteTemplate } = await import('@/lib/templates/store');

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
    // Its move-out day passing with no move-out recorded needs attention, from the next day in
    // the building's calendar, and only in the scope that sees the unit.
    const { listPassedMoveOuts } = await import('@/lib/units/store');
    const { listAttention } = await import('@/lib/attention/list');
    const { describeItem } = await import('@/lib/attention/words');
    const onTheDay = new Date('2027-01-31T20:00:00Z');
    const dayAfter = new Date('2027-02-01T20:00:00Z');
    expect(await listPassedMoveOuts({ scope: owner, now: onTheDay })).toEqual([]);
    expect(
      (await listPassedMoveOuts({ scope: owner, now: dayAfter })).map((passed) => passed.id),
    ).toEqual([unit.id]);
    expect(
      await listPassedMoveOuts({ scope: { ...manager, buildingIds: [OTHER] }, now: dayAfter }),
    ).toEqual([]);
    const passed = (await listAttention({ scope: owner, now: dayAfter })).items.find(
      (item) => item.kind === 'move_out_passed',
    );
    expect(passed).toMatchObject({ unitId: unit.id, moveOutOn: '2027-01-31', label: 'Unit 10' });
    expect(
      describeItem(passed as NonNullable<typeof passed>, { unit: 'F', now: dayAfter }).detail,
    ).toMatch(/was to move out on .*31.*no move-out is recorded/);
    for (let replay = 0; replay < 3; replay += 1) {
      expect(
        await recordOccupancy(unit.id, initialFormState, formOf({ event: 'move_out' })),
      ).toMatchObject({ status: 'success' });
    }
    expect((await unitOf('100000000001')).occupancy).toEqual({ state: 'vacant' });
    expect(await listPassedMoveOuts({ scope: owner, now: dayAfter })).toEqual([]);
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

  it('replaces a unit’s thermostat: its history continues across both, its groups follow, the old one leaves', async () => {
    const orgId = owner.orgId;
    await addThermostat({
      orgId,
      thermostatId: '100000000004',
      buildingId: MINE,
      unitLabel: 'Unit 4',
    });
    const unit = await unitOf('100000000004');
    const run = (query: ReturnType<typeof sql>) => handle.db.execute(query);
    const [group] = (
      (await run(sql`insert into thermostat_groups (org_id, name, updated_by_name)
        values (${orgId}, 'South side', 'Test') returning id`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows;
    await run(sql`insert into thermostat_group_members (group_id, org_id, thermostat_id)
      values (${group?.id}, ${orgId}, '100000000004')`);
    const point = (thermostatId: string, at: Date, temperature: number) =>
      run(sql`insert into reading_history (org_id, thermostat_id, at, temperature)
        values (${orgId}, ${thermostatId}, ${at.toISOString()}::timestamptz, ${temperature})`);
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
    await tick();
    await point('100000000004', new Date(), 70);
    await tick();

    expect(
      await replaceThermostat({ orgId, unitId: unit.id, thermostatId: '100000000002' }),
    ).toEqual({
      ok: false,
      reason: 'taken',
    });
    expect(
      await replaceThermostat({ orgId, unitId: unit.id, thermostatId: '100000000005' }),
    ).toEqual({
      ok: true,
      replaced: '100000000004',
    });
    await tick();
    await point('100000000005', new Date(), 72);

    // One chart across both thermostats, on the new one's page; the old one is gone.
    const history = await listUnitHistory({
      scope: owner,
      thermostatId: '100000000005',
      since: new Date(0),
    });
    expect(history.map((p) => [p.thermostatId, p.temperature])).toEqual([
      ['100000000004', 70],
      ['100000000005', 72],
    ]);
    expect(await findUnitOfThermostat({ scope: owner, thermostatId: '100000000004' })).toBeNull();
    const now = await unitOf('100000000005');
    expect(now).toMatchObject({ id: unit.id, label: 'Unit 4', thermostatId: '100000000005' });
    expect(now.knownSince).toEqual(
      (await listUnitThermostats({ orgId, unitId: unit.id }))[0]?.fromAt,
    );
    expect(
      (await listUnitThermostats({ orgId, unitId: unit.id })).map((p) => [
        p.thermostatId,
        p.untilAt === null,
      ]),
    ).toEqual([
      ['100000000004', false],
      ['100000000005', true],
    ]);
    const members = (await run(
      sql`select thermostat_id from thermostat_group_members where group_id = ${group?.id}`,
    )) as unknown as { rows: { thermostat_id: string }[] };
    expect(members.rows).toEqual([{ thermostat_id: '100000000005' }]);
    // The activity log, asked for the new thermostat, shows the old one's entries too.
    await logActivity({
      actor: { orgId, userId: owner.userId, name: owner.name },
      action: 'schedule.update',
      summary: 'Schedule of the old one',
      thermostatId: '100000000004',
    });
    const { readActivityQuery } = await import('@/lib/activity-log/query');
    const query = await readActivityQuery(
      { ...owner, timeZone: 'UTC' },
      { thermostat: '100000000005' },
    );
    expect([...(query.filter.thermostatIds ?? [])].sort()).toEqual([
      '100000000004',
      '100000000005',
    ]);
    const entries = await listActivity({ scope: owner, filter: query.filter });
    expect(entries.map((entry) => entry.summary)).toContain('Schedule of the old one');
    // Its needs-attention history too: the old thermostat's incident is the unit's, beside the
    // new one's, and a link to the old thermostat (an email's) leads to the unit.
    const { incidents } = await import('@/lib/db/schema');
    const { listIncidents } = await import('@/lib/notifications/store');
    const { formerUnitOf } = await import('@/lib/portfolio/units');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await handle.db.insert(incidents).values([
      {
        orgId,
        kind: 'offline',
        subject: '100000000004',
        thermostatId: '100000000004',
        buildingId: MINE,
        buildingIds: [MINE],
        severity: 'warning',
        facts: {},
        openedAt: hourAgo,
        notifiedAt: hourAgo,
        resolvedAt: new Date(),
        resolution: 'cleared',
      },
      {
        orgId,
        kind: 'too_cold',
        subject: '100000000005',
        thermostatId: '100000000005',
        buildingId: MINE,
        buildingIds: [MINE],
        severity: 'warning',
        facts: {},
        openedAt: new Date(),
        notifiedAt: new Date(),
      },
    ]);
    const periods = await listUnitThermostats({ orgId, unitId: unit.id });
    const unitIncidents = await listIncidents({
      scope: owner,
      resolvedSince: new Date(Date.now() - 86_400_000),
      filter: { thermostatIds: periods.map((period) => period.thermostatId) },
    });
    expect(unitIncidents.map((row) => [row.kind, row.thermostatId])).toEqual([
      ['too_cold', '100000000005'],
      ['offline', '100000000004'],
    ]);
    expect(await formerUnitOf({ scope: owner, thermostatId: '100000000004' })).toBe(unit.id);
    expect(
      await formerUnitOf({
        scope: { ...manager, buildingIds: [OTHER] },
        thermostatId: '100000000004',
      }),
    ).toBeNull();
    expect(
      await listIncidents({
        scope: { ...manager, buildingIds: [OTHER] },
        resolvedSince: new Date(0),
        filter: { thermostatIds: ['100000000004', '100000000005'] },
      }),
    ).toEqual([]);
    // A building manager outside the building sees none of it.
    expect(
      await listUnitHistory({
        scope: { ...manager, buildingIds: [OTHER] },
        thermostatId: '100000000005',
        since: new Date(0),
      }),
    ).toEqual([]);
  });

  it('occupancy policies: owners and admins set the organisation’s and a building’s; others are refused before anything is written', async () => {
    const created = await createTemplate({
      member: owner,
      template: { name: 'Vacant unit', configuration: { fanMinimumOnTime: 10 } },
    });
    if (!created.ok) throw new Error(created.message);
    const vacant = created.template.id;
    // Defaults, before anyone sets a policy: the organisation's "Vacant unit" template.
    const before = await policyView({ orgId: owner.orgId, buildingId: MINE });
    expect(before.states.find((row) => row.state === 'vacant')).toEqual({
      state: 'vacant',
      templateId: vacant,
      residentMode: 'off',
      source: 'default',
    });

    const policy = (fields: Record<string, string>) => {
      const form = formOf(fields);
      for (const state of [
        'occupied',
        'notice_given',
        'vacant',
        'make_ready',
        'move_in_scheduled',
      ]) {
        if (!form.has(`${state}.residentMode`)) form.set(`${state}.inherit`, 'on');
      }
      return form;
    };
    for (const member of [viewer, manager]) {
      session.member = member;
      expect(
        await saveOrganisationPolicy(
          initialFormState,
          policy({ 'vacant.residentMode': 'unchanged' }),
        ),
      ).toEqual({ status: 'error', message: refusal(member.role, 'manage_policies') });
      expect(
        await saveBuildingPolicy(
          MINE,
          initialFormState,
          policy({ 'vacant.residentMode': 'unchanged' }),
        ),
      ).toMatchObject({ status: 'error' });
    }
    expect(await policyView({ orgId: owner.orgId, buildingId: MINE })).toEqual(before);

    session.member = owner;
    expect(
      await saveOrganisationPolicy(
        initialFormState,
        policy({
          'vacant.templateId': '00000000-0000-4000-8000-000000000000',
          'vacant.residentMode': 'off',
        }),
      ),
    ).toMatchObject({
      status: 'error',
      fieldErrors: { 'vacant.templateId': ['Choose one of your templates, or none.'] },
    });
    expect(
      await saveOrganisationPolicy(
        initialFormState,
        policy({ 'occupied.templateId': '', 'occupied.residentMode': 'unchanged' }),
      ),
    ).toEqual({ status: 'success', message: 'Saved.' });
    expect(
      await saveBuildingPolicy(
        MINE,
        initialFormState,
        policy({ 'vacant.templateId': '', 'vacant.residentMode': 'unchanged' }),
      ),
    ).toEqual({ status: 'success', message: 'Saved.' });
    const here = await policyView({ orgId: owner.orgId, buildingId: MINE });
    const there = await policyView({ orgId: owner.orgId, buildingId: OTHER });
    const pick = (view: typeof here, state: string) =>
      view.states.find((row) => row.state === state);
    expect(pick(here, 'vacant')).toMatchObject({
      templateId: null,
      residentMode: 'unchanged',
      source: 'building',
    });
    expect(pick(there, 'vacant')).toMatchObject({ templateId: vacant, source: 'default' });
    expect(pick(there, 'occupied')).toMatchObject({
      residentMode: 'unchanged',
      source: 'organisation',
    });
    // Following the organisation's again removes the building's own.
    await saveBuildingPolicy(MINE, initialFormState, policy({}));
    expect(
      pick(await policyView({ orgId: owner.orgId, buildingId: MINE }), 'vacant'),
    ).toMatchObject({
      source: 'default',
    });
    // A template a policy names, deleted: the state follows the defaults, not "no template".
    await saveOrganisationPolicy(
      initialFormState,
      policy({ 'vacant.templateId': vacant, 'vacant.residentMode': 'off' }),
    );
    expect(pick(await policyView({ orgId: owner.orgId, buildingId: '' }), 'vacant')).toMatchObject({
      templateId: vacant,
      source: 'organisation',
    });
    await deleteTemplate({ member: owner, templateId: vacant });
    expect(pick(await policyView({ orgId: owner.orgId, buildingId: '' }), 'vacant')).toEqual({
      state: 'vacant',
      templateId: null,
      residentMode: 'off',
      source: 'default',
    });
    const logged = (
      await listActivity({ scope: owner, filter: { action: 'unit.policy_update' } })
    ).slice(1);
    expect(logged.map((entry) => entry.summary)).toEqual([
      'Changed the occupancy policy of Harbor View',
      'Changed the occupancy policy of Harbor View',
      'Changed the occupancy policy of the organisation',
    ]);
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

    // Added again (with no label): back in the unit it left, which keeps its label and state.
    await addThermostat({
      orgId: owner.orgId,
      thermostatId: '100000000001',
      buildingId: MINE,
      unitLabel: '',
    });
    expect(await unitOf('100000000001')).toMatchObject({
      id: unit.id,
      label: 'Unit 10',
      occupancy: { state: 'vacant' },
    });
    const units = await listUnits({ scope: owner, buildingId: MINE });
    expect(units.filter((each) => each.label === 'Unit 10')).toHaveLength(1);
  });

  it('a unit called by its thermostat’s id is called by the new one’s after a replacement', async () => {
    const orgId = owner.orgId;
    await addThermostat({ orgId, thermostatId: '100000000006', buildingId: OTHER, unitLabel: '' });
    const unit = await unitOf('100000000006');
    expect(unit.label).toBe('100000000006');
    await replaceThermostat({ orgId, unitId: unit.id, thermostatId: '100000000007' });
    expect(await unitOf('100000000007')).toMatchObject({ id: unit.id, label: '100000000007' });
  });
});
