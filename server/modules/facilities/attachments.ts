import { createHash } from 'node:crypto';
import { mkdir, rename, stat, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { Db, Tx } from '../../../db/client';
import { facilityAttachments } from '../../../db/schema';
import { AppError } from '../../errors';
import type { FacilitiesDeps } from './deps';
import { fsyncDir, fsyncFile } from '../attachments/file-store';
import type { FacilityType } from '../../../machines/forms/facilities/schemas';
import './errors';
import { safeFileName } from '../../../lib/hostile-text';

/** Attachment categories of facilities and CBs (spec 02 section 3), plus the owner's authorisation letter. */
export const ATTACHMENT_CATEGORIES = [
  'commercialRegistration',
  'accreditationCertificate',
  'qualityManual',
  'acceptanceCertificate',
  'delegationLetter',
] as const;
export type AttachmentCategory = (typeof ATTACHMENT_CATEGORIES)[number];

/** Spec 02 sections 5 and 9: PDF, PNG, JPG, JPEG, at most 50 MB each. */
export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;
export const ALLOWED_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
const EXTENSION_TYPES: Record<string, string> = { pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };
/** One file per category and facility ("file count limited"). */
export const MAX_FILES_PER_CATEGORY = 1;

/** Which categories each facility type takes and which of them are required when it is added. */
export const ATTACHMENT_RULES: Record<FacilityType, { allowed: AttachmentCategory[]; required: AttachmentCategory[] }> = {
  // The registry vouches for an internal facility's registration; the letter is added to the required list when
  // the applicant is not one of its parties (see createInternal).
  InternalFacility: { allowed: ['commercialRegistration', 'qualityManual', 'delegationLetter'], required: [] },
  ExternalFacility: {
    allowed: ['commercialRegistration', 'accreditationCertificate', 'qualityManual'],
    required: ['commercialRegistration', 'accreditationCertificate'],
  },
  ConformityBody: {
    allowed: ['commercialRegistration', 'accreditationCertificate', 'qualityManual', 'acceptanceCertificate'],
    required: ['commercialRegistration', 'accreditationCertificate', 'acceptanceCertificate'],
  },
};

export type AttachmentRow = typeof facilityAttachments.$inferSelect;

export interface UploadInput {
  category: string;
  fileName: string;
  /** The Content-Type the client declared. */
  declaredType: string;
  content: Buffer;
}

/**
 * Checks an upload (spec 02 section 5: allowed types, size, at most one dot in the name, content matching the
 * declared type by its magic bytes) and returns the content type it really is.
 */
export async function checkUpload(input: UploadInput): Promise<string> {
  if (!(ATTACHMENT_CATEGORIES as readonly string[]).includes(input.category)) throw new AppError('AttachmentCategoryUnknown');
  const name = safeFileName(input.fileName);
  if (!name || (name.match(/\./g) ?? []).length !== 1 || /[\\/]/.test(name)) throw new AppError('AttachmentNameInvalid');
  const extension = name.split('.').pop()!.toLowerCase();
  const byExtension = EXTENSION_TYPES[extension];
  if (!byExtension) throw new AppError('AttachmentTypeInvalid');
  if (input.content.length === 0) throw new AppError('AttachmentTypeInvalid');
  if (input.content.length > MAX_ATTACHMENT_BYTES) throw new AppError('AttachmentTooLarge');
  const declared = input.declaredType.split(';')[0].trim().toLowerCase();
  const detected = (await fileTypeFromBuffer(input.content))?.mime;
  if (!detected || !(ALLOWED_CONTENT_TYPES as readonly string[]).includes(detected)) throw new AppError('AttachmentContentMismatch');
  if (detected !== byExtension || declared !== detected) throw new AppError('AttachmentContentMismatch');
  return detected;
}

/** Stores the content once per SHA-256 under filesDir (written to a temporary name, fsynced, then renamed durably). */
async function storeContent(filesDir: string, content: Buffer): Promise<string> {
  const sha256 = createHash('sha256').update(content).digest('hex');
  const dir = join(filesDir, sha256.slice(0, 2));
  const path = join(dir, sha256);
  await mkdir(dir, { recursive: true });
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (!exists) {
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, content);
    await fsyncFile(tmp);
    await rename(tmp, path);
    // The row that names the file is committed after this returns: the file must survive a crash first.
    await fsyncDir(dir);
  }
  return sha256;
}

