import { z } from 'zod';
import { ZBillRefund } from './refund';

/**
 * What the records screens (certificates list, invoices) receive: the server declares its answers with these schemas
 * and the web takes their types from here, so the two cannot drift apart.
 */

/** A bill (invoice) as the invoice screens and the bill file show it (spec 02 section 3, invoice and bill). */
export const ZBill = z.object({
  id: z.string(),
  number: z.string(),
  /** The name shown for the bill: the fee, a Halal-mark bill with its product count, a bulk bill with its month. */
  name: z.string(),
  /** The government payment portal's reference; null until the bill is issued there (first payment attempt). */
  paymentReference: z.string().nullable(),
  /** True once the bill has a payment reference at the payment portal. */
  issued: z.boolean(),
  /** A month-end bulk invoice (several requests); `period` is its Gregorian month. */
  bulk: z.boolean(),
  period: z.string().nullable(),
  /** Products a Halal-mark bill is for; null for other bills. */
  productCount: z.number().nullable(),
  /** ISO instants. */
  date: z.string(),
  dueAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  service: z.object({ code: z.number(), name: z.string() }),
  feeKind: z.object({ code: z.string(), name: z.string() }),
  requestId: z.string().nullable(),
  requestNumber: z.string().nullable(),
  facility: z.object({ publicId: z.string(), type: z.string(), nameAr: z.string(), nameEn: z.string() }),
  /** SAR, two decimals: without VAT, the VAT, and the total with VAT, as stored. */
  amount: z.string(),
  vat: z.string(),
  total: z.string(),
  /** Halal-mark packages: the carried-over credit (SAR, excluding VAT) already taken off `amount`; null for other bills. */
  credit: z.string().nullable(),
  status: z.object({ code: z.number(), label: z.string() }),
  /** Refunds staff recorded as made for payments of this bill that were owed one (usually none, at most one a payment). */
  refunds: z.array(ZBillRefund),
});
export type BillJson = z.infer<typeof ZBill>;

const ZPartyName = z.object({ publicId: z.string(), nameAr: z.string(), nameEn: z.string() });

/** A renewal service offered from a certificate: its kind and its start path. */
export const ZRenewalOffer = z.object({ kind: z.string(), start: z.string() });
/** An open renewal request of a certificate: linked instead of a second renewal. */
export const ZOpenRenewal = z.object({ id: z.string(), number: z.string(), kind: z.string() });
export type OpenRenewalJson = z.infer<typeof ZOpenRenewal>;

/** One row of the certificates list. */
export const ZCertificateSummary = z.object({
  id: z.string(),
  number: z.string(),
  /** The certificate's number in the old system, when migrated. */
  legacyNumber: z.string().nullable(),
  kind: z.string(),
  kindLabel: z.string(),
  status: z.object({ code: z.number(), public: z.string(), label: z.string() }),
  holder: ZPartyName,
  issuer: ZPartyName.nullable(),
  productCount: z.number(),
  brands: z.array(z.object({ ar: z.string(), en: z.string() })),
  /** The product of a Halal mark (a mark is issued per product); null for certificates. */
  product: z.object({ nameAr: z.string(), nameEn: z.string() }).nullable(),
  issuedAt: z.string(),
  expiresAt: z.string(),
  /**
   * The renewal service to offer now (the caller holds the certificate, its window is open, and no renewal of it is
   * open); null otherwise.
   */
  renewal: ZRenewalOffer.nullable(),
  /** The caller's renewal request of it that is still open (the start refuses a second one); null otherwise. */
  openRenewal: ZOpenRenewal.nullable(),
});
export type CertificateSummaryJson = z.infer<typeof ZCertificateSummary>;

export const CERTIFICATE_STATUS_FILTERS = ['active', 'expiringSoon', 'expired', 'suspended', 'validSoon'] as const;
/**
 * A Halal mark may be cancelled (its own lifecycle, machines/halal-mark.ts); it reads suspended while the certificate it
 * rests on is, and withdrawn once its product is no longer on that certificate (a reading, not a stored status).
 */
export const MARK_STATUS_FILTERS = ['active', 'expiringSoon', 'expired', 'validSoon', 'suspended', 'withdrawn', 'cancelled'] as const;

const ZDualDate = z.object({
  iso: z.string(),
  gregorian: z.string(),
  hijri: z.object({ year: z.number(), month: z.number(), day: z.number() }).nullable(),
});
const ZParty = z.object({
  publicId: z.string(),
  type: z.string(),
  nameAr: z.string(),
  nameEn: z.string(),
  registrationNumber: z.string().nullable(),
  countryCode: z.string(),
  city: z.string().nullable(),
});

/** The certificate page. */
export const ZCertificate = z.object({
  id: z.string(),
  number: z.string(),
  legacyNumber: z.string().nullable(),
  kind: z.string(),
  kindLabel: z.string(),
  /**
   * `note`: for a Halal mark read from the certificate it rests on (suspended, expired, its product no longer on it),
   * why, in the reader's language; null otherwise.
   */
  status: z.object({ code: z.number(), public: z.string(), label: z.string(), note: z.string().nullable() }),
  holder: ZParty,
  issuer: ZParty.nullable(),
  scope: z.string().nullable(),
  categories: z.array(z.string()),
  products: z.array(
    z.object({
      nameAr: z.string(),
      nameEn: z.string(),
      brandAr: z.string().optional(),
      brandEn: z.string().optional(),
      hsCode: z.string().optional(),
      globalHsCode: z.string().optional(),
      /** Spec 02 section 3 "Product": its number in the national food authority system. */
      productNumber: z.string().optional(),
      category: z.string().optional(),
      // A shipment certificate's goods (machines/services/types.ts CertificateProduct).
      line: z.enum(['product', 'slaughter']).optional(),
      quantity: z.number().optional(),
      netWeight: z.number().optional(),
      unit: z.number().optional(),
      slaughterFacility: z.string().optional(),
      /** Spec 02 section 4 / 8 (119): its category is outside the designation of the CB that issued the certificate. */
      deactivated: z.boolean().optional(),
    }),
  ),
  issuedAt: ZDualDate,
  validFrom: ZDualDate,
  expiresAt: ZDualDate,
  verificationCode: z.string(),
  verificationUrl: z.string(),
  requestId: z.string().nullable(),
  requestNumber: z.string().nullable(),
  /** For a Halal mark: the certificate it was issued against; null otherwise. */
  certificate: z.object({ id: z.string(), number: z.string() }).nullable(),
  /**
   * The renewal service to offer now (the caller holds the certificate, its window is open, and no renewal of it is
   * open); null otherwise.
   */
  renewal: ZRenewalOffer.nullable(),
  /** The caller's renewal request of it that is still open (the start refuses a second one); null otherwise. */
  openRenewal: ZOpenRenewal.nullable(),
  /**
   * Whether the caller may read its lifecycle (`/api/requests/<id>`, its actions and history): staff and the holder's
   * members, when it has one. The issuing CB sees the certificate but not its lifecycle.
   */
  lifecycle: z.boolean(),
});
export type CertificateJson = z.infer<typeof ZCertificate>;
