import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// Column sets and keys that several tables share. Each call makes new column builders, so every
// table gets its own columns; the SQL is the same as writing them out.

/** When the row was made. */
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** The organisation a row belongs to; the row goes with it. */
const organizationId = () =>
  uuid('org_id')
    .notNull()
    .references((): AnyPgColumn => organizations.id, { onDelete: 'cascade' });

/** A background read's last attempt: when it was made, good or not, and why it failed. */
const lastAttempt = () => ({
  /** When the last attempt was made, good or not. */
  triedAt: timestamp('tried_at', { withTimezone: true }).notNull(),
  /** Why the last attempt failed (a ServiceError kind); null when it did not. */
  failure: text('failure'),
});

/** The key of a row kept per thermostat: one row each, gone when it leaves the portfolio. */
const thermostatRowKey = (table: { orgId: AnyPgColumn; thermostatId: AnyPgColumn }) =>
  [
    primaryKey({ columns: [table.orgId, table.thermostatId] }),
    foreignKey({
      columns: [table.orgId, table.thermostatId],
      foreignColumns: [thermostats.orgId, thermostats.thermostatId],
    }).onDelete('cascade'),
  ] as const;

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Stored lower-cased; unique. */
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  /** argon2id PHC string; null for accounts that only sign in through company SSO. */
  passwordHash: text('password_hash'),
  /** How this manager reads temperatures; the service always speaks Fahrenheit. */
  temperatureUnit: text('temperature_unit', { enum: ['F', 'C'] })
    .notNull()
    .default('F'),
  /**
   * The IANA zone this member reads organisation-wide pages in (the activity log, needs
   * attention ...); null until chosen. A thermostat's own events are in its building's zone.
   */
  timeZone: text('time_zone'),
  createdAt: createdAt(),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
});

export const ROLES = ['owner', 'admin', 'building_manager', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * A property-management company. It owns the portfolio, the one service connection its members
 * act through, and the activity log. One deployment may hold several; none sees another's rows.
 */
export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /**
     * Company SSO may create a member for an uninvited email of this domain (lower-case, no `@`),
     * with `ssoDefaultRole`. Null: SSO signs in invited members only.
     */
    ssoDomain: text('sso_domain'),
    ssoDefaultRole: text('sso_default_role', { enum: ['admin', 'building_manager', 'viewer'] }),
    /** How long before a scheduled move-in its unit's thermostat is put in its occupied comfort. */
    moveInLeadMinutes: integer('move_in_lead_minutes').notNull().default(240),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('organizations_sso_domain_idx').on(table.ssoDomain)],
);

/** A person's place in an organisation: one organisation per person, with a role. */
export const memberships = pgTable(
  'memberships',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: organizationId(),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('memberships_org_idx').on(table.orgId)],
);

/** The buildings a building manager looks after; other roles have no rows here. */
export const memberBuildings = pgTable(
  'member_buildings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => memberships.userId, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull(),
    buildingId: text('building_id').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.buildingId] }),
    foreignKey({
      columns: [table.orgId, table.buildingId],
      foreignColumns: [buildings.orgId, buildings.buildingId],
    }).onDelete('cascade'),
  ],
);

/**
 * An invitation to join an organisation: a single-use link that expires. Only a hash of its
 * token is kept, so a database dump cannot be used to join.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: organizationId(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    role: text('role', { enum: ROLES }).notNull(),
    /** For a building manager: the buildings they will look after. */
    buildingIds: jsonb('building_ids').$type<string[]>().notNull().default([]),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    invitedByName: text('invited_by_name').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('invitations_org_idx').on(table.orgId, table.createdAt)],
);

/**
 * One row per signed-in browser session. The next-auth JWT carries the row id, and the data
 * layer checks the row on every request, so signing out (or revoking) ends the session for real
 * even if a copy of the cookie survives.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/**
 * A link to choose a new password, sent by email (or issued by `npm run password:reset` on a
 * deployment without email): only its hash is kept; it works once, for 30 minutes, and using it
 * ends every session of the account.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('password_resets_user_idx').on(table.userId)],
);

/** Every password sign-in attempt, for throttling per account and per client. */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    client: text('client').notNull(),
    succeeded: boolean('succeeded').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (table) => [
    index('sign_in_attempts_email_idx').on(table.email, table.createdAt),
    index('sign_in_attempts_client_idx').on(table.client, table.createdAt),
  ],
);

/**
 * An organisation's connection to the thermostat service, used by every member's requests.
 * Tokens are sealed (lib/service/connection/vault.ts) and stored as unbounded text: JWT access tokens reach
 * about 7 KB.
 */
