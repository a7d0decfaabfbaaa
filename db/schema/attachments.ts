import { pgTable, text, timestamp, uuid, integer, index } from 'drizzle-orm/pg-core';
import { users } from './identity';
import { facilities } from './facilities';
import { requests } from './workflows';

/**
 * Uploaded files (spec 02 sections 3, 5 and 9). The bytes live on disk, content-addressed by sha256 under
 * DATA_DIR/files/ab/cdef... (server/modules/attachments/file-store.ts); this row says whose they are and what they
 * are. The file is written (fsync, rename) before the row, so a row never points at a missing file; a file without
 * a row (an upload refused at the last check) is swept later.
 */
export const attachments = pgTable(
  'attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The facility or CB the file belongs to; its members and Halal-center staff may download it. */
    facilityPublicId: text('facility_public_id')
      .notNull()
      .references(() => facilities.publicId, { onDelete: 'cascade' }),
    /** The request the file was uploaded for; null for facility-level files (and before a draft exists). */
    requestId: uuid('request_id').references(() => requests.id, { onDelete: 'set null' }),
    /** AttachmentCategory of machines/forms/attachment-categories.ts. */
    category: text('category').notNull(),
    /** The file name as uploaded (path stripped). */
    name: text('name').notNull(),
    size: integer('size').notNull(),
    /** The content type checked against the file's magic bytes. */
    contentType: text('content_type').notNull(),
    sha256: text('sha256').notNull(),
    /** Pixel size of images; null for PDFs. */
    width: integer('width'),
    height: integer('height'),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the request the file belongs to is submitted: from then on the file cannot be removed. */
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    /** Removed by its owner (soft: the file and the row stay for the audit trail). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('attachments_owner_idx').on(t.facilityPublicId, t.requestId, t.category),
    index('attachments_request_idx').on(t.requestId),
    index('attachments_sha256_idx').on(t.sha256),
  ],
);
