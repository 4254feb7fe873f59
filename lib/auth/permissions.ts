import type { Role } from '@/lib/db/schema';

/** The roles a member may hold, kept with the database's list: the role table's own words below. */
export { ROLES, type Role } from '@/lib/db/schema';

/**
 * Who may do what, in one table. The data layer asks `can` before any service call or write;
 * pages ask it only to decide what to offer, never as the check.
 *
 * - owner: everything, including members, owners and the connection;
 * - admin: everything but changing or removing owners (or making one);
 * - building manager: reads and changes only the buildings assigned to them and their
 *   thermostats (their bulk selections, activity and search see only those);
 * - viewer: reads, changes nothing.
 */
export type Permission =
  /** See a building, its thermostats and their settings. */
  | 'view'
  /** Change a thermostat's settings at the service (resident mode, schedule, comfort, ...). */
  | 'change_thermostat'
  /** Rename a building, create a thermostat in it, relabel or move its thermostats. */
  | 'manage_building'
  /** Record a unit's occupancy: notice, move-out, make-ready, a move-in scheduled or made. */
  | 'change_occupancy'
  /** Add thermostats (and so buildings) to the portfolio, or remove them. */
  | 'manage_portfolio'
  /** Connect, reconnect or disconnect the organisation's service account. */
  | 'manage_connection'
  /** Invite people, change members' roles and buildings, remove members (not owners). */
  | 'manage_members'
  /** Make, change or remove owners. */
  | 'manage_owners'
  /** The organisation's name and company SSO sign-up rules. */
  | 'manage_organization'
  /** Notification rules and webhooks, and every member's delivery log. */
  | 'manage_notifications'
  /** Create, change and delete templates (applying one is `change_thermostat`, in scope). */
  | 'manage_templates'
  /** Create, change and delete groups of thermostats (using one needs only its thermostats). */
  | 'manage_groups'
  /** What each occupancy state means for a unit's thermostat, for the organisation or a building. */
  | 'manage_policies'
  /** Create and revoke keys for Setpoint's own API (`/api/v1`). */
  | 'manage_api_keys';

export const PERMISSIONS: readonly Permission[] = [
  'view',
  'change_thermostat',
  'manage_building',
  'change_occupancy',
  'manage_portfolio',
  'manage_connection',
  'manage_members',
  'manage_owners',
  'manage_organization',
  'manage_notifications',
  'manage_templates',
  'manage_groups',
  'manage_policies',
  'manage_api_keys',
];

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(PERMISSIONS),
  admin: new Set(PERMISSIONS.filter((permission) => permission !== 'manage_owners')),
  building_manager: new Set(['view', 'change_thermostat', 'manage_building', 'change_occupancy']),
  viewer: new Set(['view']),
};

/** Permissions that a building manager holds only within their buildings. */
const SCOPED: ReadonlySet<Permission> = new Set([
  'view',
  'change_thermostat',
  'manage_building',
  'change_occupancy',
]);

/** What the checks need to know of a member. */
export type MemberScope = {
  role: Role;
  /** The buildings a building manager looks after; null for every other role (all buildings). */
  buildingIds: readonly string[] | null;
};

/**
 * Whether the member may do this, and, for building-scoped permissions, to this building.
 * Without a building, a scoped permission asks whether they may do it anywhere.
 */
export function can(
  member: MemberScope,
  permission: Permission,
  target?: { buildingId: string },
): boolean {
  if (!GRANTS[member.role].has(permission)) return false;
  if (member.buildingIds === null || !SCOPED.has(permission)) return true;
  return target ? member.buildingIds.includes(target.buildingId) : member.buildingIds.length > 0;
}

/** Whether `actor` may give `target` this role (or change them at all, with `role` omitted). */
export function canManageMember(actor: MemberScope, target: { role: Role }, role?: Role): boolean {
  if (!can(actor, 'manage_members')) return false;
  const touchesOwner = target.role === 'owner' || role === 'owner';
  return !touchesOwner || can(actor, 'manage_owners');
}

export const ROLE_NAMES: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  building_manager: 'Building manager',
  viewer: 'Viewer',
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'Everything, including members, owners and the service connection.',
  admin: 'Everything except changing or removing owners.',
  building_manager: 'Sees and changes only the buildings assigned to them.',
  viewer: 'Sees everything, changes nothing.',
};

/** The sentence a refused member reads: what their role cannot do, and who can. */
export function refusal(role: Role, permission: Permission): string {
  const what: Record<Permission, string> = {
    view: 'see this',
    change_thermostat: 'change thermostats',
    manage_building: 'change buildings',
    change_occupancy: 'change a unit’s occupancy',
    manage_portfolio: 'add or remove thermostats',
    manage_connection: 'connect or disconnect the service account',
    manage_members: 'manage members',
    manage_owners: 'change owners',
    manage_organization: 'change the organisation’s settings',
    manage_notifications: 'change notification rules or webhooks',
    manage_templates: 'create, change or delete templates',
    manage_groups: 'create, change or delete groups',
    manage_policies: 'change occupancy policies',
    manage_api_keys: 'create or revoke API keys',
  };
  const who = permission === 'manage_owners' ? 'an owner' : 'an owner or admin';
  return `As ${article(ROLE_NAMES[role])} ${ROLE_NAMES[role].toLowerCase()} you cannot ${what[permission]}; ask ${who}. Nothing was changed.`;
}

const article = (word: string) => (/^[AEIOU]/.test(word) ? 'an' : 'a');

/**
 * A building manager's buildings after their role's name ("of Alder House and 2 other
 * buildings"), as `reader` may read them: by name where the reader sees the building, only
 * counted where they do not, so that a building manager learns no building's name outside their
 * own (as in the activity log).
 */
export function assignedBuildingsInWords(
  buildingIds: readonly string[],
  reader: MemberScope,
  buildings: readonly { buildingId: string; name: string }[],
): string {
  if (buildingIds.length === 0) return '(no buildings yet)';
  const names = buildingIds.flatMap((buildingId) => {
    const building = buildings.find((b) => b.buildingId === buildingId);
    return building && can(reader, 'view', building) ? [building.name] : [];
  });
  const others = buildingIds.length - names.length;
  if (others === 0) return `of ${names.join(', ')}`;
  const otherWords = `${others} ${names.length > 0 ? 'other ' : ''}building${others === 1 ? '' : 's'}`;
  return `of ${names.length > 0 ? `${names.join(', ')} and ${otherWords}` : otherWords}`;
}
