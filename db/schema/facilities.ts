import { pgTable, text, timestamp, uuid, integer, jsonb, primaryKey, index } from 'drizzle-orm/pg-core';
import { users } from './identity';

/**
 * Internal facilities, external (foreign) facilities and conformity bodies. One table: they share identity,
 * membership and delegation; type-specific data lives in `details` (validated by the facilities module's zod schemas).
 */
export const facilities = pgTable(
  'facilities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The id shown in routes (facility-profile/internal/{publicId}). */
    publicId: text('public_id').notNull().unique(),
    /** InternalFacility | ExternalFacility | ConformityBody (spec 01 section 3). */
    type: text('type').notNull(),
    nameAr: text('name_ar').notNull(),
    nameEn: text('name_en').notNull(),
    /** Commercial registration number (internal), registration number (external, CB). */
    registrationNumber: text('registration_number'),
    countryCode: text('country_code').notNull().default('SA'),
    city: text('city'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('facilities_type_idx').on(t.type)],
);

/** Users of a facility or CB: MainUser=0 (may delegate), SubUser=1 (spec 01 section 3). */
export const facilityMembers = pgTable(
  'facility_members',
  {
    facilityId: uuid('facility_id')
      .notNull()
      .references(() => facilities.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: integer('role').notNull(),
    permissions: jsonb('permissions').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.facilityId, t.userId] }), index('facility_members_user_idx').on(t.userId)],
);
