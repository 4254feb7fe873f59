import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/auth/store';
import type { DatabaseHandle } from '@/lib/db/client';

// The actions ask the session who is signed in: whoever the test says.
vi.mock('@/lib/auth/session', () =>
  import('../support/session').then((mocked) => mocked.sessionModule),
);
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-units-csv-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
});

const { session } = await import('../support/session');
const { useDatabase } = await import('../support/database');
const { createFirstOwner, inviteAndAccept } = await import('../support/members');
const { refusal } = await import('@/lib/auth/permissions');
const { initialFormState } = await import('@/lib/platform/forms');
const { addThermostat, ensureBuilding, findThermostat } = await import('@/lib/portfolio/store');
const { findUnitOfThermostat, listUnitEvents, listUnits } = await import('@/lib/units/store');
const { listActivity } = await import('@/lib/activity/store');
const { parseUnitsCsv } = await import('@/lib/units/csv');
const { saveUnit } = await import('@/app/(app)/units/[unitId]/actions');
const { addUnitAction, importUnitsCsv } = await import(
  '@/app/(app)/buildings/[buildingId]/units/actions'
);

const MINE = 'aaaaaaaaaaaaaaaaaaaaaaa1';
const OTHER = 'bbbbbbbbbbbbbbbbbbbbbbb2';

const formOf = (fields: Record<string, string | File>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
};
const csv = (...lines: string[]) =>
  formOf({ csv: ['label,external id,thermostat id,state', ...lines].join('\n') });

/**
 * Units edited on their page and by CSV on their building's units page (issue 36): matching by
 * thermostat id, external id and label; empty units added; external ids unique in the
 * organisation; states through the lifecycle; every refusal in words, before anything is written.
 */
