import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Before anything reads the configuration: listAttention (the rules a filter must agree with)
// asks it for the freshness target.
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-groups-')),
  READINGS_TARGET_MINUTES: '5',
  NEXTAUTH_URL: 'http://localhost',
});

const { listAttention } = await import('@/lib/attention/list');
const { recordPendingMode, syncPendingModeChanges } = await import('@/lib/attention/store');
const { saveReminder } = await import('@/lib/readings/reminders');
const { askedIdsOf, inScope, selectionFromForm, thermostatsByBuilding } = await import(
  '@/lib/groups/selection'
);
const { notYours } = await import('@/lib/access/not-yours');
const { createGroup, findGroup, listGroupThermostats, listGroups, resolveGroup, setGroupMembers } =
  await import('@/lib/groups/store');
const { listActivity, recordActivity } = await import('@/lib/activity/store');
const { addThermostat, ensureBuilding } = await import('@/lib/portfolio/store');
const { saveReading } = await import('@/lib/readings/store');
const { FILTER_ATTENTION_KIND_NAMES, describeFilter, filterInputFromForm, groupFilterSchema } =
  await import('@/lib/groups/filter');
const { NAME_TAKEN, groupInputFromForm, removeGroup, saveGroupChange, saveNewGroup } = await import(
  '@/lib/groups/manage'
);
const { newGroupSchema } = await import('@/lib/groups/schema');
const { connectEveryOrganization, databaseTargets, useDatabase } = await import(
  '../support/database'
);
const { createFirstOwner, createOrganizationWithOwner, inviteAndAccept } = await import(
  '../support/members'
);

import type { DatabaseHandle } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';
import type { GroupFilter } from '@/lib/groups/filter';

/**
 * Groups on PGlite and PostgreSQL: a saved filter resolves in SQL to the thermostats the
 * needs-attention rules would name (checked against listAttention itself), by building, label
 * and status too; a group resolves only within the asking member's scope and never across
 * organisations; names are unique ignoring case; only owners and admins change groups; and
 * hand-picked thermostats must be in the member's scope.
 */

const NORTH = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const SOUTH = 'cccccccccccccccccccccccc';
const OTHER = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
const t = (n: number) => `10000000000${n}`;

const status = (_thermostatId: string, fields: Record<string, unknown> = {}) => ({
  isResidentMode: false,
  setPoint: { desiredHeat: 70, desiredCool: 76 },
  hvacMode: 'auto',
  temperature: 71,
  connected: true,
  ...fields,
});

const sorted = (ids: readonly string[] | null) => [...(ids ?? [])].sort();