export const serviceConnections = pgTable('service_connections', {
  id: uuid('id').primaryKey().defaultRandom(),
  orgId: uuid('org_id')
    .notNull()
    .unique()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** Who connected it (kept by name too, should they leave). */
  connectedBy: uuid('connected_by').references(() => users.id, { onDelete: 'set null' }),
  connectedByName: text('connected_by_name').notNull().default(''),
  /** The service account, where the service says (a JWT access token's claims). */
  accountId: text('account_id'),
  accountName: text('account_name'),
  /** `active`, or `reconnect` once the service refused the refresh token. */
  status: text('status', { enum: ['active', 'reconnect'] }).notNull(),
  scope: text('scope').notNull(),
  tokenType: text('token_type').notNull(),
  /** `jwt` or `opaque`, as the access token looked when issued. */
  tokenFormat: text('token_format', { enum: ['jwt', 'opaque'] }).notNull(),
  accessTokenSealed: text('access_token_sealed').notNull(),
  accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }).notNull(),
  refreshTokenSealed: text('refresh_token_sealed').notNull(),
  refreshTokenIssuedAt: timestamp('refresh_token_issued_at', { withTimezone: true }).notNull(),
  refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }).notNull(),
  connectedAt: timestamp('connected_at', { withTimezone: true }).notNull(),
  lastRefreshedAt: timestamp('last_refreshed_at', { withTimezone: true }),
  /** A short, secret-free reason for the last refresh failure, for the server's records. */
  lastError: text('last_error'),
  /**
   * Why the connection needs reconnecting (null while it is active): the service refused the
   * refresh token, or the stored tokens can no longer be unsealed. lib/service/connection/ended.ts words it.
   */
  endedReason: text('ended_reason', { enum: ['refresh_refused', 'tokens_unreadable'] }),
});

/**
 * Authorization requests in flight. The browser holds the state in a sealed cookie; this row
 * makes it single-use across every app instance (the first callback consumes it).
 */
export const oauthStates = pgTable('oauth_states', {
  /** SHA-256 of the state, so a database dump cannot be replayed. */
  stateHash: text('state_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});

/**
 * The manager's portfolio. The service has no endpoint that lists buildings or thermostats, so
 * Setpoint keeps them: ids are the service's, names and addresses are the manager's.
 */
export const buildings = pgTable(
  'buildings',
  {
    orgId: organizationId(),
    /** The service's building id: 24 lowercase hex characters. */
    buildingId: text('building_id').notNull(),
    name: text('name').notNull(),
    /** IANA time zone; schedules are in the building's local time. */
    timeZone: text('time_zone').notNull(),
    address: text('address').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.buildingId] })],
);

export const thermostats = pgTable(
  'thermostats',
  {
    orgId: organizationId(),
    /** The device serial: a 12-digit numeric string. */
    thermostatId: text('thermostat_id').notNull(),
    buildingId: text('building_id').notNull(),
    /** The manager's label, e.g. "Unit 4B". */
    unitLabel: text('unit_label').notNull().default(''),
    /** A move to this building is in flight: a second move waits for it instead of racing it. */
    movingTo: text('moving_to'),
    createdAt: createdAt(),
    /**
     * The label (or the id, when there is none) as a natural sort key: "Unit 101" before
     * "Unit 1001". Kept by the database (migration 0008 defines `natural_sort_key`), so no
     * write path can forget it; compare it with `collate "C"`.
     */
    unitSortKey: text('unit_sort_key').generatedAlwaysAs(
      sql`natural_sort_key(case when unit_label = '' then thermostat_id else unit_label end)`,
    ),
  },
  (table) => [
    primaryKey({ columns: [table.orgId, table.thermostatId] }),
    index('thermostats_building_idx').on(table.orgId, table.buildingId),
  ],
);

/**
 * A unit of a building (an apartment, an office): what a property manager thinks in. It holds at
 * most one thermostat at a time; a thermostat added to the portfolio comes in a unit of its own,
 * labelled as the thermostat is. `external_id` is the property-management system's id of the
 * unit. Its occupancy is the units feature's (`unit_occupancy`).
 */
export const units = pgTable(
  'units',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: organizationId(),
    buildingId: text('building_id').notNull(),
    label: text('label').notNull(),
    externalId: text('external_id'),
    /**
     * The thermostat in the unit now; null once it left and before another takes its place. Its
     * key to `thermostats` (ON DELETE SET NULL (thermostat_id), keeping org_id) is written in
     * migration 0020's SQL: drizzle cannot say it, so never drop it with `drizzle-kit push`.
     */
    thermostatId: text('thermostat_id'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('units_thermostat_idx').on(table.orgId, table.thermostatId),
    uniqueIndex('units_external_id_idx').on(table.orgId, table.externalId),
    index('units_building_idx').on(table.orgId, table.buildingId),
  ],
);

/**
 * Which thermostat was in a unit when: a period per thermostat, open (`until_at` null) for the one
 * in it now. A unit's history is its thermostats' readings, each within its period, so a
 * replacement continues the chart rather than starting it again.
 */
export const unitThermostats = pgTable(
  'unit_thermostats',
  {
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    orgId: organizationId(),
    thermostatId: text('thermostat_id').notNull(),
    fromAt: timestamp('from_at', { withTimezone: true }).notNull().defaultNow(),
    untilAt: timestamp('until_at', { withTimezone: true }),
    /**
     * When Setpoint put the thermostat in its unit's settings as it came in (lib/units/arrivals.ts:
     * a run started, or the state's policy asked nothing); null: not yet.
     */
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.unitId, table.fromAt] }),
    index('unit_thermostats_thermostat_idx').on(table.orgId, table.thermostatId),
    // One thermostat in a unit at a time: one open period.
    uniqueIndex('unit_thermostats_open_idx').on(table.unitId).where(sql`until_at is null`),
  ],
);