/**
 * Uploads waiting for the create call that attaches them: each user may keep at most `files` of them totalling
 * `bytes`, and one not attached within `hours` expires (its row is deleted; it can no longer be attached). Without
 * this, one account could fill the disk with uploads it never attaches.
 */
export const UNATTACHED_LIMITS = { files: 60, bytes: 300 * 1024 * 1024, hours: 24 } as const;

const unattachedCutoff = (now = Date.now()) => new Date(now - UNATTACHED_LIMITS.hours * 3_600_000);

/** Deletes every upload left unattached past UNATTACHED_LIMITS.hours. */
export async function expireUnattached(db: Db): Promise<number> {
  const gone = await db
    .delete(facilityAttachments)
    .where(and(isNull(facilityAttachments.facilityId), lt(facilityAttachments.createdAt, unattachedCutoff())))
    .returning({ id: facilityAttachments.id });
  return gone.length;
}

/** An upload not yet attached to a facility: it is attached by the create call that names it. */
export async function storeUpload(deps: FacilitiesDeps, userId: string, input: UploadInput): Promise<AttachmentRow> {
  const contentType = await checkUpload(input);
  await expireUnattached(deps.db);
  const [pending] = await deps.db
    .select({ files: sql<number>`count(*)::int`, bytes: sql<number>`coalesce(sum(${facilityAttachments.size}), 0)::bigint` })
    .from(facilityAttachments)
    .where(and(isNull(facilityAttachments.facilityId), eq(facilityAttachments.uploadedBy, userId)));
  if (pending.files >= UNATTACHED_LIMITS.files || Number(pending.bytes) + input.content.length > UNATTACHED_LIMITS.bytes) {
    throw new AppError('AttachmentQuotaExceeded', { files: UNATTACHED_LIMITS.files, megabytes: UNATTACHED_LIMITS.bytes / 1024 / 1024, hours: UNATTACHED_LIMITS.hours });
  }
  const sha256 = await storeContent(deps.filesDir, input.content);
  const [row] = await deps.db
    .insert(facilityAttachments)
    .values({ category: input.category, fileName: safeFileName(input.fileName), contentType, size: input.content.length, sha256, uploadedBy: userId })
    .returning();
  return row;
}

export async function readContent(deps: FacilitiesDeps, row: AttachmentRow): Promise<Buffer> {
  return readFile(join(deps.filesDir, row.sha256.slice(0, 2), row.sha256));
}

/**
 * Attaches the caller's own unattached uploads to a facility, enforcing the type's allowed and required categories
 * and one file per category. Runs inside the create/update transaction.
 */
export async function claimAttachments(
  tx: Tx,
  userId: string,
  facilityId: string,
  ids: string[],
  rules: { allowed: readonly AttachmentCategory[]; required: readonly AttachmentCategory[] },
  existing: AttachmentRow[] = [],
): Promise<void> {
  const rows = ids.length
    ? await tx
        .select()
        .from(facilityAttachments)
        .where(
          and(
            inArray(facilityAttachments.id, ids),
            eq(facilityAttachments.uploadedBy, userId),
            isNull(facilityAttachments.facilityId),
            gt(facilityAttachments.createdAt, unattachedCutoff()),
          ),
        )
    : [];
  if (rows.length !== new Set(ids).size) throw new AppError('AttachmentNotFound');
  for (const r of rows) {
    if (!(rules.allowed as readonly string[]).includes(r.category)) throw new AppError('AttachmentCategoryUnknown');
  }
  // A new file of a category replaces the facility's earlier one of that category.
  const replaced = existing.filter((e) => rows.some((r) => r.category === e.category));
  const kept = existing.filter((e) => !replaced.includes(e));
  const all = [...kept, ...rows];
  for (const category of new Set(all.map((r) => r.category))) {
    if (all.filter((r) => r.category === category).length > MAX_FILES_PER_CATEGORY) throw new AppError('AttachmentCountExceeded');
  }
  for (const category of rules.required) {
    if (!all.some((r) => r.category === category)) throw new AppError('AttachmentRequired', { category });
  }
  if (replaced.length) await tx.delete(facilityAttachments).where(inArray(facilityAttachments.id, replaced.map((r) => r.id)));
  if (rows.length) await tx.update(facilityAttachments).set({ facilityId }).where(inArray(facilityAttachments.id, rows.map((r) => r.id)));
}

export async function attachmentsOf(db: Db, facilityId: string): Promise<AttachmentRow[]> {
  return db.select().from(facilityAttachments).where(eq(facilityAttachments.facilityId, facilityId));
}