describe.each(databaseTargets)('groups on $name', ({ target }) => {
  let handle: DatabaseHandle;
  let owner: Member;
  let admin: Member;
  let manager: Member;
  let viewer: Member;
  let other: Member;

  async function read(member: Member, thermostatId: string, at: Date, fields = {}) {
    const s = status(thermostatId, fields);
    await saveReading({
      orgId: member.orgId,
      thermostatId,
      status: s,
      at,
      sample: {
        temperature: s.temperature as number,
        humidity: 40,
        desiredHeat: s.setPoint.desiredHeat,
        desiredCool: s.setPoint.desiredCool,
        hvacMode: s.hvacMode as string,
        equipment: '',
        connected: s.connected as boolean,
      },
    });
  }

  /** A saved-filter group made by the owner; its id. */
  async function filterGroup(
    filter: GroupFilter,
    name = `Filter ${randomBytes(3).toString('hex')}`,
  ) {
    const group = await createGroup({ scope: owner, name, filter, updatedByName: 'Owner' });
    if (!group) throw new Error('name taken');
    return group.id;
  }
  const resolved = async (member: Member, filter: GroupFilter) =>
    sorted(await resolveGroup({ scope: member, groupId: await filterGroup(filter) }));

  beforeAll(async () => {
    handle = await useDatabase(await target());
  });
  afterAll(async () => {
    await handle.close();
  });

  beforeEach(async () => {
    await handle.db.execute(sql`truncate users, organizations cascade`);
    owner = await createFirstOwner();
    other = await createOrganizationWithOwner('other@example.com');
    for (const [member, building, name, zone, devices] of [
      [
        owner,
        NORTH,
        'North Block',
        'America/New_York',
        { 1: 'Unit 1A', 2: 'Unit 2B', 5: 'Unit 5a', 6: 'Unit 6', 8: 'Penthouse' },
      ],
      [
        owner,
        SOUTH,
        'South Block',
        'America/Phoenix',
        { 3: 'Lobby', 4: 'Unit 4A', 7: 'Unit 7 (50%)' },
      ],
      [other, OTHER, 'Elsewhere', 'America/Toronto', {}],
    ] as const) {
      await ensureBuilding({ orgId: member.orgId, buildingId: building, name, timeZone: zone });
      for (const [n, unitLabel] of Object.entries(devices)) {
        await addThermostat({
          orgId: member.orgId,
          thermostatId: t(Number(n)),
          buildingId: building,
          unitLabel,
        });
      }
    }
    // The other organisation has a thermostat of its own, freezing, labelled like ours.
    await addThermostat({
      orgId: other.orgId,
      thermostatId: '200000000001',
      buildingId: OTHER,
      unitLabel: 'Unit 1A',
    });
    admin = await inviteAndAccept(owner.orgId, 'admin@example.com', 'admin');
    manager = await inviteAndAccept(owner.orgId, 'manager@example.com', 'building_manager', [
      SOUTH,
    ]);
    viewer = await inviteAndAccept(owner.orgId, 'viewer@example.com', 'viewer');
    await connectEveryOrganization(handle);

    // 1 offline, resident mode on; 2 freezing; 3 too cold for over an hour, maintenance overdue;
    // 4 too hot for a moment only; 5 a mode change pending for half an hour; 6 a failed change;
    // 7 never read; 8 overheating.
    await read(owner, t(1), minutesAgo(1), { connected: false, isResidentMode: true });
    await read(owner, t(2), minutesAgo(1), { temperature: 40 });
    for (const minutes of [80, 40, 1])
      await read(owner, t(3), minutesAgo(minutes), { temperature: 62 });
    await saveReminder({
      orgId: owner.orgId,
      thermostatId: t(3),
      enabled: true,
      nextReminderDate: '2020-09-13',
    });
    await read(owner, t(4), minutesAgo(30), { temperature: 74 });
    await read(owner, t(4), minutesAgo(1), { temperature: 84 });
    // Setpoint asked for heat 30 minutes ago; the readings since still show cool.
    await recordPendingMode({
      orgId: owner.orgId,
      thermostatId: t(5),
      mode: 'heat',
      at: minutesAgo(30),
    });
    await read(owner, t(5), minutesAgo(1), { hvacMode: 'cool' });
    await syncPendingModeChanges();
    await read(owner, t(6), minutesAgo(1));
    await recordActivity({
      orgId: owner.orgId,
      userId: owner.userId,
      actorName: owner.name,
      action: 'schedule.update',
      thermostatId: t(6),
      buildingId: NORTH,
      summary: 'Schedule',
      outcome: 'failure',
      error: 'conflict',
    });
    await read(owner, t(8), minutesAgo(1), { temperature: 95 });
    await read(other, '200000000001', minutesAgo(1), { temperature: 40 });
  });

  it('a filter by needs-attention kind names the thermostats the needs-attention rules do', async () => {
    const items = (await listAttention({ scope: owner })).items;
    const expected = (member: Member, kind: string) => {
      const inScope = (id: string | null) =>
        member.buildingIds === null || [t(3), t(4), t(7)].includes(id ?? '');
      return sorted(
        items
          .filter((item) =>
            kind === 'maintenance' ? item.kind.startsWith('maintenance') : item.kind === kind,
          )
          .flatMap((item) =>
            item.thermostatId && inScope(item.thermostatId) ? [item.thermostatId] : [],
          ),
      );
    };
    const seen: Record<string, string[]> = {};
    for (const kind of FILTER_ATTENTION_KIND_NAMES) {
      const id = await filterGroup({ attention: [kind] });
      seen[kind] = sorted(await resolveGroup({ scope: owner, groupId: id }));
      expect(seen[kind], kind).toEqual(expected(owner, kind));
      expect(sorted(await resolveGroup({ scope: manager, groupId: id })), kind).toEqual(
        expected(manager, kind),
      );
    }
    // The fixture has one thermostat of every kind (none for "too hot": a moment is not enough).
    expect(seen).toEqual({
      freeze: [t(2)],
      overheat: [t(8)],
      too_cold: [t(3)],
      too_hot: [],
      offline: [t(1)],
      mode_pending: [t(5)],
      failed_writes: [t(6)],
      maintenance: [t(3)],
    });
    // Any of several kinds.
    expect(await resolved(owner, { attention: ['freeze', 'overheat'] })).toEqual([t(2), t(8)]);
  });

  it('filters by building, label (ignoring case, as typed) and status, all together', async () => {
    expect(await resolved(owner, { buildingIds: [SOUTH] })).toEqual([t(3), t(4), t(7)]);
    expect(await resolved(owner, { label: 'UNIT 1' })).toEqual([t(1)]);
    expect(await resolved(owner, { label: 'unit 5' })).toEqual([t(5)]);
    // LIKE's wildcards are text like any other.
    expect(await resolved(owner, { label: '%' })).toEqual([t(7)]);
    expect(await resolved(owner, { label: '_' })).toEqual([]);
    expect(await resolved(owner, { connection: 'offline' })).toEqual([t(1)]);
    expect(await resolved(owner, { connection: 'unread' })).toEqual([t(7)]);
    expect(await resolved(owner, { connection: 'online' })).toEqual([2, 3, 4, 5, 6, 8].map(t));
    expect(await resolved(owner, { resident: 'on' })).toEqual([t(1)]);
    expect((await resolved(owner, { resident: 'off' })).length).toBe(6);
    expect(await resolved(owner, { buildingIds: [NORTH], label: 'unit', resident: 'off' })).toEqual(
      [t(2), t(5), t(6)],
    );
    expect(
      await resolved(owner, { buildingIds: [NORTH, SOUTH], attention: ['freeze', 'too_cold'] }),
    ).toEqual([t(2), t(3)]);
  });

  it('resolves a group only within the member’s scope, and never in another organisation', async () => {
    const picked = await createGroup({
      scope: owner,
      name: 'Mixed',
      filter: null,
      thermostatIds: [t(1), t(3)],
      updatedByName: 'Owner',
    });
    if (!picked) throw new Error('not created');
    // In natural unit order: Lobby, then Unit 1A.
    expect(await resolveGroup({ scope: owner, groupId: picked.id })).toEqual([t(3), t(1)]);
    expect(await resolveGroup({ scope: viewer, groupId: picked.id })).toEqual([t(3), t(1)]);
    expect(await resolveGroup({ scope: manager, groupId: picked.id })).toEqual([t(3)]);
    expect(
      await resolveGroup({ scope: { ...manager, buildingIds: [] }, groupId: picked.id }),
    ).toEqual([]);
    // Another organisation cannot see it, use it or list it, even with the id.
    expect(await resolveGroup({ scope: other, groupId: picked.id })).toBeNull();
    expect(await findGroup({ scope: other, groupId: picked.id })).toBeNull();
    expect(await listGroups({ scope: other })).toEqual([]);
    // A filter group of another organisation's building matches nothing of ours, and ours
    // nothing of theirs.
    const freezing = await filterGroup({ attention: ['freeze'] });
    expect(await resolveGroup({ scope: owner, groupId: freezing })).toEqual([t(2)]);
    expect(await resolveGroup({ scope: manager, groupId: freezing })).toEqual([]);
    // Ids that cannot be a group's are no group, not an error.
    for (const groupId of ['nope', '', 42, null, `${picked.id}x`]) {
      expect(await resolveGroup({ scope: owner, groupId })).toBeNull();
    }

    const counts = async (member: Member) =>
      Object.fromEntries((await listGroups({ scope: member })).map((g) => [g.name, g.count]));
    expect((await counts(owner)).Mixed).toBe(2);
    expect((await counts(manager)).Mixed).toBe(1);
    expect(
      (await listGroupThermostats({ scope: manager, group: picked })).map((row) => [
        row.thermostatId,
        row.buildingName,
      ]),
    ).toEqual([[t(3), 'South Block']]);
    expect(await listGroupThermostats({ scope: other, group: picked })).toEqual([]);

    // Members are set within the scope only: the manager's set keeps the owner's North pick.
    expect(
      await setGroupMembers({
        scope: manager,
        groupId: picked.id,
        thermostatIds: [t(4), '200000000001'],
      }),
    ).toBe(true);
    expect(await resolveGroup({ scope: owner, groupId: picked.id })).toEqual([t(1), t(4)]);
  });

  it('expands posted groups in a selection, within the member’s scope', async () => {
    const picked = await saveNewGroup({
      member: owner,
      input: { kind: 'picked', name: 'Both blocks', thermostatIds: [t(2), t(4)] },
    });
    if (!picked.ok) throw new Error(picked.state.message);
    const form = (entries: [string, string][]) => {
      const data = new FormData();
      for (const [name, value] of entries) data.append(name, value);
      return data;
    };
    expect(
      await selectionFromForm(
        owner,
        form([
          ['thermostatIds', t(1)],
          ['groupIds', picked.group.id],
        ]),
      ),
    ).toEqual({ ok: true, ids: [t(1), t(2), t(4)] });
    expect(await selectionFromForm(manager, form([['groupIds', picked.group.id]]))).toEqual({
      ok: true,
      ids: [t(4)],
    });
    // A select's "no group" posts ''.
    expect(await selectionFromForm(owner, form([['groupIds', '']]))).toEqual({ ok: true, ids: [] });
    for (const member of [other]) {
      expect(await selectionFromForm(member, form([['groupIds', picked.group.id]]))).toEqual({
        ok: false,
        message: notYours('group'),
      });
    }
    expect(await selectionFromForm(owner, form([['groupIds', 'x']]))).toEqual({
      ok: false,
      message: notYours('group'),
    });
    const file = new FormData();
    file.append('groupIds', new Blob(['x']));
    expect((await selectionFromForm(owner, file)).ok).toBe(false);
  });

  it('keeps names unique in an organisation, ignoring case', async () => {
    const first = await saveNewGroup({
      member: owner,
      input: { kind: 'filter', name: 'Cold ones', filter: { attention: ['freeze', 'too_cold'] } },
    });
    expect(first.ok).toBe(true);
    const again = await saveNewGroup({
      member: admin,
      input: { kind: 'picked', name: '  COLD ONES ', thermostatIds: [t(1)] },
    });
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.state.fieldErrors?.name).toEqual([NAME_TAKEN]);
    // Another organisation may use the name.
    expect(
      (
        await saveNewGroup({
          member: other,
          input: { kind: 'filter', name: 'cold ones', filter: { resident: 'on' } },
        })
      ).ok,
    ).toBe(true);

    const second = await saveNewGroup({
      member: owner,
      input: { kind: 'picked', name: 'Lobby', thermostatIds: [t(3)] },
    });
    if (!second.ok || !first.ok) throw new Error('not created');
    const renamed = await saveGroupChange({
      member: owner,
      groupId: second.group.id,
      input: { name: 'cold ONES', thermostatIds: [t(3)] },
    });
    expect(renamed.ok).toBe(false);
    if (!renamed.ok) expect(renamed.state.fieldErrors?.name).toEqual([NAME_TAKEN]);
    // A group may change the case of its own name.
    const recased = await saveGroupChange({
      member: owner,
      groupId: first.group.id,
      input: { name: 'COLD ones', filter: { attention: ['freeze'] } },
    });
    expect(recased.ok && recased.group.name).toBe('COLD ones');
    expect(recased.ok && recased.count).toBe(1);
  });

  it('lets only owners and admins create, change or delete groups; everyone may use them', async () => {
    const made = await saveNewGroup({
      member: admin,
      input: { kind: 'picked', name: 'Admin’s', thermostatIds: [t(3)] },
    });
    if (!made.ok) throw new Error(made.state.message);
    for (const member of [manager, viewer]) {
      const created = await saveNewGroup({
        member,
        input: { kind: 'picked', name: 'Mine', thermostatIds: [t(3)] },
      });
      expect(created.ok).toBe(false);
      if (!created.ok)
        expect(created.state.message).toMatch(/cannot create, change or delete groups/);
      const changed = await saveGroupChange({
        member,
        groupId: made.group.id,
        input: { name: 'Renamed', thermostatIds: [t(3), t(4)] },
      });
      expect(changed.ok).toBe(false);
      const removed = await removeGroup({ member, groupId: made.group.id });
      expect(removed.ok).toBe(false);
      expect(await resolveGroup({ scope: member, groupId: made.group.id })).toEqual([t(3)]);
    }
    expect((await findGroup({ scope: owner, groupId: made.group.id }))?.name).toBe('Admin’s');
    expect((await listGroups({ scope: owner })).map((g) => g.name)).toEqual(['Admin’s']);

    // Another organisation's owner cannot reach it either.
    expect(await removeGroup({ member: other, groupId: made.group.id })).toEqual({
      ok: false,
      reason: 'not_found',
      message: notYours('group'),
    });
    const removed = await removeGroup({ member: owner, groupId: made.group.id });
    expect(removed.ok).toBe(true);
    expect(await resolveGroup({ scope: owner, groupId: made.group.id })).toBeNull();

    const entries = await listActivity({ scope: owner });
    expect(
      entries.filter((e) => e.action.startsWith('group.')).map((e) => [e.action, e.summary]),
    ).toEqual([
      ['group.delete', 'Deleted the group “Admin’s”'],
      ['group.create', 'Created the group “Admin’s” (hand-picked, 1 thermostat)'],
    ]);
  });

  it('refuses hand-picked thermostats outside the member’s scope and malformed input', async () => {
    const outside = await saveNewGroup({
      member: owner,
      input: { kind: 'picked', name: 'Stolen', thermostatIds: [t(1), '200000000001'] },
    });
    expect(outside.ok).toBe(false);
    if (!outside.ok) {
      expect(outside.state.fieldErrors?.thermostatIds?.[0]).toMatch(/not in your portfolio/);
    }
    const unknown = await saveNewGroup({
      member: owner,
      input: { kind: 'picked', name: 'Ghost', thermostatIds: ['999999999999'] },
    });
    expect(unknown.ok).toBe(false);
    const malformed = await saveNewGroup({
      member: owner,
      input: { kind: 'picked', name: '', thermostatIds: ['abc'] },
    });
    expect(malformed.ok).toBe(false);
    if (!malformed.ok) {
      expect(Object.keys(malformed.state.fieldErrors ?? {}).sort()).toEqual([
        'name',
        'thermostatIds',
      ]);
    }
    const empty = await saveNewGroup({
      member: owner,
      input: { kind: 'filter', name: 'All', filter: {} },
    });
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.state.fieldErrors?.filter?.[0]).toMatch(/at least one condition/);
    const foreignBuilding = await saveNewGroup({
      member: owner,
      input: { kind: 'filter', name: 'Theirs', filter: { buildingIds: [OTHER] } },
    });
    expect(foreignBuilding.ok).toBe(false);
    if (!foreignBuilding.ok) expect(foreignBuilding.state.fieldErrors?.buildingIds).toBeDefined();
    const badFilter = await saveNewGroup({
      member: owner,
      input: {
        kind: 'filter',
        name: 'Bad',
        filter: { label: 'x', colour: 'red', connection: 'maybe' },
      },
    });
    expect(badFilter.ok).toBe(false);
    expect(await listGroups({ scope: owner })).toEqual([]);
  });

  it('reads the forms as posted, with or without JavaScript', async () => {
    const form = new FormData();
    for (const [name, value] of [
      ['kind', 'filter'],
      ['name', 'North cold'],
      ['buildingIds', NORTH],
      ['label', '  '],
      ['connection', ''],
      ['resident', 'off'],
      ['attention', 'freeze'],
      ['attention', 'too_cold'],
      ['allIn', SOUTH],
    ]) {
      form.append(name as string, value as string);
    }
    const read = await groupInputFromForm(owner, form);
    if (!read.ok) throw new Error(read.message);
    expect(read.input).toEqual({
      kind: 'filter',
      name: 'North cold',
      thermostatIds: [t(3), t(4), t(7)],
      filter: { buildingIds: [NORTH], resident: 'off', attention: ['freeze', 'too_cold'] },
    });
    const parsed = newGroupSchema.parse(read.input);
    expect(parsed).toEqual({
      kind: 'filter',
      name: 'North cold',
      filter: { buildingIds: [NORTH], resident: 'off', attention: ['freeze', 'too_cold'] },
    });
    expect(filterInputFromForm(new FormData())).toEqual({});
  });
});