/** A unit's occupancy now; a unit with no row is occupied (nothing is changed for it). */
export const unitOccupancy = pgTable('unit_occupancy', {
  unitId: uuid('unit_id')
    .primaryKey()
    .references(() => units.id, { onDelete: 'cascade' }),
  orgId: organizationId(),
  /** One of UNIT_STATES (lib/units/lifecycle.ts). */
  state: text('state').notNull(),
  since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
  /** Notice given: the resident's move-out day, in the building's calendar. */
  moveOutOn: date('move_out_on', { mode: 'string' }),
  /** Move-in scheduled: when the resident moves in. */
  moveInAt: timestamp('move_in_at', { withTimezone: true, mode: 'string' }),
  /** Move-in scheduled: whether the unit had been made ready (a cancel goes back to it). */
  ready: boolean('ready').notNull().default(false),
});

/**
 * A scheduled move-in's two steps, as durable jobs: `prepare` (the occupied policy's template,
 * the organisation's lead before the move-in) and `move_in` (the move-in recorded at its time,
 * which turns resident mode on). Each is taken once, in the transaction that does it; a new time
 * or a cancel marks the pending ones cancelled (lib/units/scheduled.ts).
 */
export const unitSteps = pgTable(
  'unit_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: organizationId(),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    step: text('step', { enum: ['prepare', 'move_in'] }).notNull(),
    /** The move-in this step belongs to. */
    moveInAt: timestamp('move_in_at', { withTimezone: true, mode: 'string' }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    state: text('state', { enum: ['pending', 'done', 'cancelled'] })
      .notNull()
      .default('pending'),
    /** What came of it, in words, once done. */
    result: text('result'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    runId: uuid('run_id').references((): AnyPgColumn => bulkRuns.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('unit_steps_due_idx').on(table.dueAt).where(sql`${table.state} = 'pending'`),
    index('unit_steps_unit_idx').on(table.unitId, table.dueAt),
  ],
);

/**
 * An organisation's inbox for lease events from its property-management system
 * (lib/units/lease-events.ts): its address is `/api/v1/lease-events/{id}`, and each event is
 * signed with its secret (Standard Webhooks), kept sealed like the service's tokens.
 */
export const leaseInboxes = pgTable('lease_inboxes', {
  id: uuid('id').primaryKey().defaultRandom(),
  orgId: organizationId().unique(),
  secretSealed: text('secret_sealed').notNull(),
  createdByName: text('created_by_name').notNull(),
  createdAt: createdAt(),
});

/**
 * What came of a lease event: recorded as asked (`applied`), already so (`unchanged`), refused
 * by the unit's lifecycle, older than an event already recorded for its unit (`stale`), or for
 * a unit Setpoint does not know by that external id (`unmatched`, until an admin maps it).
 */
export const LEASE_EVENT_OUTCOMES = [
  'applied',
  'unchanged',
  'refused',
  'stale',
  'unmatched',
] as const;

/**
 * A lease event from the property-management system, by webhook or CSV: each sender's id is
 * taken once (`message_id`), and the event is kept with its outcome. A unit's events are applied
 * in the order they happened (`occurred_at`): one older than an event already recorded for its
 * unit is kept as stale, not applied.
 */
export const leaseEvents = pgTable(
  'lease_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: organizationId(),
    /** The sender's id: the webhook's `webhook-id`, or a CSV line's event id. */
    messageId: text('message_id').notNull(),
    source: text('source', { enum: ['webhook', 'csv'] }).notNull(),
    /** notice, move_out, move_in or transfer (lib/units/lease-events.ts). */
    type: text('type').notNull(),
    /** The unit's id in the property-management system (a transfer: the unit moved out of). */
    externalUnitId: text('external_unit_id').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** The event as it came (after its schema read it). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    outcome: text('outcome', { enum: LEASE_EVENT_OUTCOMES }).notNull(),
    /** What came of it, in words. */
    detail: text('detail').notNull().default(''),
    /** The units it changed or was for (a transfer: both), once matched. */
    unitIds: jsonb('unit_ids').$type<string[]>().notNull().default([]),
    runIds: jsonb('run_ids').$type<string[]>().notNull().default([]),
    /** An unmatched event an admin mapped to a unit: who, and when. */
    mappedByName: text('mapped_by_name'),
    mappedAt: timestamp('mapped_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('lease_events_message_idx').on(table.orgId, table.messageId),
    index('lease_events_org_received_idx').on(table.orgId, table.receivedAt),
    // A unit's latest recorded event, for the order check.
    index('lease_events_units_idx').using('gin', table.unitIds),
  ],
);

/**
 * What a unit's occupancy means for its thermostat: per state, a template to apply and resident
 * mode on or off (or left as it is). `building_id` '' is the organisation's policy; a building's
 * own row for a state overrides it. A state with no row follows the defaults of
 * lib/units/policies.ts.
 */
export const occupancyPolicies = pgTable(
  'occupancy_policies',
  {
    orgId: organizationId(),
    buildingId: text('building_id').notNull().default(''),
    /** One of UNIT_STATES (lib/units/lifecycle.ts). */
    state: text('state').notNull(),
    // A template deleted takes its rows with it: the state then follows the policy above it (the
    // organisation's, or the defaults), never silently "no template".
    templateId: uuid('template_id').references(() => templates.id, { onDelete: 'cascade' }),
    /** 'on', 'off', or 'unchanged'. */
    residentMode: text('resident_mode').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedByName: text('updated_by_name').notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.buildingId, table.state] })],
);

