import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { Permissions } from '../../../machines/permissions';
import { ATTACHMENT_CATEGORIES, ATTACHMENT_CATEGORY_CODES, FILE_EXTENSIONS } from '../../../machines/forms/attachment-categories';
import { ZErrorBody, ZFile, errorResponses } from '../../schemas';
import { FileStore } from './file-store';
import {
  attachmentForDownload,
  byteLimitOf,
  deleteAttachment,
  listAttachments,
  uploadAttachment,
  type AttachmentRow,
  type FilesOpen,
} from './service';
import { requestFileOwners, requestFilesOpen } from '../requests/service';
import { UploadError } from './errors';
import { AppError } from '../../../lib/app-error';
import { safeFileName } from '../../../lib/hostile-text';

const PREFIX = '/api/attachments';

const ZAttachment = z.object({
  id: z.string(),
  facilityPublicId: z.string(),
  requestId: z.string().nullable(),
  category: z.string(),
  name: z.string(),
  size: z.number(),
  contentType: z.string(),
  sha256: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  uploadedBy: z.string(),
  uploadedAt: z.string(),
  /** The request was submitted: the file can no longer be removed. */
  locked: z.boolean(),
  downloadUrl: z.string(),
});

function info(row: AttachmentRow): z.infer<typeof ZAttachment> {
  return {
    id: row.id,
    facilityPublicId: row.facilityPublicId,
    requestId: row.requestId,
    category: row.category,
    name: row.name,
    size: row.size,
    contentType: row.contentType,
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    uploadedBy: row.uploadedBy,
    uploadedAt: row.uploadedAt.toISOString(),
    locked: row.lockedAt !== null,
    downloadUrl: `${PREFIX}/${row.id}/download`,
  };
}

/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name (Arabic file names survive). */
export function contentDisposition(raw: string): string {
  const name = safeFileName(raw);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * Attachments: upload (multipart, one file), list, download, remove, and the limits the web shows next to each
 * file field. The multipart parser is registered here only, so no other route accepts multipart bodies by accident.
 */
const attachmentsModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { files: 1, fields: 10, parts: 11 } });
  const store = new FileStore(app.config.DATA_DIR);
  const maxUploadBytes = Math.floor(app.config.MAX_UPLOAD_MB * 1024 * 1024);
  const filesOpen: FilesOpen = (actor, requestId) => requestFilesOpen(app, actor, requestId);
  const deps = { db: app.db, store, maxUploadBytes, filesOpen };

  app.get(
    `${PREFIX}/limits`,
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['attachments'],
        summary: 'Accepted file types and the per-category limits (count, size, image pixels)',
        response: {
          200: z.object({
            maxUploadBytes: z.number(),
            fileTypes: z.array(z.string()),
            categories: z.array(
              z.object({
                code: z.string(),
                types: z.array(z.string()),
                maxFiles: z.number(),
                maxBytes: z.number(),
                maxWidth: z.number(),
                maxHeight: z.number(),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async () => ({
      maxUploadBytes,
      fileTypes: FILE_EXTENSIONS,
      categories: ATTACHMENT_CATEGORY_CODES.map((code) => {
        const r = ATTACHMENT_CATEGORIES[code];
        return { code, types: [...r.types], maxFiles: r.maxFiles, maxBytes: byteLimitOf(r, maxUploadBytes), maxWidth: r.maxWidth, maxHeight: r.maxHeight };
      }),
    }),
  );

  app.post(
    PREFIX,
    {
      config: { policy: [Permissions.portals.general, Permissions.portals.halalCenter] },
      schema: {
        tags: ['attachments'],
        summary: 'Upload one file (multipart/form-data, field "file") into a category of a facility or of its request',
        consumes: ['multipart/form-data'],
        querystring: z.object({
          facilityPublicId: z.string().min(1).max(100),
          category: z.string().min(1).max(100),
          requestId: z.uuid().optional(),
        }),
        response: { 201: ZAttachment, ...errorResponses },
      },
    },
    async (request, reply) => {
      const row = await uploadAttachment(deps, request.actor!, request.query, async (maxBytes) => {
        const part = request.isMultipart()
          ? await request.file({ limits: { fileSize: maxBytes, files: 1 }, throwFileSizeLimit: false })
          : undefined;
        if (!part) return undefined;
        return { filename: part.filename, mimetype: part.mimetype, stream: part.file, isTruncated: () => part.file.truncated };
      });
      return reply.status(201).send(info(row));
    },
  );

  app.get(
    PREFIX,
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['attachments'],
        summary: "The files of a facility, or those one of its requests may name: its own, and a renewal's prefilled ones (members of the facility and Halal-center staff)",
        querystring: z.object({ facilityPublicId: z.string().min(1).max(100), requestId: z.uuid().optional() }),
        response: { 200: z.array(ZAttachment), ...errorResponses },
      },
    },
    async (request) => {
      const { facilityPublicId, requestId } = request.query;
      const rows = await listAttachments(app.db, request.actor!, facilityPublicId, requestId ? await requestFileOwners(app, requestId) : undefined);
      return rows.map(info);
    },
  );

  app.get(
    `${PREFIX}/:id/download`,
    {
      config: { policy: 'authenticated', produces: '*' },
      schema: {
        tags: ['attachments'],
        summary: 'The file itself, for members of the owning facility and Halal-center staff',
        params: z.object({ id: z.uuid() }),
        response: { 200: ZFile, ...errorResponses },
      },
    },
    async (request, reply) => {
      const row = await attachmentForDownload(app.db, request.actor!, request.params.id);
      const content = await store.read(row.sha256);
      if (!content) {
        // Operators must hear of it: a file on record whose content is gone is lost data, not a user's mistake.
        request.log.error({ attachmentId: row.id, sha256: row.sha256 }, 'attachment content missing from the file store');
        throw new AppError(UploadError.ContentMissing);
      }
      return reply
        .header('content-type', row.contentType)
        .header('content-length', row.size)
        .header('content-disposition', contentDisposition(row.name))
        .header('cache-control', 'private, no-store')
        .send(content);
    },
  );

  app.delete(
    `${PREFIX}/:id`,
    {
      config: { policy: Permissions.portals.general },
      schema: {
        tags: ['attachments'],
        summary: "Remove a file from its owner's list (not once its request was submitted)",
        params: z.object({ id: z.uuid() }),
        response: { 204: z.null().describe('removed'), 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 409: ZErrorBody },
      },
    },
    async (request, reply) => {
      await deleteAttachment(app.db, request.actor!, request.params.id, filesOpen);
      return reply.status(204).send(null);
    },
  );
};

export default attachmentsModule;