describe('what a selection form offers and ticks', () => {
  const thermostats = [
    { thermostatId: 't1', buildingId: 'b1', unitLabel: 'Unit 1' },
    { thermostatId: 't2', buildingId: 'b2', unitLabel: 'Unit 2' },
    { thermostatId: 't3', buildingId: 'b1', unitLabel: '' },
  ];
  it('lists each building with its thermostats, in the order given', () => {
    const buildings = [
      { buildingId: 'b2', name: 'South' },
      { buildingId: 'b1', name: 'North' },
      { buildingId: 'b3', name: 'Empty' },
    ];
    expect(thermostatsByBuilding(buildings, thermostats)).toEqual([
      { buildingId: 'b2', name: 'South', thermostats: [{ thermostatId: 't2', label: 'Unit 2' }] },
      {
        buildingId: 'b1',
        name: 'North',
        thermostats: [
          { thermostatId: 't1', label: 'Unit 1' },
          { thermostatId: 't3', label: '' },
        ],
      },
      { buildingId: 'b3', name: 'Empty', thermostats: [] },
    ]);
  });
  it('ticks only the asked thermostats in scope, once or repeated in the address', () => {
    expect([...askedIdsOf(undefined)]).toEqual([]);
    expect([...askedIdsOf('t2')]).toEqual(['t2']);
    expect(inScope(thermostats, askedIdsOf(['t3', 'elsewhere', 't1']))).toEqual(['t1', 't3']);
  });
});