/** Each change of a unit's occupancy, for its timeline: who or what made it, from and to. */
export const unitEvents = pgTable(
  'unit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    orgId: organizationId(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** One of UNIT_EVENTS (lib/units/lifecycle.ts). */
    event: text('event').notNull(),
    fromState: text('from_state').notNull(),
    toState: text('to_state').notNull(),
    /** The event's date (a move-out day) or time (a move-in), as given. */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who or what made it: a member's name, "Setpoint" for a scheduled step, an API key's name. */
    actorName: text('actor_name').notNull(),
    /** The run that put the thermostat in the new state's settings, if the change started one. */
    runId: uuid('run_id').references((): AnyPgColumn => bulkRuns.id, { onDelete: 'set null' }),
  },
  (table) => [index('unit_events_unit_idx').on(table.unitId, table.at)],
);

/**
 * Every write made through Setpoint: who, when, which thermostat, what changed, how it ended.
 * `changes` never holds a passcode or a token (a passcode is recorded only as "changed").
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: serial('id').primaryKey(),
    /** Null only for entries whose organisation could not be told when organisations came. */
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** A `resource.verb` of ACTIVITY_ACTIONS (lib/activity/actions.ts). */
    action: text('action').notNull(),
    thermostatId: text('thermostat_id'),
    buildingId: text('building_id'),
    summary: text('summary').notNull(),
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
    /** `unconfirmed`: a write whose answer was lost, which may have been applied. */
    outcome: text('outcome', { enum: ['success', 'failure', 'unconfirmed'] }).notNull(),
    serviceStatus: integer('service_status'),
    error: text('error'),
    /**
     * A bulk run's one entry: its result for each thermostat is in `bulk_run_items`, so filters
     * by building or thermostat find the run through its items.
     */
    runId: uuid('run_id').references(() => bulkRuns.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('activity_org_at_idx').on(table.orgId, table.at),
    index('activity_thermostat_idx').on(table.orgId, table.thermostatId, table.at),
    index('activity_building_idx').on(table.orgId, table.buildingId, table.at),
  ],
);

/**
 * Every call made to the thermostat service, by every instance of the deployment, for the one
 * call budget (lib/service/budget.ts): the service limits the whole deployment per
 * second, minute and hour, and counts token calls apart. Rows older than the longest window are
 * pruned as new ones come.
 */
export const serviceCalls = pgTable(
  'service_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    /** When the call came back (or failed): null while it is in flight. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    kind: text('kind', { enum: ['api', 'token'] }).notNull(),
    orgId: uuid('org_id'),
    priority: smallint('priority').notNull(),
  },
  (table) => [index('service_calls_kind_at_idx').on(table.kind, table.at)],
);

/**
 * What the service itself said about the budget, shared by every instance: not before
 * `holdUntil` (a 429's Retry-After), and how many calls it said were left in its minute and hour
 * as of when it said so (when that was fewer than our own count allowed).
 */
export const serviceBudget = pgTable('service_budget', {
  id: integer('id').primaryKey(),
  holdUntil: timestamp('hold_until', { withTimezone: true }),
  minuteRemaining: integer('minute_remaining'),
  minuteRemainingAt: timestamp('minute_remaining_at', { withTimezone: true }),
  hourRemaining: integer('hour_remaining'),
  hourRemainingAt: timestamp('hour_remaining_at', { withTimezone: true }),
});

/**
 * Organisations whose background calls were refused a slot lately: they count among those the
 * background share is divided between (lib/service/budget-store.ts), even before they got any call.
 */
export const serviceDemand = pgTable('service_demand', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  wantedAt: timestamp('wanted_at', { withTimezone: true }).notNull(),
});

/**
 * The last reading of every thermostat of the portfolio: pages render from here at once and say
 * how old it is; the poller and the pages' own refreshes keep it fresh through the call budget.
 * A failed read keeps the last good status and says why the newer one failed.
 */
export const readings = pgTable(
  'readings',
  {
    orgId: uuid('org_id').notNull(),
    thermostatId: text('thermostat_id').notNull(),
    /** The last good status, in Setpoint's own shape (lib/service/schemas.ts). */
    status: jsonb('status').$type<Record<string, unknown>>(),
    /** When `status` was read. */
    readAt: timestamp('read_at', { withTimezone: true }),
    /**
     * When a reading last showed the thermostat connected (the service says whether it is, not
     * since when): null when Setpoint never saw it connected.
     */
    lastConnectedAt: timestamp('last_connected_at', { withTimezone: true }),
    /** When the readings first showed it offline, since it was last connected; null online. */
    offlineSince: timestamp('offline_since', { withTimezone: true }),
    ...lastAttempt(),
    /** A page asked for it fresh: the poller reads these first. */
    wantedAt: timestamp('wanted_at', { withTimezone: true }),
  },
  (table) => [...thermostatRowKey(table), index('readings_tried_idx').on(table.triedAt)],
);