describe('units by CSV and on their page', () => {
  let handle: DatabaseHandle;
  let owner: Member;
  let manager: Member;
  let otherManager: Member;
  let viewer: Member;
  const unitOf = async (thermostatId: string) => {
    const unit = await findUnitOfThermostat({ scope: owner, thermostatId });
    if (!unit) throw new Error(`no unit for ${thermostatId}`);
    return unit;
  };
  const labelsIn = async (buildingId: string) =>
    (await listUnits({ scope: owner, buildingId })).map((unit) => [
      unit.label,
      unit.externalId,
      unit.thermostatId,
      unit.occupancy.state,
    ]);

  beforeAll(async () => {
    handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
    owner = await createFirstOwner('owner@units-csv.example', 'Units CSV Property');
    const orgId = owner.orgId;
    await ensureBuilding({ orgId, buildingId: MINE, name: 'Harbor View', timeZone: 'UTC' });
    await ensureBuilding({ orgId, buildingId: OTHER, name: 'Lakeshore', timeZone: 'UTC' });
    for (const [thermostatId, buildingId, unitLabel] of [
      ['200000000001', MINE, 'Unit 1'],
      ['200000000002', MINE, 'Unit 2'],
      ['200000000003', MINE, 'Unit 3'],
      ['200000000009', OTHER, 'Lake 9'],
    ] as const) {
      await addThermostat({ orgId, thermostatId, buildingId, unitLabel });
    }
    manager = await inviteAndAccept(orgId, 'bm@units-csv.example', 'building_manager', [MINE]);
    otherManager = await inviteAndAccept(orgId, 'bm2@units-csv.example', 'building_manager', [
      OTHER,
    ]);
    viewer = await inviteAndAccept(orgId, 'viewer@units-csv.example', 'viewer');
  });
  afterAll(async () => {
    session.member = null;
    await handle.close();
  });

  it('edits a unit’s label (its thermostat’s too) and external id, unique in the organisation', async () => {
    const unit = await unitOf('200000000001');
    session.member = manager;
    expect(
      await saveUnit(unit.id, initialFormState, formOf({ label: ' Unit 1A ', externalId: 'PM-1' })),
    ).toMatchObject({ status: 'success', message: 'Saved: Unit 1A.' });
    expect(await unitOf('200000000001')).toMatchObject({ label: 'Unit 1A', externalId: 'PM-1' });
    const thermostat = await findThermostat({ scope: owner, thermostatId: '200000000001' });
    expect(thermostat?.unitLabel).toBe('Unit 1A');
    const [entry] = await listActivity({ scope: owner, filter: { action: 'unit.update' } });
    expect(entry).toMatchObject({
      summary: 'Relabelled Unit 1 as Unit 1A',
      actorName: manager.name,
      thermostatId: '200000000001',
    });

    // Another unit of the organisation (in a building this manager does not see) has PM-9.
    session.member = owner;
    const lake = await unitOf('200000000009');
    await saveUnit(lake.id, initialFormState, formOf({ label: 'Lake 9', externalId: 'PM-9' }));
    session.member = manager;
    const second = await unitOf('200000000002');
    expect(
      await saveUnit(second.id, initialFormState, formOf({ label: 'Unit 2', externalId: 'PM-9' })),
    ).toMatchObject({
      status: 'error',
      fieldErrors: {
        externalId: ['External id PM-9 is already another unit’s in your organisation.'],
      },
    });
    expect(
      await saveUnit(
        second.id,
        initialFormState,
        formOf({ label: ' ', externalId: 'x'.repeat(65) }),
      ),
    ).toMatchObject({
      status: 'error',
      fieldErrors: {
        label: ['Enter the unit’s label.'],
        externalId: ['An external id has at most 64 characters.'],
      },
    });
    expect(await unitOf('200000000002')).toMatchObject({ label: 'Unit 2', externalId: null });
  });

  it('refuses a viewer and a building manager of another building before anything is written', async () => {
    const unit = await unitOf('200000000002');
    session.member = viewer;
    expect(
      await saveUnit(
        unit.id,
        initialFormState,
        formOf({ label: 'Viewer was here', externalId: '' }),
      ),
    ).toEqual({ status: 'error', message: refusal('viewer', 'manage_building') });
    expect(await importUnitsCsv(MINE, initialFormState, csv('Viewer unit,,,'))).toEqual({
      status: 'error',
      message: refusal('viewer', 'manage_building'),
    });
    session.member = otherManager;
    expect(
      await saveUnit(unit.id, initialFormState, formOf({ label: 'Not mine', externalId: '' })),
    ).toEqual({ status: 'error', message: 'That unit is not in your portfolio.' });
    expect(await importUnitsCsv(MINE, initialFormState, csv('Not mine,,,vacant'))).toEqual({
      status: 'error',
      message: 'That building is not in your portfolio.',
    });
    expect(
      await addUnitAction(MINE, initialFormState, formOf({ label: 'Not mine', externalId: '' })),
    ).toEqual({ status: 'error', message: 'That building is not in your portfolio.' });
    session.member = viewer;
    expect(
      await addUnitAction(MINE, initialFormState, formOf({ label: 'Viewer', externalId: '' })),
    ).toEqual({ status: 'error', message: refusal('viewer', 'manage_building') });
    expect(await labelsIn(MINE)).toEqual([
      ['Unit 1A', 'PM-1', '200000000001', 'occupied'],
      ['Unit 2', null, '200000000002', 'occupied'],
      ['Unit 3', null, '200000000003', 'occupied'],
    ]);
  });

  it('matches each line by thermostat id, external id or label, adds empty units, and says every line’s result', async () => {
    session.member = manager;
    const state = await importUnitsCsv(
      MINE,
      initialFormState,
      csv(
        'Unit 1B,,200000000001,vacant', // by thermostat id: relabelled and moved out
        'Unit 2,PM-2,,', // by label: given an external id
        'Renamed 1,PM-1,,', // by external id (Unit 1B, named above): refused as a second line
        'Unit 3,,,occupied', // by label, already so
        'Unit 7,PM-7,,make-ready', // no match: a new unit would be occupied, not ready
        'Unit 8,PM-8,,VACANT', // no match: added empty, then vacant
        'Lake,,200000000009,', // a thermostat of another building
        ',PM-404,,', // no match and no label
        'Unit 10,PM-9,,', // an external id another unit has
        'Unit 11,,,notice given', // recorded on the unit's page, with its day
        'Unit 12,,12345,', // not a thermostat id
      ),
    );
    expect(state).toMatchObject({
      status: 'success',
      message: '3 changed, 1 unchanged, 7 refused (see below).',
    });
    expect(state.report?.map((row) => [row.line, row.subject, row.outcome, row.detail])).toEqual([
      [2, 'Unit 1B', 'done', 'Relabelled from Unit 1A; now vacant (was occupied).'],
      [3, 'Unit 2', 'done', 'External id PM-2.'],
      [4, 'Renamed 1', 'failed', 'Line 2 already named this unit. Nothing was changed.'],
      [5, 'Unit 3', 'unchanged', 'Already so.'],
      [
        6,
        'Unit 7',
        'failed',
        'A unit is made ready once it is vacant; record the move-out first. Nothing was changed.',
      ],
      [
        7,
        'Unit 8',
        'done',
        'Added, with no thermostat, external id PM-8; now vacant (was occupied).',
      ],
      [
        8,
        'Lake',
        'failed',
        'Thermostat 200000000009 is not in this building’s portfolio: add it on the Add thermostats page first. Nothing was changed.',
      ],
      [
        9,
        'PM-404',
        'failed',
        'No unit here matches this line, and a new unit needs a label. Nothing was changed.',
      ],
      [
        10,
        'Unit 10',
        'failed',
        'External id PM-9 is already another unit’s in your organisation. Nothing was changed.',
      ],
      [
        11,
        'Unit 11',
        'failed',
        'Notice given is recorded on the unit’s page, with the move-out day; a CSV line records occupied, vacant or make-ready.',
      ],
      [12, 'Unit 12', 'failed', 'Not a thermostat id: it is 12 digits.'],
    ]);
    expect(await labelsIn(MINE)).toEqual([
      ['Unit 1B', 'PM-1', '200000000001', 'vacant'],
      ['Unit 2', 'PM-2', '200000000002', 'occupied'],
      ['Unit 3', null, '200000000003', 'occupied'],
      ['Unit 8', 'PM-8', null, 'vacant'],
    ]);
    expect((await findThermostat({ scope: owner, thermostatId: '200000000001' }))?.unitLabel).toBe(
      'Unit 1B',
    );
    expect(await labelsIn(OTHER)).toEqual([['Lake 9', 'PM-9', '200000000009', 'occupied']]);

    // The state went through the lifecycle: an event on the unit's timeline, by the manager.
    const unit = await unitOf('200000000001');
    const events = await listUnitEvents({ orgId: owner.orgId, unitId: unit.id });
    expect(
      events.map((event) => [event.event, event.fromState, event.toState, event.actorName]),
    ).toEqual([['move_out', 'occupied', 'vacant', manager.name]]);
    const created = await listActivity({ scope: owner, filter: { action: 'unit.create' } });
    expect(created.map((entry) => entry.summary)).toEqual(['Added Unit 8 to Harbor View']);

    // The same file again: what it says is so already, and the new unit is matched, not added.
    const again = await importUnitsCsv(
      MINE,
      initialFormState,
      csv('Unit 8,PM-8,,vacant', 'Unit 1B,,200000000001,make ready'),
    );
    expect(again.report?.map((row) => [row.outcome, row.detail])).toEqual([
      ['unchanged', 'Already so.'],
      ['done', 'Now make-ready (was vacant).'],
    ]);
    expect((await listUnits({ scope: owner, buildingId: MINE })).length).toBe(4);

    // A thermostat added later by the empty unit's label goes into that unit, its own spelling kept.
    await addThermostat({
      orgId: owner.orgId,
      thermostatId: '200000000008',
      buildingId: MINE,
      unitLabel: 'unit 8',
    });
    expect(await labelsIn(MINE)).toContainEqual(['Unit 8', 'PM-8', '200000000008', 'vacant']);
    expect((await listUnits({ scope: owner, buildingId: MINE })).length).toBe(4);
    expect((await findThermostat({ scope: owner, thermostatId: '200000000008' }))?.unitLabel).toBe(
      'Unit 8',
    );
  });

  it('refuses a file it cannot read, without a header, or over its limits, before any line', async () => {
    session.member = manager;
    expect(
      await importUnitsCsv(MINE, initialFormState, formOf({ csv: 'name,id\nUnit 1,1' })),
    ).toMatchObject({
      status: 'error',
      fieldErrors: {
        csv: [
          'The first row must name the columns: label, external id, thermostat id and, optionally, state.',
        ],
      },
    });
    const many = Array.from({ length: 2001 }, (_, index) => `Bulk ${index},,,`);
    expect(await importUnitsCsv(MINE, initialFormState, csv(...many))).toMatchObject({
      status: 'error',
      fieldErrors: {
        csv: ['At most 2,000 units a file: this one has 2,001. Split it; nothing was changed.'],
      },
    });
    const big = new File(['label,external id,thermostat id\n', 'x'.repeat(1024 * 1024)], 'big.csv');
    expect(await importUnitsCsv(MINE, initialFormState, formOf({ file: big }))).toMatchObject({
      status: 'error',
      fieldErrors: { file: ['That file is over 1 MB; split it.'] },
    });
    expect((await listUnits({ scope: owner, buildingId: MINE })).length).toBe(4);
  });

  it('reads line numbers as the file has them, quoted values and blank lines included', () => {
    expect(
      parseUnitsCsv('Label,External_ID,ThermostatId\n\n"Unit ""A"", east",,\n,,\nUnit B,,'),
    ).toEqual({
      lines: [
        { line: 3, label: 'Unit "A", east', externalId: null, thermostatId: null, state: null },
        { line: 5, label: 'Unit B', externalId: null, thermostatId: null, state: null },
      ],
    });
  });

  it('adds one unit on its building’s page, its external id unique, said in words', async () => {
    session.member = manager;
    const added = await addUnitAction(
      MINE,
      initialFormState,
      formOf({ label: 'Unit 20', externalId: 'PM-20' }),
    );
    expect(added).toMatchObject({
      status: 'success',
      message: expect.stringContaining('Added Unit 20'),
    });
    expect(await labelsIn(MINE)).toContainEqual(['Unit 20', 'PM-20', null, 'occupied']);
    const twice = await addUnitAction(
      MINE,
      initialFormState,
      formOf({ label: 'Unit 21', externalId: 'PM-20' }),
    );
    expect(twice).toMatchObject({
      status: 'error',
      fieldErrors: {
        externalId: ['External id PM-20 is already another unit’s in your organisation.'],
      },
    });
    expect(
      (await addUnitAction(MINE, initialFormState, formOf({ label: ' ', externalId: '' })))
        .fieldErrors?.label,
    ).toEqual(['Enter the unit’s label.']);
  });
});
