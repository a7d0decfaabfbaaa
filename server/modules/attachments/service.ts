import { kindOfRequest, maySeeRequestOf, recordsReadable } from '../../../workflows/read-scope';
import type { Readable } from 'node:stream';
import { fileTypeFromFile } from 'file-type';
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client';
import { attachments, facilities, requests, users } from '../../../db/schema';
import { holdsForFacility, type Actor } from '../../../machines/actor';
import { FACILITY_ACCESS, FILE_WRITE_PERMISSIONS } from '../../../machines/forms/facilities/permissions';
import { Permissions } from '../../../machines/permissions';
import { workPermissionsOf } from '../../../machines/services/start-routes';
import {
  ATTACHMENT_CATEGORIES,
  FILE_TYPES,
  extensionOf,
  hasAtMostOneDot,
  isAttachmentCategory,
  type AttachmentCategory,
  type AttachmentCategoryRule,
  type FileExtension,
} from '../../../machines/forms/attachment-categories';
import { FormMessage } from '../../../machines/forms/messages';
import { AppError, AppErrorCode } from '../../errors';
import { safeFileName } from '../../../lib/hostile-text';
import { UploadError } from './errors';
import type { FileStore } from './file-store';
import { readImageSize } from './image-size';
import { actorOf } from '../../plugins/auth';
import { inFileScope, type FileScope } from '../requests/server-checks';

export type AttachmentRow = typeof attachments.$inferSelect;

export interface UploadTarget {
  facilityPublicId: string;
  requestId?: string | null;
  category: string;
}

/**
 * The file part of a multipart request. The service asks for it (`nextFile(maxBytes)`) only after the caller is
 * authorised, so nobody streams bytes into a refusal, and names the byte limit the parser should cut at.
 */
export interface IncomingFile {
  filename: string;
  /** The Content-Type the client declared for the part. */
  mimetype: string;
  stream: Readable;
  /** True when the multipart parser cut the file at its size limit. */
  isTruncated(): boolean;
}

export interface UploadDeps {
  db: Db;
  store: FileStore;
  /** Global per-file limit in bytes (MAX_UPLOAD_MB); a category may allow less. */
  maxUploadBytes: number;
  /** Whether the actor may change the form's files of a request now (its machine allows editing them). */
  filesOpen: FilesOpen;
}

export type FilesOpen = (actor: Actor, requestId: string) => Promise<boolean>;

/** Whether a request's lifecycle has ended (its machine reached a final state): nothing is added to it or taken away. */
const machineDone = sql<boolean>`coalesce(${requests.snapshot}->>'status' = 'done', false)`;

/** Content types a client may declare for each extension (old browsers send the x-/p- variants). */
const DECLARED_TYPES: Record<FileExtension, readonly string[]> = {
  pdf: ['application/pdf', 'application/x-pdf'],
  png: ['image/png', 'image/x-png'],
  jpg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  jpeg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
};

const isStaff = (actor: Actor) => actor.permissions.includes(Permissions.portals.halalCenter);
const isMember = (actor: Actor, facilityPublicId: string) => actor.facilityIds.includes(facilityPublicId);
/** A facility has one type, so holding any type's view permission for it is holding its own. */
const VIEW_PERMISSIONS = Object.values(FACILITY_ACCESS).map((a) => a.view);
/** A member who may change the facility's files: the delegated permissions are per facility. */
const mayWrite = (actor: Actor, facilityPublicId: string) =>
  isMember(actor, facilityPublicId) && holdsForFacility(actor, facilityPublicId, FILE_WRITE_PERMISSIONS);

/** A member who may work a request of this kind in the facility (its service's permission, delegated per facility). */
const mayWorkRequest = (actor: Actor, facilityPublicId: string, kind: string) => holdsForFacility(actor, facilityPublicId, workPermissionsOf(kind));

/**
 * Files of a facility are seen by its members who may see the facility and by Halal-center staff (spec 02
 * section 6: downloads are restricted).
 */
export const maySee = (actor: Actor, facilityPublicId: string) =>
  (isMember(actor, facilityPublicId) && holdsForFacility(actor, facilityPublicId, VIEW_PERMISSIONS)) || isStaff(actor);

export function ruleOf(category: string): AttachmentCategoryRule & { category: AttachmentCategory } {
  if (!isAttachmentCategory(category)) throw new AppError(UploadError.UnknownCategory, { category });
  return { ...ATTACHMENT_CATEGORIES[category], category };
}

/** The byte limit of a category under the configured global limit. */
export const byteLimitOf = (rule: AttachmentCategoryRule, maxUploadBytes: number) => Math.min(rule.maxKb * 1024, maxUploadBytes);

