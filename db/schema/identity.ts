import { pgTable, text, timestamp, boolean, uuid, jsonb } from 'drizzle-orm/pg-core';

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
