import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { fileTypeFromBuffer } from 'file-type';
import { contentPages, faqItems, newsItems } from '../../../db/schema';
import { Permissions } from '../../../machines/permissions';
import { AppError, AppErrorCode, registerErrorStatus } from '../../errors';
import { errorResponses } from '../../schemas';
import {
  NEWS_IMAGE_MAX_BYTES,
  NEWS_IMAGE_TYPES,
  ZContentPage,
  ZContentPageUpdate,
  ZFaqInput,
  ZFaqItem,
  ZFaqUpdate,
  ZNewsInput,
  ZNewsItem,
  ZNewsUpdate,
  ZPageKey,
  ZPaging,
} from './schemas';

registerErrorStatus({ 'InvalidNewsImage': 400 });

const ADMIN = Permissions.admin.manage;
const ZId = z.object({ id: z.uuid() });

type NewsRow = typeof newsItems.$inferSelect;
const newsOut = (n: Omit<NewsRow, 'image'> & { hasImage: boolean }) => ({
  id: n.id,
  titleAr: n.titleAr,
  titleEn: n.titleEn,
  summaryAr: n.summaryAr,
  summaryEn: n.summaryEn,
  bodyAr: n.bodyAr,
  bodyEn: n.bodyEn,
  imageAltAr: n.imageAltAr,
  imageAltEn: n.imageAltEn,
  // The version in the URL makes a replaced image a new URL, so the long cache below never shows a stale one.
  imageUrl: n.hasImage ? `/api/public/news/${n.id}/image?v=${n.version}` : null,
  publishedAt: n.publishedAt.toISOString(),
  version: n.version,
});

/** News columns without the image bytes (lists must not drag megabytes along). */
const newsColumns = {
  id: newsItems.id,
  titleAr: newsItems.titleAr,
  titleEn: newsItems.titleEn,
  summaryAr: newsItems.summaryAr,
  summaryEn: newsItems.summaryEn,
  bodyAr: newsItems.bodyAr,
  bodyEn: newsItems.bodyEn,
  imageAltAr: newsItems.imageAltAr,
  imageAltEn: newsItems.imageAltEn,
  imageType: newsItems.imageType,
  publishedAt: newsItems.publishedAt,
  version: newsItems.version,
  createdAt: newsItems.createdAt,
  updatedAt: newsItems.updatedAt,
};

/** Decodes and checks an uploaded image by its bytes, not by what the client claims. */
async function decodeImage(base64: string): Promise<{ bytes: Buffer; type: string }> {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw new AppError('InvalidNewsImage');
  if (bytes.length > NEWS_IMAGE_MAX_BYTES) throw new AppError('InvalidNewsImage');
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !(NEWS_IMAGE_TYPES as readonly string[]).includes(detected.mime)) throw new AppError('InvalidNewsImage');
  return { bytes, type: detected.mime };
}