/** Megabytes with at most two decimals, for messages ("1", "0.5", "50"). */
export const megabytes = (bytes: number): number => +(bytes / (1024 * 1024)).toFixed(2);

/**
 * Who may put a file where: members of the facility, any category; Halal-center staff only into a facility's
 * request and only the categories staff produce (audit reports, test certificates). Also checks that the
 * facility and request exist and belong together.
 */
async function authorizeUpload(deps: UploadDeps, actor: Actor, target: UploadTarget, rule: AttachmentCategoryRule): Promise<void> {
  const db = deps.db;
  const [facility] = await db.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, target.facilityPublicId));
  const [request] = target.requestId
    ? await db
        .select({ facilityPublicId: requests.facilityPublicId, kind: requests.kind, done: machineDone })
        .from(requests)
        .where(and(eq(requests.id, target.requestId), isNull(requests.deletedAt)))
    : [];
  // Into a request, a member adds files only while they may work that request there (its service's permission, as its
  // applicant steps need), case documents included: editing the facility's profile is no say in its requests.
  const member = mayWrite(actor, target.facilityPublicId) && (!request || mayWorkRequest(actor, target.facilityPublicId, request.kind));
  const staffMay = isStaff(actor) && rule.staffMayUpload && !!target.requestId;
  if (!member && !staffMay) throw new AppError(UploadError.UnauthorizedUpload);
  if (!facility) throw new AppError(AppErrorCode.EntityNotFound);
  if (target.requestId) {
    if (!request) throw new AppError(AppErrorCode.EntityNotFound);
    if (request.facilityPublicId !== target.facilityPublicId) throw new AppError(UploadError.UnauthorizedUpload);
    // A submitted request's form files are frozen unless its files were returned; case documents (audit reports,
    // corrective-action evidence) are added while the case runs, never once it has ended (a completed shipment).
    if (request.done || (!rule.staffMayUpload && !(await deps.filesOpen(actor, target.requestId)))) throw new AppError(UploadError.AttachmentLocked);
  }
}

/** The name as stored: without any client path, normalised, without control characters. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  return safeFileName(base.normalize('NFC').replace(/\p{Cc}/gu, ''));
}

/**
 * Checks a file's name and declared type against the category before any byte is read: at most one dot, an
 * accepted extension the category takes, and a declared content type that is the extension's.
 */
export function checkNameAndType(filename: string, mimetype: string, rule: AttachmentCategoryRule): { name: string; ext: FileExtension } {
  const name = cleanFileName(filename);
  if (!name || name.length > 255) throw new AppError(UploadError.InvalidFileType, { allowed: allowedList(rule) });
  if (!hasAtMostOneDot(name)) throw new AppError(UploadError.TwoDotsInName);
  const ext = extensionOf(name);
  if (!(rule.types as readonly string[]).includes(ext)) throw new AppError(UploadError.InvalidFileType, { allowed: allowedList(rule) });
  const declared = mimetype.split(';')[0].trim().toLowerCase();
  if (!DECLARED_TYPES[ext as FileExtension].includes(declared)) throw new AppError(UploadError.ContentTypeMismatch);
  return { name, ext: ext as FileExtension };
}

const allowedList = (rule: AttachmentCategoryRule) => rule.types.map((t) => t.toUpperCase()).join(', ');

function ownerScope(target: UploadTarget, category: string) {
  return and(
    eq(attachments.facilityPublicId, target.facilityPublicId),
    target.requestId ? eq(attachments.requestId, target.requestId) : isNull(attachments.requestId),
    eq(attachments.category, category),
    isNull(attachments.deletedAt),
  );
}

/** The files that count toward a category's limit: those not deleted (a returned request's files are replaced by deleting them). */
async function countInScope(db: Pick<Db, 'select'>, target: UploadTarget, category: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(attachments).where(ownerScope(target, category));
  return row.n;
}

/**
 * Accepts one uploaded file (spec 02 sections 5, 8 and 9). Checks in the order that costs least: category,
 * caller, name and declared type, the category's count; then streams the bytes to disk (cut at the size limit)
 * and checks size, magic bytes and image dimensions; then makes the file durable and only then records the row,
 * re-counting under a lock on the facility so two parallel uploads cannot pass the count together.
 */