/**
 * Readings over time, for charts and needs-attention: every reading for two days, then one per
 * quarter hour up to a week, then one per hour up to 30 days (thinned by a job).
 */
export const readingHistory = pgTable(
  'reading_history',
  {
    orgId: uuid('org_id').notNull(),
    thermostatId: text('thermostat_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    temperature: real('temperature'),
    humidity: real('humidity'),
    desiredHeat: real('desired_heat'),
    desiredCool: real('desired_cool'),
    hvacMode: text('hvac_mode'),
    /** What was running: the service's equipment words, comma-separated ('' for nothing). */
    equipment: text('equipment'),
    connected: boolean('connected'),
  },
  (table) => [
    // No key to the thermostat: one replaced in its unit, or removed, leaves the portfolio and its
    // history stays its unit's (`unit_thermostats`) until it ages out (`pruneHistory`).
    primaryKey({ columns: [table.orgId, table.thermostatId, table.at] }),
    index('reading_history_at_idx').on(table.at),
  ],
);

/**
 * A run that is planned first (a template, an undo) starts `planning` (its job reads each
 * thermostat and plans it), waits `planned` for a member to confirm, then goes `queued`,
 * `running`, and ends `done` or `cancelled`. A configuration run starts `queued`.
 */
export const BULK_RUN_STATES = [
  'planning',
  'planned',
  'queued',
  'running',
  'done',
  'cancelled',
] as const;
/**
 * What a run does: the same configuration everywhere, a template, an undo of earlier changes, or
 * a unit's thermostat put in its occupancy state's settings (a turnover: lib/units/turnover/).
 */
export const BULK_RUN_KINDS = ['configuration', 'template', 'undo', 'occupancy'] as const;
export const BULK_ITEM_OUTCOMES = [
  'pending',
  'applied',
  'failed',
  'not_sent',
  'cancelled',
  /**
   * The service's answer was lost and reading the thermostat back could not settle it: it may
   * have been applied. Counted with the failed (a person should look).
   */
  'unconfirmed',
  /** Planned runs only: the thermostat already matched, so nothing was sent. */
  'unchanged',
  /** Planned runs only: the plan found it could not apply there (or could not read it). */
  'blocked',
] as const;
/** Where planning left a thermostat of a planned run (null on a configuration run). */
export const PLAN_STATES = ['pending', 'changes', 'unchanged', 'blocked'] as const;

/**
 * One bulk change to many thermostats, applied by a job (lib/runs/engine.ts) in requests of at
 * most 25. It survives a restart: the items still pending are what is left to do. One worker
 * at a time holds its lease (`lease_owner` until `lease_until`, renewed while it works); counts
 * grow as each request's results are recorded.
 */
export const bulkRuns = pgTable(
  'bulk_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: organizationId(),
    /** Who started it (kept by name too, should they leave). */
    startedBy: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    /** The API key that started it, when one did (its id: names of keys need not differ). */
    startedByKey: uuid('started_by_key').references((): AnyPgColumn => apiKeys.id, {
      onDelete: 'set null',
    }),
    startedByName: text('started_by_name').notNull(),
    kind: text('kind', { enum: BULK_RUN_KINDS }).notNull().default('configuration'),
    /**
     * A configuration run: the validated changes, as sent to the service (°F). A template run:
     * the template as it was when planned (lib/templates/schema.ts). An undo: `{}` (each item
     * carries its own target).
     */
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull(),
    /** What the run is called in lists: the template's name, or what is undone. */
    title: text('title'),
    templateId: uuid('template_id').references((): AnyPgColumn => templates.id, {
      onDelete: 'set null',
    }),
    /** The run this one undoes. */
    undoOf: uuid('undo_of').references((): AnyPgColumn => bulkRuns.id, { onDelete: 'set null' }),
    /** The activity entry this one undoes. */
    undoOfEntry: integer('undo_of_entry'),
    /** The plan's summary once planned (lib/templates/plan/index.ts `PlanSummary`). */
    planSummary: jsonb('plan_summary').$type<Record<string, unknown>>(),
    plannedAt: timestamp('planned_at', { withTimezone: true }),
    /** The run whose failed thermostats this one retries. */
    retryOf: uuid('retry_of').references((): AnyPgColumn => bulkRuns.id, {
      onDelete: 'set null',
    }),
    state: text('state', { enum: BULK_RUN_STATES }).notNull().default('queued'),
    total: integer('total').notNull(),
    applied: integer('applied').notNull().default(0),
    /** Items that did not certainly apply: failed, and those `unconfirmed` (counted in both). */
    failed: integer('failed').notNull().default(0),
    /** Of `failed`, those whose answer was lost that may have been applied. */
    unconfirmed: integer('unconfirmed').notNull().default(0),
    notSent: integer('not_sent').notNull().default(0),
    cancelled: integer('cancelled').notNull().default(0),
    /** Why the rest was not sent (the connection ended), or why the run waits. */
    note: text('note'),
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    cancelledByName: text('cancelled_by_name'),
    /** Not to be worked before this time (the service's budget is spent until then). */
    notBefore: timestamp('not_before', { withTimezone: true }),
    /** The queue job last sent to apply it (the sweep sends another when that one is gone). */
    jobId: text('job_id'),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('bulk_runs_org_created_idx').on(table.orgId, table.createdAt),
    index('bulk_runs_unfinished_idx')
      .on(table.state)
      .where(sql`${table.state} in ('planning', 'queued', 'running')`),
    // A unit's occupancy runs, newest first (its settings, and a run waiting for an earlier one).
    index('bulk_runs_occupancy_unit_idx')
      .on(sql`(${table.changes} ->> 'unitId')`, table.createdAt)
      .where(sql`${table.kind} = 'occupancy'`),
  ],
);

