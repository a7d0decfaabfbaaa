import { sql } from 'drizzle-orm';
import {
  pgTable,
  text,
  timestamp,
  uuid,
  integer,
  jsonb,
  primaryKey,
  index,
  uniqueIndex,
  boolean,
  date,
  bigint,
} from 'drizzle-orm/pg-core';
import { users } from './identity';

/**
 * Internal facilities, external (foreign) facilities and conformity bodies. One table: they share identity,
 * membership and delegation. Columns hold what is searched, checked for duplicates or drives a rule; the rest of
 * the type-specific data (address parts, counts, revenue, categories) lives in `details`, validated by the
 * facilities module's zod schemas (server/modules/facilities/schemas.ts).
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
    /** Establishment unified number `70X XXX XXXX` (internal facilities, from the registry). */
    unifiedNumber: text('unified_number'),
    /** WathiqCRStatus at the last verification: Active | Suspended | Deleted | Expired. */
    crStatus: text('cr_status').$type<'Active' | 'Suspended' | 'Deleted' | 'Expired'>(),
    crVerifiedAt: timestamp('cr_verified_at', { withTimezone: true }),
    /** CB acceptance (assignment) number `#-####H-CB` and notification number `H-CB####-#`. */
    acceptanceNumber: text('acceptance_number'),
    notificationNumber: text('notification_number'),
    /** Dates of the CB's acceptance/notification certificate; an expired one blocks the CB's services. */
    certificateIssueDate: date('certificate_issue_date'),
    certificateExpiryDate: date('certificate_expiry_date'),
    /** CB bank account; pending until confirmed (ConfirmConformityBodyIban). */
    iban: text('iban'),
    ibanConfirmed: boolean('iban_confirmed').notNull().default(false),
    ibanConfirmedAt: timestamp('iban_confirmed_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('facilities_type_idx').on(t.type),
    // Duplicate CR / registration numbers are refused (spec 01 section 5); the index makes it true under races too.
    uniqueIndex('facilities_registration_number_uq')
      .on(t.type, t.countryCode, t.registrationNumber)
      .where(sql`${t.registrationNumber} is not null`),
    uniqueIndex('facilities_acceptance_number_uq').on(t.acceptanceNumber).where(sql`${t.acceptanceNumber} is not null`),
    uniqueIndex('facilities_notification_number_uq').on(t.notificationNumber).where(sql`${t.notificationNumber} is not null`),
  ],
);

/**
 * Users of a facility or CB: MainUser=0 (may delegate), SubUser=1 (spec 01 section 3). One main user per facility
 * (the one who added it; a delegation never makes another). A sub user's `permissions` are the delegated ones
 * (server/plugins/auth.ts turns them into Actor.facilityPermissions); the main user holds all of the role's.
 */
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
    /** The delegation that made this user a member; null for the applicant who added the facility. */
    delegationId: uuid('delegation_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.facilityId, t.userId] }),
    index('facility_members_user_idx').on(t.userId),
    uniqueIndex('facility_members_one_main_user_uq').on(t.facilityId).where(sql`${t.role} = 0`),
  ],
);

/**
 * A main user's delegation of access to another person (spec 02 section 3, Delegate): the delegate's details. The
 * delegation itself runs in the workflow engine (machines/delegation.ts, kind `delegation`); this row has the id
 * of that request, which holds the status and the verifiable history. Membership exists only once it is active.
 */
export const delegations = pgTable(
  'delegations',
  {
    /** The id of the delegation's request in the workflow engine (kind `delegation`), set by the delegation service. */
    id: uuid('id').primaryKey().defaultRandom(),
    facilityId: uuid('facility_id')
      .notNull()
      .references(() => facilities.id, { onDelete: 'cascade' }),
    delegatorUserId: uuid('delegator_user_id')
      .notNull()
      .references(() => users.id),
    /** Set when the delegation completes (an existing account, or the one created for the delegate). */
    delegateUserId: uuid('delegate_user_id').references(() => users.id),
    nationalId: text('national_id').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    birthDate: date('birth_date').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    preferredLanguage: text('preferred_language').notNull(),
    email: text('email').notNull(),
    /** Delegation type: main=0 (may delegate in turn), sub=1. */
    type: integer('type').notNull(),
    permissions: jsonb('permissions').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('delegations_facility_idx').on(t.facilityId)],
);

/**
 * One-time codes sent by SMS. Only a hash of the code is kept. Counters enforce the limits of spec 01 section 8:
 * resends (1003), resend interval (1004), expiry (1005), verification attempts (1006).
 */
export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What the code confirms, e.g. 'delegation'. */
    purpose: text('purpose').notNull(),
    /** The confirmed thing's id (a delegation id). */
    subjectId: text('subject_id').notNull(),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    resendCount: integer('resend_count').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('otp_challenges_subject_idx').on(t.purpose, t.subjectId)],
);

/** Every SMS this server sent (the text is not kept: it may hold a code). Counts feed limits 1001 and 1002. */
export const smsMessages = pgTable(
  'sms_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phone: text('phone').notNull(),
    purpose: text('purpose').notNull(),
    subjectId: text('subject_id'),
    providerMessageId: text('provider_message_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sms_messages_phone_idx').on(t.phone, t.sentAt)],
);

/**
 * A new delegate's one-time link to choose a password (the account is created without a usable one). Only the
 * SHA-256 of the token is stored; the link goes to the delegate's mobile by SMS.
 */
export const delegateInvitations = pgTable('delegate_invitations', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  delegationId: uuid('delegation_id').references(() => delegations.id, { onDelete: 'set null' }),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Files attached to a facility or CB (spec 02 section 3: commercial registration certificate, accreditation
 * certificate, quality manual, notification or acceptance certificate, owner's authorisation letter). The content
 * is stored on disk under DATA_DIR, addressed by its SHA-256. An upload is not yet attached (facilityId null) until
 * the facility it belongs to is created.
 */
export const facilityAttachments = pgTable(
  'facility_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    facilityId: uuid('facility_id').references(() => facilities.id, { onDelete: 'cascade' }),
    category: text('category').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('facility_attachments_facility_idx').on(t.facilityId)],
);