describe('group filters in words', () => {
  const names = (id: string) => ({ [NORTH]: 'North Block', [SOUTH]: 'South Block' })[id];
  it('says every condition', () => {
    expect(
      describeFilter(
        groupFilterSchema.parse({
          buildingIds: [NORTH, SOUTH, OTHER],
          label: 'Unit',
          connection: 'offline',
          resident: 'on',
          attention: ['freeze', 'too_cold', 'maintenance'],
        }),
        names,
      ),
    ).toBe(
      'In North Block, South Block or a removed building; label contains “Unit”; offline; resident mode on; needs attention for freeze risk, too cold or maintenance due',
    );
    expect(describeFilter({ connection: 'unread' }, names)).toBe('Not read');
  });

  it('is strict: unknown keys, empty filters and unknown kinds are refused', () => {
    expect(groupFilterSchema.safeParse({}).success).toBe(false);
    expect(groupFilterSchema.safeParse({ label: 'a', extra: 1 }).success).toBe(false);
    expect(groupFilterSchema.safeParse({ attention: ['stale'] }).success).toBe(false);
    expect(groupFilterSchema.safeParse({ buildingIds: ['nope'] }).success).toBe(false);
    expect(groupFilterSchema.parse({ label: '  4B ' })).toEqual({ label: '4B' });
  });
});