/**
 * Each thermostat of a bulk run and how it ended. `position` orders the selection, and request
 * k of the run always carries positions 25k to 25k+24 (those still pending). `attempts` counts
 * the requests that carried it (a planned run's item: that carried its next operation, counted
 * before each call), more than one only when Setpoint stopped while one was in flight; left
 * above 0 on an unfinished item, the call may have been applied.
 * The outcome leaves `pending` once, so every thermostat's result is recorded exactly once.
 */
export const bulkRunItems = pgTable(
  'bulk_run_items',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => bulkRuns.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    thermostatId: text('thermostat_id').notNull(),
    /** The thermostat's building when the run was started. */
    buildingId: text('building_id').notNull(),
    outcome: text('outcome', { enum: BULK_ITEM_OUTCOMES }).notNull().default('pending'),
    detail: text('detail').notNull().default(''),
    attempts: smallint('attempts').notNull().default(0),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    // Planned runs only (template, undo); null on a configuration run.
    planState: text('plan_state', { enum: PLAN_STATES }),
    /** An undo: the state to go back to, as a template of this thermostat's own. */
    target: jsonb('target').$type<Record<string, unknown>>(),
    /** An undo: the state the change being undone left, to warn when it changed since. */
    expected: jsonb('expected').$type<Record<string, unknown>>(),
    /** The state read when planning (what an undo of this run goes back to). Never a passcode. */
    before: jsonb('before').$type<Record<string, unknown>>(),
    /** The thermostat's plan (lib/templates/plan/index.ts `ThermostatPlan`). */
    plan: jsonb('plan').$type<Record<string, unknown>>(),
    /** A warning shown with the plan (an undo: the thermostat changed since). */
    warning: text('warning'),
    /** How many of the plan's operations have been applied (a resumed run goes on from there). */
    doneOps: smallint('done_ops').notNull().default(0),
    /** The refs of comfort settings the run created, by name key (for the schedule and undo). */
    created: jsonb('created').$type<Record<string, string>>(),
  },
  (table) => [
    primaryKey({ columns: [table.runId, table.thermostatId] }),
    uniqueIndex('bulk_run_items_position_idx').on(table.runId, table.position),
    index('bulk_run_items_thermostat_idx').on(table.thermostatId, table.runId),
    index('bulk_run_items_building_idx').on(table.buildingId, table.runId),
  ],
);

/**
 * A template: a named profile of comfort settings (by name), a weekly schedule, configuration,
 * alert settings and access-control locks, applied to many thermostats through a planned run.
 * `body` is what lib/templates/schema.ts accepts (°F, block numbers, names), never a passcode.
 */
export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: organizationId(),
    name: text('name').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    updatedByName: text('updated_by_name').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('templates_org_name_idx').on(table.orgId, sql`lower(${table.name})`)],
);

/**
 * A named set of thermostats: hand-picked (`thermostat_group_members`) or a saved filter
 * (`filter`, lib/groups/filter.ts), usable wherever a selection is made. A member sees and uses
 * only the thermostats of a group within their scope.
 */
export const thermostatGroups = pgTable(
  'thermostat_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: organizationId(),
    name: text('name').notNull(),
    /** Null for a hand-picked group. */
    filter: jsonb('filter').$type<Record<string, unknown>>(),
    updatedByName: text('updated_by_name').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('thermostat_groups_org_name_idx').on(table.orgId, sql`lower(${table.name})`),
  ],
);

export const thermostatGroupMembers = pgTable(
  'thermostat_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => thermostatGroups.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull(),
    thermostatId: text('thermostat_id').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.thermostatId] }),
    foreignKey({
      columns: [table.orgId, table.thermostatId],
      foreignColumns: [thermostats.orgId, thermostats.thermostatId],
    }).onDelete('cascade'),
  ],
);

/**
 * The template a thermostat was last given (by a template run that applied there), and whether
 * it still matches it: `drift` is what differed when it was last checked (null: it matched),
 * in words in each unit and when a check first found it (lib/templates/drift-store.ts); rows checked before
 * that hold a list of lines in °F.
 */
