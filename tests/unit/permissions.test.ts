import { describe, expect, it } from 'vitest';
import {
  assignedBuildingsInWords,
  can,
  canManageMember,
  type MemberScope,
  PERMISSIONS,
  type Permission,
  refusal,
} from '@/lib/auth/permissions';
import { ROLES, type Role } from '@/lib/db/schema';

const Y = true;
const N = false;

/**
 * The rules of docs/architecture.md ("Organisations, members and roles") and
 * lib/auth/permissions.ts, written out: one line per permission, one column per role and, for a
 * building manager, per scope. Columns: owner, admin, viewer (all with every building), then a
 * building manager asked about one of their buildings, about a building not theirs, without a
 * building (may they anywhere?), and a building manager with no buildings (with or without a
 * building).
 */
const RULES: Record<Permission, [boolean, boolean, boolean, boolean, boolean, boolean, boolean]> = {
  // [owner, admin, viewer, manager inside, manager outside, manager anywhere, manager of none]
  view: [Y, Y, Y, Y, N, Y, N],
  change_thermostat: [Y, Y, N, Y, N, Y, N],
  manage_building: [Y, Y, N, Y, N, Y, N],
  change_occupancy: [Y, Y, N, Y, N, Y, N],
  manage_portfolio: [Y, Y, N, N, N, N, N],
  manage_connection: [Y, Y, N, N, N, N, N],
  manage_members: [Y, Y, N, N, N, N, N],
  manage_owners: [Y, N, N, N, N, N, N],
  manage_organization: [Y, Y, N, N, N, N, N],
  manage_notifications: [Y, Y, N, N, N, N, N],
  manage_templates: [Y, Y, N, N, N, N, N],
  manage_groups: [Y, Y, N, N, N, N, N],
  manage_policies: [Y, Y, N, N, N, N, N],
  manage_api_keys: [Y, Y, N, N, N, N, N],
};

const MINE = 'aaaaaaaaaaaaaaaaaaaaaaa1';
const OTHER = 'bbbbbbbbbbbbbbbbbbbbbbb2';

type Row = {
  role: Role;
  permission: Permission;
  scope: string;
  member: MemberScope;
  target: { buildingId: string } | undefined;
  allowed: boolean;
};

const rows: Row[] = (Object.keys(RULES) as Permission[]).flatMap((permission) => {
  const [owner, admin, viewer, inside, outside, anywhere, none] = RULES[permission];
  const everyBuilding = (role: Role, allowed: boolean): Row[] => [
    {
      role,
      permission,
      scope: 'a building',
      member: { role, buildingIds: null },
      target: { buildingId: OTHER },
      allowed,
    },
    {
      role,
      permission,
      scope: 'no building',
      member: { role, buildingIds: null },
      target: undefined,
      allowed,
    },
  ];
  const manager = (buildingIds: string[]) => ({ role: 'building_manager' as const, buildingIds });
  return [
    ...everyBuilding('owner', owner),
    ...everyBuilding('admin', admin),
    ...everyBuilding('viewer', viewer),
    {
      role: 'building_manager',
      permission,
      scope: 'their building',
      member: manager([OTHER, MINE]),
      target: { buildingId: MINE },
      allowed: inside,
    },
    {
      role: 'building_manager',
      permission,
      scope: 'a building not theirs',
      member: manager([MINE]),
      target: { buildingId: OTHER },
      allowed: outside,
    },
    {
      role: 'building_manager',
      permission,
      scope: 'no building (anywhere)',
      member: manager([MINE]),
      target: undefined,
      allowed: anywhere,
    },
    {
      role: 'building_manager',
      permission,
      scope: 'a building, having none',
      member: manager([]),
      target: { buildingId: MINE },
      allowed: none,
    },
    {
      role: 'building_manager',
      permission,
      scope: 'no building, having none',
      member: manager([]),
      target: undefined,
      allowed: none,
    },
  ];
});

describe('can', () => {
  it('has a rule for every permission and every role', () => {
    expect(Object.keys(RULES).sort()).toEqual([...PERMISSIONS].sort());
    expect(new Set(rows.map((row) => row.role))).toEqual(new Set(ROLES));
  });

  it.each(rows)(
    '$role, $permission, $scope: $allowed',
    ({ member, permission, target, allowed }) => {
      expect(can(member, permission, target)).toBe(allowed);
    },
  );
});