describe('group forms, as served before any JavaScript runs', () => {
  const buildings = [
    {
      buildingId: NORTH,
      name: 'North Block',
      thermostats: [
        { thermostatId: t(1), label: 'Unit 1A' },
        { thermostatId: t(2), label: 'Unit 2B' },
      ],
    },
  ];
  const names = (html: string) =>
    [...new Set([...html.matchAll(/\sname="([^"]+)"/g)].map((match) => match[1]))].sort();

  it('offers both kinds of a new group, every field named as the actions read them', async () => {
    const { createElement } = await import('react');
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { GroupForm } = await import('@/components/groups/group-form');
    const html = renderToStaticMarkup(
      createElement(GroupForm, {
        action: async () => ({ status: 'idle' as const }),
        kinds: 'choose',
        buildings,
        submit: 'Create group',
        pending: 'Creating…',
        label: 'New group',
      }),
    );
    expect(names(html)).toEqual([
      'allIn',
      'attention',
      'buildingIds',
      'connection',
      'kind',
      'label',
      'name',
      'resident',
      'thermostatIds',
    ]);
    // Without JavaScript neither part is hidden: the kind chosen says which counts.
    expect(html).not.toMatch(/<div hidden/);
    expect(html).toContain('aria-label="New group"');
    // A group's own form offers only its kind's part.
    const edit = (kinds: 'picked' | 'filter') =>
      names(
        renderToStaticMarkup(
          createElement(GroupForm, {
            action: async () => ({ status: 'idle' as const }),
            kinds,
            buildings,
            submit: 'Save changes',
            pending: 'Saving…',
            label: 'Change it',
          }),
        ),
      );
    expect(edit('picked')).toEqual(['allIn', 'name', 'thermostatIds']);
    expect(edit('filter')).toEqual([
      'attention',
      'buildingIds',
      'connection',
      'label',
      'name',
      'resident',
    ]);
  });

  it('lets the picker post groups, ticked when all their thermostats are', async () => {
    const { createElement } = await import('react');
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { ThermostatPicker } = await import('@/components/bulk/thermostat-picker');
    const html = renderToStaticMarkup(
      createElement(ThermostatPicker, {
        buildings,
        selected: new Set([t(1)]),
        onChange: () => {},
        groups: [
          { groupId: 'g-one', name: 'Just one', thermostatIds: [t(1)] },
          { groupId: 'g-both', name: 'Both', thermostatIds: [t(1), t(2)] },
          { groupId: 'g-none', name: 'Elsewhere', thermostatIds: [] },
        ],
      }),
    );
    expect(names(html)).toEqual(['allIn', 'groupIds', 'thermostatIds']);
    const box = (id: string) => html.match(new RegExp(`<input[^>]*value="${id}"[^>]*>`))?.[0] ?? '';
    expect(box('g-one')).toContain('checked');
    // Rendered, so that "not checked" cannot pass for a box that is missing.
    expect(box('g-both')).toMatch(/^<input/);
    expect(box('g-both')).not.toContain('checked');
    expect(box('g-none')).toContain('disabled');
    // Without groups, no chooser: the templates form gets the picker as it was.
    const plain = renderToStaticMarkup(
      createElement(ThermostatPicker, {
        buildings,
        selected: new Set<string>(),
        onChange: () => {},
      }),
    );
    expect(names(plain)).toEqual(['allIn', 'thermostatIds']);
  });
});
