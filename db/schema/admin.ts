import { pgTable, text, timestamp, uuid, jsonb, boolean, bigserial, integer, index, primaryKey } from 'drizzle-orm/pg-core';
import { users } from './identity';

/**
 * Roles and the permission names each grants (issue 15, identity). machines/roles.ts is the seed of the default
 * roles; an administrator edits them here. `readOnly` roles may call no write route at all (the auditor role).
 */
export const roles = pgTable('roles', {
  name: text('name').primaryKey(),
  permissions: jsonb('permissions').$type<string[]>().notNull().default([]),
  readOnly: boolean('read_only').notNull().default(false),
  /** Seeded from machines/roles.ts (may be edited, not deleted). */
  isDefault: boolean('is_default').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The administrator's business settings: one row ('business') of JSON validated by ZPortalSettings (the environment
 * values are the defaults, used while the row is absent). `version` increases with every change.
 */
export const portalSettings = pgTable('portal_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<Record<string, unknown>>().notNull(),
  version: integer('version').notNull().default(1),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The audit log: every sign-in (success and failure), every API write, every settings, role and user change.
 * Separate from each request's workflow history (workflows), which it links to by `requestId`.
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: uuid('user_id'),
    /** The signed-in user's name, or the name typed at a sign-in. */
    userName: text('user_name'),
    /** 'auth.login', 'auth.logout', 'api.write', 'settings.change', 'role.change', 'user.create', ... */
    action: text('action').notNull(),
    method: text('method'),
    /** The route pattern (/api/requests/:id/events) and the concrete path. */
    route: text('route'),
    path: text('path'),
    statusCode: integer('status_code'),
    outcome: text('outcome').$type<'success' | 'failure'>().notNull(),
    ip: text('ip'),
    /** The workflow request a write was about (links to its history). */
    requestId: text('request_id'),
    /** Old and new values of a settings or role change, the error code of a failure. */
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [index('audit_logs_at_idx').on(t.at), index('audit_logs_user_idx').on(t.userName), index('audit_logs_request_idx').on(t.requestId)],
);

/**
 * An administrator's replacement for one bundled text (issue 15 item 5, language-management and
 * text-template-management): locales/<lang>/<namespace>.json stays the default; a row here wins over it in the
 * server's messages and in the web's resources, without a deploy. `key` is the dotted path inside the namespace.
 */
export const textOverrides = pgTable(
  'text_overrides',
  {
    lang: text('lang').$type<'ar' | 'en'>().notNull(),
    namespace: text('namespace').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.lang, t.namespace, t.key] })],
);

/**
 * A user's request for a copy of their personal data (issue 15 item 4, gdpr). The row is the durable job: it is
 * written `preparing` when the user asks, and a job runner (server/modules/gdpr/jobs.ts) claims it with FOR UPDATE
 * SKIP LOCKED, gathers the data and stores the file in the same transaction, so a crash leaves it `preparing` for
 * the next run. The file is kept for a limited time (`expired` afterwards); a download needs a one-time token.
 */
export const personalDataRequests = pgTable(
  'personal_data_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<'preparing' | 'ready' | 'expired' | 'failed'>().notNull().default('preparing'),
    /** The language of the file's labels (the UI language at the time of asking). */
    language: text('language').$type<'ar' | 'en'>().notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    /** Failed preparations so far; after a few the request is `failed` (the user may ask again). */
    attempts: integer('attempts').notNull().default(0),
    /** The JSON file, while the request is `ready`. */
    data: text('data'),
    /** SHA-256 of the current one-time download token, and when it stops being accepted. */
    tokenHash: text('token_hash'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
  },
  (t) => [index('personal_data_requests_user_idx').on(t.userId, t.requestedAt), index('personal_data_requests_status_idx').on(t.status)],
);
