import { z } from 'zod';
import { PUBLIC_CERTIFICATE_STATUSES } from './certificate-status';
import { MARK_BASES } from '../certificates/mark-state';
import { PUBLIC_PAGE_KEYS } from './page-meta';
import { zSearchText } from '../../schemas';

/** Paging fields of spec 01 section 3 (pageNumber is 1-based). */
export const ZPaging = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const ZPageKey = z.enum(PUBLIC_PAGE_KEYS);

const text = (max: number) => z.string().trim().min(1, 'required').max(max);

export const ZContentPage = z.object({
  key: z.string(),
  titleAr: z.string(),
  titleEn: z.string(),
  summaryAr: z.string(),
  summaryEn: z.string(),
  bodyAr: z.string(),
  bodyEn: z.string(),
  version: z.number(),
  updatedAt: z.string(),
});

export const ZContentPageUpdate = z.object({
  titleAr: text(200),
  titleEn: text(200),
  summaryAr: text(500),
  summaryEn: text(500),
  bodyAr: z.string().max(50_000),
  bodyEn: z.string().max(50_000),
  /** The version the editor loaded; a newer one in the database means someone else saved first (409). */
  version: z.number().int().min(1),
});

export const NEWS_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Largest news image accepted (decoded bytes). */
export const NEWS_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export const ZNewsItem = z.object({
  id: z.string(),
  titleAr: z.string(),
  titleEn: z.string(),
  summaryAr: z.string(),
  summaryEn: z.string(),
  bodyAr: z.string(),
  bodyEn: z.string(),
  imageAltAr: z.string(),
  imageAltEn: z.string(),
  /** Relative URL of the image on this portal, or null when the item has none. */
  imageUrl: z.string().nullable(),
  publishedAt: z.string(),
  version: z.number(),
});

export const ZNewsInput = z.object({
  titleAr: text(200),
  titleEn: text(200),
  summaryAr: text(500),
  summaryEn: text(500),
  bodyAr: z.string().max(50_000),
  bodyEn: z.string().max(50_000),
  imageAltAr: z.string().max(300).default(''),
  imageAltEn: z.string().max(300).default(''),
  /** Base64 of a PNG, JPEG or WebP image; omitted on update keeps the current image, null removes it. */
  imageBase64: z.string().max(Math.ceil((NEWS_IMAGE_MAX_BYTES * 4) / 3) + 4, 'imageTooLarge').nullable().optional(),
  publishedAt: z.iso.datetime({ offset: true }).optional(),
});
export const ZNewsUpdate = ZNewsInput.extend({ version: z.number().int().min(1) });

export const ZFaqItem = z.object({
  id: z.string(),
  questionAr: z.string(),
  questionEn: z.string(),
  answerAr: z.string(),
  answerEn: z.string(),
  keywordsAr: z.string(),
  keywordsEn: z.string(),
  sortOrder: z.number(),
  version: z.number(),
});

export const ZFaqInput = z.object({
  questionAr: text(300),
  questionEn: text(300),
  answerAr: text(3000),
  answerEn: text(3000),
  keywordsAr: z.string().max(500).default(''),
  keywordsEn: z.string().max(500).default(''),
  sortOrder: z.number().int().min(0).max(10_000).default(0),
});
export const ZFaqUpdate = ZFaqInput.extend({ version: z.number().int().min(1) });

export const ZHsItem = z.object({
  code: z.string(),
  level: z.number(),
  sectionCode: z.string(),
  parentCode: z.string().nullable(),
  descriptionEn: z.string(),
  descriptionAr: z.string().nullable(),
  halal: z.boolean(),
});

export const ZHsQuery = ZPaging.extend({
  /** Code digits (prefix match) or words (all must appear). */
  q: zSearchText(100),
  level: z.enum(['2', '4', '6']).transform((v) => Number(v) as 2 | 4 | 6).optional(),
  halalOnly: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});

export const ZHsTreeNode = z.object({
  code: z.string(),
  level: z.number(),
  nameEn: z.string(),
  nameAr: z.string().nullable(),
  halal: z.boolean(),
  containsHalal: z.boolean(),
  childCount: z.number(),
});

export const ZDualDate = z.object({
  iso: z.string(),
  gregorian: z.string(),
  hijri: z.object({ year: z.number(), month: z.number(), day: z.number() }).nullable(),
});

export const ZPublicStatus = z.enum(PUBLIC_CERTIFICATE_STATUSES);

export const ZCbQuery = ZPaging.extend({
  name: zSearchText(100),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'invalid')
    .optional(),
  category: z.string().trim().max(10).optional(),
  status: ZPublicStatus.optional(),
});

const ZParty = z.object({
  publicId: z.string(),
  nameAr: z.string(),
  nameEn: z.string(),
  countryCode: z.string(),
  countryNameAr: z.string(),
  countryNameEn: z.string(),
  city: z.string().nullable(),
});

export const ZAccreditedCb = ZParty.extend({
  certificate: z.object({
    number: z.string(),
    status: ZPublicStatus,
    categories: z.array(z.string()),
    issuedAt: ZDualDate,
    expiresAt: ZDualDate,
    verificationCode: z.string(),
  }),
});

export const ZVerification = z.object({
  found: z.boolean(),
  certificate: z
    .object({
      number: z.string(),
      legacyNumber: z.string().nullable(),
      kind: z.string(),
      status: ZPublicStatus,
      /** The status's label in the reader's language. */
      statusLabel: z.string(),
      /** A Halal mark read from the certificate it rests on: why (basis), that certificate, and a sentence in the reader's language. */
      basis: z.enum(MARK_BASES).nullable(),
      certificateNumber: z.string().nullable(),
      note: z.string().nullable(),
      daysRemaining: z.number(),
      scope: z.string().nullable(),
      categories: z.array(z.string()),
      products: z.array(
        z.object({
          nameAr: z.string(),
          nameEn: z.string(),
          brandAr: z.string().optional(),
          brandEn: z.string().optional(),
          hsCode: z.string().optional(),
        }),
      ),
      holder: ZParty,
      issuer: ZParty.nullable(),
      issuedAt: ZDualDate,
      validFrom: ZDualDate,
      expiresAt: ZDualDate,
    })
    .nullable(),
});

/** Spec 01 sections 5 and 9: the chat input is limited to 70 characters. */
export const CHAT_MESSAGE_MAX = 70;

export const ZChatReply = z.object({
  faqId: z.string().nullable(),
  question: z.string().nullable(),
  answer: z.string(),
  matched: z.boolean(),
  suggestions: z.array(z.object({ id: z.string(), question: z.string() })),
});