export const templateAssignments = pgTable(
  'template_assignments',
  {
    orgId: uuid('org_id').notNull(),
    thermostatId: text('thermostat_id').notNull(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').references(() => bulkRuns.id, { onDelete: 'set null' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    drift: jsonb('drift').$type<
      { foundAt: string; lines: { F: string[]; C: string[] } } | string[]
    >(),
  },
  (table) => [
    ...thermostatRowKey(table),
    index('template_assignments_template_idx').on(table.templateId),
  ],
);

/**
 * Each thermostat's HVAC maintenance reminder as the service last said (its alert settings), for
 * needs-attention. Read on a slow cycle (daily per thermostat, at background priority): the date
 * moves only when someone records maintenance, and 1,500 thermostats then cost about 63 calls an
 * hour of the service's 10,000. A failed read keeps the last good values and says why.
 */
export const maintenanceReminders = pgTable(
  'maintenance_reminders',
  {
    orgId: uuid('org_id').notNull(),
    thermostatId: text('thermostat_id').notNull(),
    /** Whether the reminder is on; null until a read succeeded. */
    enabled: boolean('enabled'),
    /** When maintenance is due (the service's `nextReminderDate`); null when off. */
    nextReminderDate: date('next_reminder_date', { mode: 'string' }),
    /** When the values above were read. */
    readAt: timestamp('read_at', { withTimezone: true }),
    ...lastAttempt(),
  },
  (table) => [
    ...thermostatRowKey(table),
    index('maintenance_reminders_tried_idx').on(table.triedAt),
  ],
);

/**
 * A mode change Setpoint asked for (creating a thermostat in a mode), and when: the service
 * shows no pending mode, only the mode in effect, so this says how long a change has been
 * waiting. It goes once a reading made after it shows the mode (a job keeps it in step).
 */
export const pendingModeChanges = pgTable(
  'pending_mode_changes',
  {
    orgId: uuid('org_id').notNull(),
    thermostatId: text('thermostat_id').notNull(),
    mode: text('mode').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
  },
  (table) => [...thermostatRowKey(table)],
);

// --- Notifications ------------------------------------------------------------------------------

export const INCIDENT_RESOLUTIONS = [
  /** The cause cleared: a resolved notice goes to those told of it. */
  'cleared',
  /** A graver incident of the same thermostat took over (too cold became freeze risk). */
  'superseded',
  /** Its rule was turned off. */
  'rule_off',
  /** Its thermostat left the portfolio. */
  'removed',
  /** A failed run not retried within a week. */
  'expired',
] as const;

/**
 * One cause that needs attention (lib/notifications): opened by the reconcile job when a
 * needs-attention item (or a failed bulk run) appears, resolved when it goes, so one offline
 * thermostat is one incident however many readings show it. Only one incident per cause
 * (`kind`, `subject`) is open at a time. People are told once it has stood for its rule's delay
 * (`notified_at`); one that clears sooner is resolved without a word.
 */
export const incidents = pgTable(
  'incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: organizationId(),
    /** An incident kind of lib/notifications/kinds.ts. */
    kind: text('kind').notNull(),
    /** What it is about, within its kind: a thermostat id, a run id, or '' for the organisation. */
    subject: text('subject').notNull(),
    thermostatId: text('thermostat_id'),
    runId: uuid('run_id').references(() => bulkRuns.id, { onDelete: 'set null' }),
    /** The thermostat's building, kept current while it is open. */
    buildingId: text('building_id'),
    /** Every building it concerns ([] for the whole organisation): who may be told of it. */
    buildingIds: jsonb('building_ids').$type<string[]>().notNull().default([]),
    severity: text('severity', { enum: ['urgent', 'warning', 'notice'] }).notNull(),
    /** The item as last seen (temperatures in °F), for the words each reader gets in their unit. */
    facts: jsonb('facts').$type<Record<string, unknown>>().notNull(),
    /** When the cause began, where known; otherwise when it was first seen. */
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    /** When people were told (its rule's delay passed); null: not yet, or never. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolution: text('resolution', { enum: INCIDENT_RESOLUTIONS }),
  },
  (table) => [
    uniqueIndex('incidents_open_cause_idx')
      .on(table.orgId, table.kind, table.subject)
      .where(sql`${table.resolvedAt} is null`),
    index('incidents_org_opened_idx').on(table.orgId, table.openedAt),
  ],
);

/**
 * An organisation's rule for one incident kind: whether it opens incidents at all, and how many
 * minutes its cause must stand before people are told. No row: the kind's default.
 */
export const notificationRules = pgTable(
  'notification_rules',
  {
    orgId: organizationId(),
    kind: text('kind').notNull(),
    enabled: boolean('enabled').notNull(),
    delayMinutes: integer('delay_minutes').notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.kind] })],
);

export const SUBSCRIPTION_MODES = ['off', 'immediate', 'digest'] as const;

/**
 * What a member is emailed: which incident kinds, in which of their buildings (null: every one
 * their role lets them see, as it is at the time), at once or as a daily digest, and quiet hours
 * (minutes after local midnight, in each incident's building's zone; `time_zone` for the digest's
 * hour and for incidents of no building). Urgent incidents ignore quiet hours and the digest.
 */
