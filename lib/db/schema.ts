import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Stored lower-cased; unique. */
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  /** argon2id PHC string; null for accounts that only sign in through company SSO. */
  passwordHash: text('password_hash'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
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
 * A manager's connection to the thermostat service. Tokens are sealed (lib/oauth/vault.ts) and
 * stored as unbounded text: JWT access tokens reach about 7 KB.
 */
export const serviceConnections = pgTable('service_connections', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
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
  /** A short, secret-free reason for the last refresh failure. */
  lastError: text('last_error'),
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
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});
