import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { certificates, facilities } from '../../../db/schema';
import { AppError, AppErrorCode } from '../../errors';
import { errorResponses } from '../../schemas';
import { accreditedCbFilters, listAccreditedCbs } from './conformity-bodies';
import { byReaderName } from './reader-order';
import { publicStatusOf } from './certificate-status';
import { countryNames } from './countries';
import { parseHalalHsRules } from './halal-hs-rules';
import { countHsCodes, getHsCode, hsTreeChildren, searchHsCodes } from './hs-codes';
import { VERIFICATION_CODE_PATTERN, verifyCertificate } from './verification';
import { ZAccreditedCb, ZCbQuery, ZHsItem, ZHsQuery, ZHsTreeNode, ZPaging, ZVerification } from './schemas';

/** HS codes, accredited conformity bodies, certificate verification and our customers: open to everyone. */
const lookupRoutes: FastifyPluginAsyncZod = async (app) => {
  const rules = parseHalalHsRules(app.config.HALAL_HS_PREFIXES);

  app.get(
    '/api/public/hs-codes',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['public'],
        summary: 'Search HS codes by code prefix or words, with the count of matches',
        querystring: ZHsQuery,
        response: { 200: z.object({ totalCount: z.number(), halalCount: z.number(), items: z.array(ZHsItem) }), ...errorResponses },
      },
    },
    async (request) => searchHsCodes(app.db, rules, request.query),
  );

  app.get(
    '/api/public/hs-codes/count',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['public'],
        querystring: ZHsQuery.omit({ pageNumber: true, pageSize: true }),
        response: { 200: z.object({ count: z.number(), halalCount: z.number() }), ...errorResponses },
      },
    },
    async (request) => countHsCodes(app.db, rules, request.query),
  );

  app.get(
    '/api/public/hs-codes/tree',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['public'],
        summary: 'One level of the tree: sections, or the children of a section (roman numeral) or code',
        querystring: z.object({
          parent: z
            .string()
            .regex(/^([IVX]{1,5}|\d{2}|\d{4})$/, 'invalid')
            .optional(),
        }),
        response: { 200: z.object({ parent: z.string().nullable(), items: z.array(ZHsTreeNode) }), ...errorResponses },
      },
    },
    async (request) => {
      const items = await hsTreeChildren(app.db, rules, request.query.parent);
      if (!items) throw new AppError(AppErrorCode.EntityNotFound);
      return { parent: request.query.parent ?? null, items };
    },
  );

  app.get(
    '/api/public/hs-codes/:code',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['public'],
        params: z.object({ code: z.string().regex(/^\d{2,12}$/, 'invalid') }),
        response: {
          200: ZHsItem.extend({
            section: z.object({ code: z.string(), nameEn: z.string(), nameAr: z.string() }),
            ancestors: z.array(ZHsItem),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const item = await getHsCode(app.db, rules, request.params.code);
      if (!item) throw new AppError(AppErrorCode.EntityNotFound);
      return item;
    },
  );

  app.get(
    '/api/public/conformity-bodies',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['public'],
        summary: 'Accredited conformity bodies with their designation certificate status',
        querystring: ZCbQuery,
        response: { 200: z.object({ totalCount: z.number(), items: z.array(ZAccreditedCb) }), ...errorResponses },
      },
    },
    async (request) => listAccreditedCbs(app.db, request.query, request.lang),
  );

  app.get(
    '/api/public/conformity-bodies/filters',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['public'],
        response: {
          200: z.object({
            countries: z.array(z.object({ code: z.string(), countryNameAr: z.string(), countryNameEn: z.string() })),
            categories: z.array(z.string()),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => accreditedCbFilters(app.db, request.lang),
  );

  app.get(
    '/api/public/verify/:code',
    {
      config: { policy: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['public'],
        summary: 'Verification of a certificate or Halal mark from its QR code; found=false for unknown codes',
        params: z.object({ code: z.string().regex(VERIFICATION_CODE_PATTERN, 'invalid') }),
        response: { 200: ZVerification, ...errorResponses },
      },
    },
    // An unknown code is an answer, not an error: the page must say so plainly instead of showing an error screen.
    async (request) => {
      const found = await verifyCertificate(app.db, request.params.code);
      // A consumer scanning a mark must read why it cannot be relied on, in their language, not only a status word.
      const certificate = found && {
        ...found,
        statusLabel: request.t(`public:status.${found.status}`),
        note: found.basis ? request.t(`public:markBasis.${found.basis}`, { number: found.certificateNumber ?? '' }) : null,
      };
      return { found: certificate !== null, certificate };
    },
  );

  app.get(
    '/api/public/customers',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['public'],
        summary: 'Facilities holding a valid Halal certificate (our customers page)',
        querystring: ZPaging,
        response: {
          200: z.object({
            totalCount: z.number(),
            items: z.array(
              z.object({
                publicId: z.string(),
                nameAr: z.string(),
                nameEn: z.string(),
                type: z.string(),
                countryCode: z.string(),
                countryNameAr: z.string(),
                countryNameEn: z.string(),
                city: z.string().nullable(),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const now = new Date();
      const rows = await app.db
        .select({ facility: facilities, cert: certificates })
        .from(certificates)
        .innerJoin(facilities, eq(facilities.publicId, certificates.facilityPublicId))
        .where(inArray(certificates.kind, ['internalHalal', 'externalHalal']));
      const seen = new Map<string, (typeof rows)[number]['facility']>();
      for (const r of rows) {
        const status = publicStatusOf(r.cert, now);
        if (status === 'active' || status === 'expiringSoon') seen.set(r.facility.publicId, r.facility);
      }
      const all = [...seen.values()].map((f) => ({
        publicId: f.publicId,
        nameAr: f.nameAr,
        nameEn: f.nameEn,
        type: f.type,
        countryCode: f.countryCode,
        ...countryNames(f.countryCode),
        city: f.city,
      }));
      all.sort(byReaderName(request.lang));
      const { pageNumber, pageSize } = request.query;
      return { totalCount: all.length, items: all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize) };
    },
  );
};
export default lookupRoutes;
