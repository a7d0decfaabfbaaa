import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { facilityAttachments } from '../../../db/schema';
import { isStaff } from '../../../machines/roles';
import { AppError } from '../../errors';
import { safeFileName } from '../../../lib/hostile-text';
import { membershipOf } from './access';
import { ATTACHMENT_CATEGORIES, ATTACHMENT_RULES, MAX_ATTACHMENT_BYTES, readContent, storeUpload } from './attachments';
import { CATEGORY_TREE } from './cb-service';
import { DELEGABLE_PERMISSIONS } from '../../../machines/forms/facilities/permissions';
import { depsOf } from './deps';
import { acceptInvitation, invitationInfo } from './invitation-service';
import { actorOf, Policy } from './policies';
import { ZAttachmentDto } from '../../../machines/forms/facilities/schemas';

/**
 * Calls of ours that the spec's list does not name but its screens need: uploading and downloading the attachments
 * of facilities and CBs, the catalogues of the forms, and a new delegate's set-password link.
 */
const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);
  const db = deps.db;

  // The file is the request body, typed by its Content-Type; any type is read so that a wrong one gets the spec's
  // message rather than a bare 415.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_ATTACHMENT_BYTES + 1 }, (_req, body, done) => done(null, body));

  app.post(
    '/api/facility-attachments',
    {
      config: { policy: Policy.anyFacility },
      bodyLimit: MAX_ATTACHMENT_BYTES + 1,
      schema: {
        tags: ['FacilityAttachments'],
        querystring: z.object({ category: z.enum(ATTACHMENT_CATEGORIES), fileName: z.string().min(1, 'required').max(200, 'maxLength') }),
        response: { 200: ZAttachmentDto },
      },
    },
    async (request) => {
      const content = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const row = await storeUpload(deps, actorOf(request).userId, {
        category: request.query.category,
        fileName: request.query.fileName,
        declaredType: request.headers['content-type'] ?? '',
        content,
      });
      return { id: row.id, category: row.category, fileName: row.fileName, contentType: row.contentType, size: row.size };
    },
  );

  app.get(
    '/api/facility-attachments/:id',
    { config: { policy: 'authenticated' }, schema: { tags: ['FacilityAttachments'], params: z.object({ id: z.string().uuid('invalid') }) } },
    async (request, reply) => {
      const actor = actorOf(request);
      const [row] = await db.select().from(facilityAttachments).where(eq(facilityAttachments.id, request.params.id));
      // Downloads are restricted (spec 02 section 6): the uploader, users of the facility, Halal-center staff.
      const allowed =
        !!row &&
        (row.uploadedBy === actor.userId || isStaff(actor.permissions) || (!!row.facilityId && !!(await membershipOf(db, row.facilityId, actor.userId))));
      if (!row || !allowed) throw new AppError('AttachmentNotFound');
      const content = await readContent(deps, row);
      return reply
        .type(row.contentType)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(safeFileName(row.fileName))}`)
        .header('x-content-type-options', 'nosniff')
        .send(content);
    },
  );

  app.get(
    '/api/facility-catalogue',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['FacilityCatalogue'],
        response: {
          200: z.object({
            categories: z.array(z.object({ code: z.string(), subCategories: z.array(z.string()) })),
            delegablePermissions: z.record(z.string(), z.array(z.string())),
            attachmentRules: z.record(z.string(), z.object({ allowed: z.array(z.string()), required: z.array(z.string()) })),
            maxAttachmentBytes: z.number(),
          }),
        },
      },
    },
    async () => ({
      categories: CATEGORY_TREE,
      delegablePermissions: Object.fromEntries(Object.entries(DELEGABLE_PERMISSIONS).map(([k, v]) => [k, [...v]])),
      attachmentRules: ATTACHMENT_RULES,
      maxAttachmentBytes: MAX_ATTACHMENT_BYTES,
    }),
  );

  const ZToken = z.object({ token: z.string().min(20).max(100) });
  app.get(
    '/api/delegate-invitations/:token',
    { config: { policy: 'public' }, schema: { tags: ['DelegateInvitations'], params: ZToken, response: { 200: z.object({ userName: z.string(), name: z.string(), expiresAt: z.string() }) } } },
    async (request) => invitationInfo(db, request.params.token),
  );
  app.post(
    '/api/delegate-invitations/:token',
    {
      // The unguessable token is the credential; there is no session whose cookie a forged form could ride on.
      config: { policy: 'public', csrf: false, rateLimit: { max: app.config.LOGIN_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } },
      schema: { tags: ['DelegateInvitations'], params: ZToken, body: z.object({ password: z.string().min(1, 'required').max(128, 'maxLength') }), response: { 200: z.object({ userName: z.string() }) } },
    },
    async (request) => acceptInvitation(db, request.params.token, request.body.password),
  );
};
export default supportRoutes;