export async function uploadAttachment(
  deps: UploadDeps,
  actor: Actor,
  target: UploadTarget,
  nextFile: (maxBytes: number) => Promise<IncomingFile | undefined>,
): Promise<AttachmentRow> {
  const rule = ruleOf(target.category);
  await authorizeUpload(deps, actor, target, rule);
  const limit = byteLimitOf(rule, deps.maxUploadBytes);
  const file = await nextFile(limit);
  if (!file) throw new AppError(UploadError.NoFile);
  const { name, ext } = checkNameAndType(file.filename, file.mimetype, rule);
  if ((await countInScope(deps.db, target, rule.category)) >= rule.maxFiles) {
    throw new AppError(UploadError.TooManyFiles, { max: rule.maxFiles });
  }

  const received = await deps.store.receive(file.stream, limit, file.isTruncated);
  let committed = false;
  try {
    if (received.truncated) throw new AppError(UploadError.ExceedsSize, { limitMb: megabytes(limit) });
    const detected = received.size > 0 ? await fileTypeFromFile(received.tmpPath) : undefined;
    const mime = FILE_TYPES[ext];
    if (detected?.mime !== mime) throw new AppError(UploadError.ContentMismatch);
    let size: { width: number; height: number } | null = null;
    if (mime !== 'application/pdf') {
      size = await readImageSize(received.tmpPath, mime);
      if (!size || size.width === 0 || size.height === 0) throw new AppError(UploadError.ContentMismatch);
      if (size.width > rule.maxWidth || size.height > rule.maxHeight) {
        throw new AppError(UploadError.ExceedsDimensions, { maxWidth: rule.maxWidth, maxHeight: rule.maxHeight });
      }
    }
    await deps.store.commit(received);
    committed = true;

    return await deps.db.transaction(async (tx) => {
      await tx.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, target.facilityPublicId)).for('update');
      if ((await countInScope(tx, target, rule.category)) >= rule.maxFiles) throw new AppError(UploadError.TooManyFiles, { max: rule.maxFiles });
      const [inserted] = await tx
        .insert(attachments)
        .values({
          facilityPublicId: target.facilityPublicId,
          requestId: target.requestId ?? null,
          category: rule.category,
          name,
          size: received.size,
          contentType: mime,
          sha256: received.sha256,
          width: size?.width ?? null,
          height: size?.height ?? null,
          uploadedBy: actor.userId,
        })
        .returning();
      return inserted;
    });
  } finally {
    if (!committed) await deps.store.discard(received);
  }
}

/** An attachment the actor may download, or the "unauthorized download" refusal. */
export async function attachmentForDownload(db: Db, actor: Actor, id: string): Promise<AttachmentRow> {
  const [row] = await db.select().from(attachments).where(and(eq(attachments.id, id), isNull(attachments.deletedAt)));
  if (!row) throw new AppError(AppErrorCode.EntityNotFound);
  // A request's file is read as the request is (workflows/read-scope.ts): not by a delegate of another service.
  if (!maySee(actor, row.facilityPublicId) || (row.requestId && !maySeeRequestOf(actor, row.facilityPublicId, await kindOfRequest(db, row.requestId)))) {
    throw new AppError(UploadError.UnauthorizedDownload);
  }
  return row;
}

/**
 * The files of a facility, or those a request may name: its own and, for a renewal, those named by the request that
 * issued its certificate (`owners`, requests/service.ts requestFileOwners), so the renewal's prefilled files show their names.
 */
export async function listAttachments(db: Db, actor: Actor, facilityPublicId: string, owners?: FileScope): Promise<AttachmentRow[]> {
  if (!maySee(actor, facilityPublicId)) throw new AppError(AppErrorCode.NotAuthorized);
  return db
    .select()
    .from(attachments)
    .where(
      and(
        eq(attachments.facilityPublicId, facilityPublicId),
        owners ? inFileScope(owners) : undefined,
        isNull(attachments.deletedAt),
        // Not the files of the requests of a service the reader may not see (a delegate's).
        recordsReadable(actor, attachments.facilityPublicId, attachments.requestId),
      ),
    )
    .orderBy(attachments.uploadedAt);
}

/** Whether the file's uploader is Halal-center staff (by their roles now, as every permission is read). */
async function uploadedByStaff(db: Db, userId: string): Promise<boolean> {
  const [uploader] = await db.select({ roles: users.roles }).from(users).where(eq(users.id, userId));
  return !!uploader && isStaff(await actorOf({ db }, userId, uploader.roles));
}

/**
 * Removes a file from its owner's list; only members of the facility. A request's file only while the request's
 * files are open (draft, or returned with its attachment section); an unlocked case document until it is locked.
 */