type ManageRow = { actor: Role; target: Role; role: Role | undefined; allowed: boolean };

/**
 * Owners may change anyone into anything; admins anyone but an owner, into anything but an
 * owner; building managers and viewers no one.
 */
const manageRows: ManageRow[] = ROLES.flatMap((actor) =>
  ROLES.flatMap((target) =>
    [undefined, ...ROLES].map((role) => ({
      actor,
      target,
      role,
      allowed: actor === 'owner' || (actor === 'admin' && target !== 'owner' && role !== 'owner'),
    })),
  ),
);

describe('canManageMember', () => {
  it.each(manageRows)(
    '$actor changing a $target into $role: $allowed',
    ({ actor, target, role, allowed }) => {
      expect(canManageMember({ role: actor, buildingIds: null }, { role: target }, role)).toBe(
        allowed,
      );
    },
  );

  it.each([
    ['an owner', 'owner' as const, false],
    ['an admin', 'admin' as const, true],
    ['a viewer', 'viewer' as const, true],
  ])('an admin may change %s: %s', (_, target, allowed) => {
    expect(canManageMember({ role: 'admin', buildingIds: null }, { role: target })).toBe(allowed);
  });

  it('gives a building manager no say over members, even of their buildings', () => {
    const manager = { role: 'building_manager' as const, buildingIds: [MINE] };
    expect(canManageMember(manager, { role: 'viewer' }, 'viewer')).toBe(false);
  });
});

const ARTICLE_AND_NAME: Record<Role, string> = {
  owner: 'As an owner',
  admin: 'As an admin',
  building_manager: 'As a building manager',
  viewer: 'As a viewer',
};

describe('refusal', () => {
  const refusals = ROLES.flatMap((role) => PERMISSIONS.map((permission) => ({ role, permission })));

  it.each(refusals)(
    '$role refused $permission: names the role, nothing changed',
    ({ role, permission }) => {
      const sentence = refusal(role, permission);
      expect(sentence.startsWith(`${ARTICLE_AND_NAME[role]} you cannot `)).toBe(true);
      expect(sentence.endsWith('Nothing was changed.')).toBe(true);
      expect(sentence).toContain(
        permission === 'manage_owners' ? 'ask an owner.' : 'ask an owner or admin.',
      );
    },
  );

  it('says what was refused', () => {
    expect(refusal('viewer', 'change_thermostat')).toBe(
      'As a viewer you cannot change thermostats; ask an owner or admin. Nothing was changed.',
    );
    expect(refusal('admin', 'manage_owners')).toBe(
      'As an admin you cannot change owners; ask an owner. Nothing was changed.',
    );
  });

  it('says something different for every permission', () => {
    const sentences = new Set(PERMISSIONS.map((permission) => refusal('viewer', permission)));
    expect(sentences.size).toBe(PERMISSIONS.length);
  });
});

describe('assignedBuildingsInWords', () => {
  const buildings = [
    { buildingId: 'a', name: 'Alder House' },
    { buildingId: 'b', name: 'Birch Court' },
    { buildingId: 'c', name: 'Cedar Lofts' },
  ];
  const managerOfA: MemberScope = { role: 'building_manager', buildingIds: ['a'] };

  it('names every building to a member who sees them all', () => {
    for (const role of ['owner', 'admin', 'viewer'] as const) {
      expect(assignedBuildingsInWords(['a', 'b'], { role, buildingIds: null }, buildings)).toBe(
        'of Alder House, Birch Court',
      );
    }
  });

  it('tells a building manager another manager’s buildings by count outside their own', () => {
    expect(assignedBuildingsInWords(['a', 'b', 'c'], managerOfA, buildings)).toBe(
      'of Alder House and 2 other buildings',
    );
    expect(assignedBuildingsInWords(['b'], managerOfA, buildings)).toBe('of 1 building');
    expect(assignedBuildingsInWords(['a'], managerOfA, buildings)).toBe('of Alder House');
  });

  it('says when a manager has no buildings yet', () => {
    expect(assignedBuildingsInWords([], managerOfA, buildings)).toBe('(no buildings yet)');
  });
});