/** Content pages, media-center news and FAQ: read by anyone, written by administrators (AbpIdentity.Manage). */
const contentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/public/pages/:key',
    {
      config: { policy: 'public' },
      schema: { tags: ['public'], params: z.object({ key: ZPageKey }), response: { 200: ZContentPage, ...errorResponses } },
    },
    async (request) => {
      const [page] = await app.db.select().from(contentPages).where(eq(contentPages.key, request.params.key));
      if (!page) throw new AppError(AppErrorCode.EntityNotFound);
      return { ...page, updatedAt: page.updatedAt.toISOString() };
    },
  );

  app.put(
    '/api/public/pages/:key',
    {
      config: { policy: ADMIN },
      schema: {
        tags: ['public'],
        params: z.object({ key: ZPageKey }),
        body: ZContentPageUpdate,
        response: { 200: ZContentPage, ...errorResponses },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body;
      const [page] = await app.db
        .update(contentPages)
        .set({ ...fields, version: version + 1, updatedAt: new Date(), updatedBy: request.actor!.userId })
        .where(and(eq(contentPages.key, request.params.key), eq(contentPages.version, version)))
        .returning();
      if (!page) {
        const [exists] = await app.db.select({ key: contentPages.key }).from(contentPages).where(eq(contentPages.key, request.params.key));
        throw new AppError(exists ? AppErrorCode.ConcurrencyConflict : AppErrorCode.EntityNotFound);
      }
      return { ...page, updatedAt: page.updatedAt.toISOString() };
    },
  );

  app.get(
    '/api/public/news',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['public'],
        querystring: ZPaging,
        response: { 200: z.object({ totalCount: z.number(), items: z.array(ZNewsItem) }), ...errorResponses },
      },
    },
    async (request) => {
      const { pageNumber, pageSize } = request.query;
      const [rows, [{ total }]] = await Promise.all([
        app.db
          .select(newsColumns)
          .from(newsItems)
          .orderBy(desc(newsItems.publishedAt), desc(newsItems.createdAt))
          .limit(pageSize)
          .offset((pageNumber - 1) * pageSize),
        app.db.select({ total: count() }).from(newsItems),
      ]);
      return { totalCount: total, items: rows.map((n) => newsOut({ ...n, hasImage: n.imageType !== null })) };
    },
  );

  app.get(
    '/api/public/news/:id',
    { config: { policy: 'public' }, schema: { tags: ['public'], params: ZId, response: { 200: ZNewsItem, ...errorResponses } } },
    async (request) => {
      const [n] = await app.db.select(newsColumns).from(newsItems).where(eq(newsItems.id, request.params.id));
      if (!n) throw new AppError(AppErrorCode.EntityNotFound);
      return newsOut({ ...n, hasImage: n.imageType !== null });
    },
  );

  app.get(
    '/api/public/news/:id/image',
    { config: { policy: 'public', produces: '*' }, schema: { tags: ['public'], params: ZId } },
    async (request, reply) => {
      const [n] = await app.db
        .select({ image: newsItems.image, imageType: newsItems.imageType })
        .from(newsItems)
        .where(eq(newsItems.id, request.params.id));
      if (!n?.image || !n.imageType) throw new AppError(AppErrorCode.NotFound);
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      return reply.type(n.imageType).send(n.image);
    },
  );

  app.post(
    '/api/public/news',
    {
      config: { policy: ADMIN },
      schema: { tags: ['public'], body: ZNewsInput, response: { 200: ZNewsItem, ...errorResponses } },
    },
    async (request) => {
      const { imageBase64, publishedAt, ...fields } = request.body;
      const image = imageBase64 ? await decodeImage(imageBase64) : null;
      const [n] = await app.db
        .insert(newsItems)
        .values({
          ...fields,
          image: image?.bytes ?? null,
          imageType: image?.type ?? null,
          ...(publishedAt ? { publishedAt: new Date(publishedAt) } : {}),
        })
        .returning();
      return newsOut({ ...n, hasImage: n.imageType !== null });
    },
  );

  app.put(
    '/api/public/news/:id',
    {
      config: { policy: ADMIN },
      schema: { tags: ['public'], params: ZId, body: ZNewsUpdate, response: { 200: ZNewsItem, ...errorResponses } },
    },
    async (request) => {
      const { imageBase64, publishedAt, version, ...fields } = request.body;
      const image = imageBase64 === undefined || imageBase64 === null ? imageBase64 : await decodeImage(imageBase64);
      const [n] = await app.db
        .update(newsItems)
        .set({
          ...fields,
          ...(image === undefined ? {} : { image: image?.bytes ?? null, imageType: image?.type ?? null }),
          ...(publishedAt ? { publishedAt: new Date(publishedAt) } : {}),
          version: version + 1,
          updatedAt: new Date(),
        })
        .where(and(eq(newsItems.id, request.params.id), eq(newsItems.version, version)))
        .returning();
      if (!n) {
        const [exists] = await app.db.select({ id: newsItems.id }).from(newsItems).where(eq(newsItems.id, request.params.id));
        throw new AppError(exists ? AppErrorCode.ConcurrencyConflict : AppErrorCode.EntityNotFound);
      }
      return newsOut({ ...n, hasImage: n.imageType !== null });
    },
  );

  app.delete(
    '/api/public/news/:id',
    {
      config: { policy: ADMIN },
      schema: { tags: ['public'], params: ZId, response: { 200: z.object({ ok: z.literal(true) }), ...errorResponses } },
    },
    async (request) => {
      const deleted = await app.db.delete(newsItems).where(eq(newsItems.id, request.params.id)).returning({ id: newsItems.id });
      if (deleted.length === 0) throw new AppError(AppErrorCode.EntityNotFound);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/public/faq',
    {
      config: { policy: 'public' },
      schema: { tags: ['public'], response: { 200: z.object({ items: z.array(ZFaqItem) }), ...errorResponses } },
    },
    async () => {
      const items = await app.db.select().from(faqItems).orderBy(asc(faqItems.sortOrder), asc(faqItems.questionEn));
      return { items };
    },
  );

  app.post(
    '/api/public/faq',
    { config: { policy: ADMIN }, schema: { tags: ['public'], body: ZFaqInput, response: { 200: ZFaqItem, ...errorResponses } } },
    async (request) => {
      const [item] = await app.db.insert(faqItems).values(request.body).returning();
      return item;
    },
  );

  app.put(
    '/api/public/faq/:id',
    {
      config: { policy: ADMIN },
      schema: { tags: ['public'], params: ZId, body: ZFaqUpdate, response: { 200: ZFaqItem, ...errorResponses } },
    },
    async (request) => {
      const { version, ...fields } = request.body;
      const [item] = await app.db
        .update(faqItems)
        .set({ ...fields, version: version + 1, updatedAt: new Date() })
        .where(and(eq(faqItems.id, request.params.id), eq(faqItems.version, version)))
        .returning();
      if (!item) {
        const [exists] = await app.db.select({ id: faqItems.id }).from(faqItems).where(eq(faqItems.id, request.params.id));
        throw new AppError(exists ? AppErrorCode.ConcurrencyConflict : AppErrorCode.EntityNotFound);
      }
      return item;
    },
  );

  app.delete(
    '/api/public/faq/:id',
    {
      config: { policy: ADMIN },
      schema: { tags: ['public'], params: ZId, response: { 200: z.object({ ok: z.literal(true) }), ...errorResponses } },
    },
    async (request) => {
      const deleted = await app.db.delete(faqItems).where(eq(faqItems.id, request.params.id)).returning({ id: faqItems.id });
      if (deleted.length === 0) throw new AppError(AppErrorCode.EntityNotFound);
      return { ok: true as const };
    },
  );
};
export default contentRoutes;