export async function deleteAttachment(db: Db, actor: Actor, id: string, filesOpen: FilesOpen): Promise<void> {
  const [row] = await db.select().from(attachments).where(and(eq(attachments.id, id), isNull(attachments.deletedAt)));
  if (!row) throw new AppError(AppErrorCode.EntityNotFound);
  if (!mayWrite(actor, row.facilityPublicId)) throw new AppError(AppErrorCode.NotAuthorized);
  const [request] = row.requestId ? await db.select({ kind: requests.kind, done: machineDone }).from(requests).where(eq(requests.id, row.requestId)) : [];
  if (request && !mayWorkRequest(actor, row.facilityPublicId, request.kind)) throw new AppError(AppErrorCode.NotAuthorized);
  // A document the Halal center put into the request (an audit report, a finding's document) is the center's record
  // of the case: the facility's users do not remove it.
  if (row.uploadedBy !== actor.userId && (await uploadedByStaff(db, row.uploadedBy))) throw new AppError(AppErrorCode.NotAuthorized);
  const caseDocument = isAttachmentCategory(row.category) && ATTACHMENT_CATEGORIES[row.category].staffMayUpload;
  const open = row.requestId ? await filesOpen(actor, row.requestId) : !row.lockedAt;
  const ended = request?.done ?? false;
  if (ended || (!open && !(caseDocument && !row.lockedAt))) throw new AppError(UploadError.AttachmentLocked);
  await db.update(attachments).set({ deletedAt: new Date() }).where(eq(attachments.id, id));
}

/**
 * Links facility-level files (uploaded before the request's draft existed) to a request. Only the facility's own,
 * unlinked, not deleted files move; returns how many did.
 */
export async function attachToRequest(db: Db, facilityPublicId: string, requestId: string, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  const moved = await db
    .update(attachments)
    .set({ requestId })
    .where(
      and(
        inArray(attachments.id, [...ids]),
        eq(attachments.facilityPublicId, facilityPublicId),
        isNull(attachments.requestId),
        isNull(attachments.deletedAt),
      ),
    )
    .returning({ id: attachments.id });
  return moved.length;
}

/** Freezes a request's files when it is submitted or resubmitted (requests/service.ts sendRequestEvent). */
export async function lockRequestAttachments(db: Db | Tx, requestId: string): Promise<void> {
  await db
    .update(attachments)
    .set({ lockedAt: sql`coalesce(${attachments.lockedAt}, now())` })
    .where(and(eq(attachments.requestId, requestId), isNull(attachments.deletedAt)));
}

/** Locks the named files of a request (those an audit answer names: requests/service.ts sendRequestEvent). */
export async function lockAttachments(db: Db | Tx, requestId: string, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await db
    .update(attachments)
    .set({ lockedAt: sql`coalesce(${attachments.lockedAt}, now())` })
    .where(and(eq(attachments.requestId, requestId), inArray(attachments.id, [...ids]), isNull(attachments.deletedAt)));
}

/**
 * Opens a request's files again when it is back in draft (cancelled while awaiting payment): its submission no longer
 * stands, so they are removed and replaced as any draft's files are. Files of other requests it names stay as they are.
 */
export async function unlockRequestAttachments(db: Db | Tx, requestId: string): Promise<void> {
  await db.update(attachments).set({ lockedAt: null }).where(and(eq(attachments.requestId, requestId), isNull(attachments.deletedAt)));
}

/**
 * "At least one attachment required" (spec 02 section 8): refuses when the request lacks a file of a required
 * category; each missing category is a validation detail `attachments.<category>`.
 */
export async function requireAttachments(db: Db, requestId: string, required: readonly AttachmentCategory[]): Promise<void> {
  if (!required.length) return;
  const rows = await db
    .selectDistinct({ category: attachments.category })
    .from(attachments)
    .where(and(eq(attachments.requestId, requestId), isNull(attachments.deletedAt), inArray(attachments.category, [...required])));
  const present = new Set(rows.map((r) => r.category));
  const missing = required.filter((c) => !present.has(c));
  if (missing.length) {
    const details = missing.map((c) => ({ field: `attachments.${c}`, message: FormMessage.attachmentRequired }));
    throw new AppError(UploadError.AttachmentRequired, {}, details);
  }
}

/** Deletes stored files no row references (see FileStore.sweep); run it now and then, e.g. daily. */
export async function sweepOrphanFiles(db: Db, store: FileStore, minAgeMs = 60 * 60_000): Promise<string[]> {
  return store.sweep(async (sha256) => {
    const [row] = await db.select({ id: attachments.id }).from(attachments).where(eq(attachments.sha256, sha256)).limit(1);
    return !!row;
  }, minAgeMs);
}
