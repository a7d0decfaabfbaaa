import { pgTable, text, timestamp, boolean, uuid, jsonb, integer, bigint } from 'drizzle-orm/pg-core';

/** People who sign in: facility users and Halal-center staff. Passwords are scrypt hashes (server/auth/password.ts). */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  userName: text('user_name').notNull().unique(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  roles: jsonb('roles').$type<string[]>().notNull().default([]),
  nationalId: text('national_id').unique(),
  phone: text('phone'),
  preferredLanguage: text('preferred_language').notNull().default('ar'),
  circularDownloaded: boolean('circular_downloaded').notNull().default(false),
  /** Set by an administrator: a locked user cannot sign in and their sessions stop at the next request. */
  lockedAt: timestamp('locked_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Server-side session rows: a JWT is valid only while its row exists, is not revoked and was used recently. */
export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokedReason: text('revoked_reason'),
});

/**
 * One row (id 1) whose value moves, in the same commit, with every change a signed-in request's identity is read from:
 * a session revoked or deleted, a user locked or edited, a facility membership or delegation, a facility's public id,
 * a role's grants (deferred triggers, migration 0017). A server keeps each session's identity with the value it was
 * read at, and per request reads only this value: the identity is read again whenever anything it depends on changed,
 * in this process or another (server/plugins/auth.ts).
 */
export const authEpoch = pgTable('auth_epoch', {
  id: integer('id').primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull().default(0),
});