export const notificationSubscriptions = pgTable('notification_subscriptions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => memberships.userId, { onDelete: 'cascade' }),
  orgId: organizationId(),
  mode: text('mode', { enum: SUBSCRIPTION_MODES }).notNull(),
  kinds: jsonb('kinds').$type<string[]>().notNull(),
  buildingIds: jsonb('building_ids').$type<string[] | null>(),
  timeZone: text('time_zone').notNull(),
  digestHour: smallint('digest_hour').notNull().default(7),
  quietStart: smallint('quiet_start'),
  quietEnd: smallint('quiet_end'),
  /** The local date (`YYYY-MM-DD`, in `time_zone`) of the last digest sent. */
  lastDigestDate: text('last_digest_date'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const WEBHOOK_STATES = ['active', 'failing', 'paused'] as const;

/**
 * A webhook endpoint of the organisation (set by owners and admins): signed per Standard
 * Webhooks with its own secret, sealed like the service tokens. `failing` after a failed
 * delivery, `paused` after too many in a row (nothing more is sent until it is resumed).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: organizationId(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    secretSealed: text('secret_sealed').notNull(),
    kinds: jsonb('kinds').$type<string[]>().notNull(),
    /** Null: every building. */
    buildingIds: jsonb('building_ids').$type<string[] | null>(),
    status: text('status', { enum: WEBHOOK_STATES }).notNull().default('active'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
    /** Why the last delivery failed, in words (never the secret or the response body). */
    lastError: text('last_error'),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('webhook_endpoints_org_idx').on(table.orgId)],
);

/**
 * What a notice tells: an incident's opening or end, a test, or (webhooks only) a unit's change of
 * occupancy or a run's end (lib/notifications/events.ts).
 */
export const NOTIFICATION_EVENTS = [
  'opened',
  'resolved',
  'test',
  'unit_state',
  'run_finished',
] as const;
export const NOTIFICATION_STATES = [
  /** To send: a delivery job has it (or the sweep will give it one). */
  'pending',
  /** Waiting for quiet hours to end (`not_before`). */
  'held',
  /** Waiting for the member's daily digest. */
  'digest',
  'sent',
  /** Gave up: every retry failed, or the mail server refused it for good. */
  'failed',
  /** Not sent, on purpose: unsubscribed, out of scope now, email off. */
  'skipped',
  /** Its webhook endpoint is paused: sent if it is resumed within a day. */
  'paused',
] as const;

/**
 * One notice to one recipient (a member by email, or a webhook endpoint) of one incident event:
 * the delivery log. Delivered by a job with retries; `last_error` says why an attempt failed, in
 * words, never with a secret.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: organizationId(),
    incidentId: uuid('incident_id').references(() => incidents.id, { onDelete: 'cascade' }),
    event: text('event', { enum: NOTIFICATION_EVENTS }).notNull(),
    channel: text('channel', { enum: ['email', 'webhook'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id').references(() => webhookEndpoints.id, {
      onDelete: 'cascade',
    }),
    /** Who it went to, as the log shows it: an email address, or the endpoint's address. */
    recipient: text('recipient').notNull(),
    status: text('status', { enum: NOTIFICATION_STATES }).notNull(),
    notBefore: timestamp('not_before', { withTimezone: true }),
    attempts: smallint('attempts').notNull().default(0),
    lastError: text('last_error'),
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    /** A delivery holds it until then (one attempt at a time); null once its outcome is in. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** A unit's change or a run's end, as its webhook carries it (null for an incident's). */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (table) => [
    index('notifications_org_created_idx').on(table.orgId, table.createdAt),
    index('notifications_incident_idx').on(table.incidentId),
    index('notifications_waiting_idx')
      .on(table.status, table.notBefore)
      .where(sql`${table.status} in ('pending', 'held', 'digest', 'paused')`),
  ],
);

/** What an API key may do (lib/api/keys.ts). */
export const API_SCOPES = ['read', 'write_units', 'write_thermostats'] as const;

/**
 * A key for Setpoint's own API (`/api/v1`): shown once, stored only as the SHA-256 of its
 * secret (a 32-byte random value, so a fast hash is enough), with its scopes and, optionally,
 * the buildings it is limited to. Revoked keys stay, for the activity log's sake.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: organizationId(),
    name: text('name').notNull(),
    /** The key's first characters, to tell keys apart on the page (never enough to use). */
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull(),
    scopes: jsonb('scopes').$type<(typeof API_SCOPES)[number][]>().notNull(),
    /** Null: every building. */
    buildingIds: jsonb('building_ids').$type<string[] | null>(),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedByName: text('revoked_by_name'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedFrom: text('last_used_from'),
  },
  (table) => [
    uniqueIndex('api_keys_hash_idx').on(table.hash),
    index('api_keys_org_idx').on(table.orgId),
  ],
);

/**
 * An API write's first answer, by its key and `Idempotency-Key`, for 24 hours: the same key and
 * body get it again without anything done twice; another body is refused.
 */
export const apiIdempotency = pgTable(
  'api_idempotency',
  {
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of the method, path and body. */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still being answered. */
    status: integer('status'),
    body: jsonb('body').$type<unknown>(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.keyId, table.idempotencyKey] })],
);

/** Requests per key per minute, for the API's rate limit (shared by every instance). */
export const apiRateWindows = pgTable(
  'api_rate_windows',
  {
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.keyId, table.windowStart] })],
);

/**
 * How far the webhooks of units' changes and runs' ends have been sent (lib/notifications/
 * events.ts): per stream, the last event fanned out, so each is told once.
 */
export const eventCursors = pgTable('event_cursors', {
  stream: text('stream', { enum: ['unit_events', 'runs'] }).primaryKey(),
  /** unit_events: the last id; runs: the last `finished_at` and id, as `<iso>|<uuid>`. */
  position: text('position').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
