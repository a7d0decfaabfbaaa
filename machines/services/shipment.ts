import { z } from 'zod';
import { startOf } from './start-routes';
import { FormMessage as M } from '../forms/messages';
import { freeTextField, hsCodeField, nameLikeField, requiredOrInvalid, toNumber, weightField } from '../forms/fields';
import { unitField } from '../forms/product';
import { MAIN_CATEGORIES } from '../forms/catalogues';
import type { HsRulesSource } from '../forms/hs-relevance';
import { UNIFIED_NUMBER_RE, CR_NUMBER_RE } from '../forms/facilities/formats';
import { draftObject, draftShape, enumField, optionalField, type IssueSink } from '../forms/parts';
import { riyadhDate } from '../working-days';
import { shipmentFee, toGrams } from './fees';
import { readSection } from './project';
import { emptyProjection, type CertificateProduct, type SectionDefinition, type ServiceDefinition } from './types';

/**
 * Shipment certificates (request types 100 and 200; set B 1007 -> 1008): one consignment of an external factory,
 * priced on the server at 1,000 SAR per started 27 t of total net weight of its products and slaughters.
 */

const isoDate = () =>
  z
    .string({ error: requiredOrInvalid })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, M.invalid)
    // Runs after a failed pattern too (zod goes on checking): a text that is no date at all must not throw (a 500).
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), M.invalid);
const text = (max = 200) => freeTextField(max);
const LIST_MAX = 500;

/** Spec 02 section 3 "Shipment request". */
const importerShape = () => ({
  name: nameLikeField(),
  crNumber: z.string({ error: requiredOrInvalid }).trim().regex(CR_NUMBER_RE, M.crNumberFormat),
  /** Pattern 70X XXX XXXX; spaces allowed as written. */
  unifiedNumber: z
    .string({ error: requiredOrInvalid })
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(z.string().regex(UNIFIED_NUMBER_RE, M.unifiedNumberFormat)),
  registrationExpiry: optionalField(isoDate()),
  status: optionalField(text(50)),
  activity: optionalField(text()),
});
const exporterShape = () => ({ name: nameLikeField() });
const shippingShape = () => ({
  countryCode: z.string({ error: requiredOrInvalid }).trim().toUpperCase().regex(/^[A-Z]{2}$/, M.invalid),
  method: z.enum(['sea', 'air', 'land'], { error: requiredOrInvalid }),
  port: text(),
  portOfEntry: text(),
});
const numberAndDate = () => z.object({ number: text(50), date: isoDate() }, { error: M.invalid });
const otherShape = () => ({
  billOfLading: optionalField(numberAndDate()),
  healthCertificate: optionalField(numberAndDate()),
  arrivalCountryCode: z.string({ error: requiredOrInvalid }).trim().toUpperCase().regex(/^[A-Z]{2}$/, M.invalid),
  arrivalPort: text(),
  arrivalMethod: z.enum(['sea', 'air', 'land'], { error: requiredOrInvalid }),
  containerNumbers: z.array(text(20), { error: M.invalid }).max(LIST_MAX, M.tooManyItems).default([]),
  invoices: z.array(z.object({ number: text(50), attachmentId: z.uuid({ error: M.invalid }) }), { error: M.invalid }).max(LIST_MAX, M.tooManyItems).default([]),
  /** The CB that issued the factory's certificate and exports the shipment. */
  exportingCbPublicId: text(100),
});

/** Today on the authority's clock (Riyadh), as every date the portal shows. */
const today = () => riyadhDate(Date.now());

/** Gross at least net; the actual (weighed) gross not more than 10 % below the declared gross (spec 02 sections 5, 9). */
export const GROSS_TOLERANCE = 0.1;

const productLineShape = (hsRules?: HsRulesSource) => ({
  saudiHsCode: hsCodeField(hsRules),
  globalHsCode: hsCodeField(hsRules),
  quantity: z.preprocess(toNumber, z.number({ error: requiredOrInvalid }).int(M.integerOnly).min(1, M.invalid).max(10_000_000, M.invalid)),
  amount: optionalField(z.preprocess(toNumber, z.number({ error: M.invalid }).min(0, M.invalid).max(1e12, M.invalid))),
  netWeight: weightField(),
  grossWeight: weightField(),
  actualGrossWeight: weightField(),
  unit: unitField(),
  productionDate: isoDate(),
  expiryDate: isoDate(),
});
/**
 * A line's rules, on a complete line and on a draft's row alike: each compares the fields it names once they are
 * filled, so no door (draft save, start, submission) stores weights or dates that break them.
 */
function productLineRules(p: Partial<{ netWeight: number; grossWeight: number; actualGrossWeight: number; productionDate: string; expiryDate: string }>, ctx: IssueSink) {
  const { netWeight: net, grossWeight: gross, actualGrossWeight: actual } = p;
  if (gross !== undefined && net !== undefined && gross < net) ctx.addIssue({ code: 'custom', message: M.grossBelowNet, path: ['grossWeight'] });
  if (actual !== undefined && gross !== undefined && actual < gross * (1 - GROSS_TOLERANCE)) ctx.addIssue({ code: 'custom', message: 'actualGrossTooLow', path: ['actualGrossWeight'] });
  if (p.expiryDate && p.productionDate && p.expiryDate < p.productionDate) ctx.addIssue({ code: 'custom', message: 'form.expiryBeforeProduction', path: ['expiryDate'] });
  // Goods are shipped once made and before they expire (README, choices; as the slaughter date, spec 02 section 5): a
  // production date after today, or goods already expired, would be certified Halal for what cannot be shipped.
  if (p.productionDate && p.productionDate > today()) ctx.addIssue({ code: 'custom', message: 'form.productionDateFuture', path: ['productionDate'] });
  if (p.expiryDate && p.expiryDate < today()) ctx.addIssue({ code: 'custom', message: 'form.goodsExpired', path: ['expiryDate'] });
}

const slaughterShape = (hsRules?: HsRulesSource) => ({
  slaughterFacility: nameLikeField(),
  slaughterDate: isoDate(),
  cuttingType: text(100),
  category: enumField(MAIN_CATEGORIES, M.categoryInvalid),
  netWeight: weightField(),
  actualWeight: weightField(),
  unit: unitField(),
  saudiHsCode: hsCodeField(hsRules),
  globalHsCode: hsCodeField(hsRules),
});
function slaughterRules(s: Partial<{ netWeight: number; actualWeight: number; slaughterDate: string }>, ctx: IssueSink) {
  if (s.actualWeight !== undefined && s.netWeight !== undefined && s.actualWeight < s.netWeight) ctx.addIssue({ code: 'custom', message: 'actualAtLeastNet', path: ['actualWeight'] });
  if (s.slaughterDate && s.slaughterDate > today()) ctx.addIssue({ code: 'custom', message: 'form.slaughterDateFuture', path: ['slaughterDate'] });
}

/** A draft's rows: every field optional, filled fields valid, and the line's rules over what is filled. */
const draftRows = <S extends Record<string, z.ZodType>>(shape: S, rules: (row: Record<string, unknown>, ctx: IssueSink) => void) =>
  z
    .array(z.object(draftShape(shape), { error: M.invalid }).superRefine((row, ctx) => rules(row as Record<string, unknown>, ctx)), { error: M.invalid })
    .max(LIST_MAX, M.tooManyItems)
    .optional();

type Line = { netWeight: number; unit: number };

export function shipmentService(hsRules?: HsRulesSource): ServiceDefinition {
  const obj = <S extends Record<string, z.ZodType>>(shape: () => S): SectionDefinition => ({
    complete: z.object(shape(), { error: requiredOrInvalid }),
    draft: draftObject(shape()).optional(),
  });
  const sections: Record<string, SectionDefinition> = {
    shipmentType: obj(() => ({ goods: z.enum(['meat', 'poultry', 'other'], { error: requiredOrInvalid }) })),
    factory: { ...obj(() => ({ facilityPublicId: text(100) })), prefill: 'facilityRecord' },
    // The importer is the commercial registry's before the applicant moves on, each contradicted field marked.
    importer: { ...obj(importerShape), stepChecks: ['importerVerified'] },
    exporter: obj(exporterShape),
    shipping: obj(shippingShape),
    other: obj(otherShape),
    products: {
      complete: z
        .array(z.object(productLineShape(hsRules), { error: M.invalid }).superRefine(productLineRules), { error: M.invalid })
        .max(LIST_MAX, M.tooManyItems)
        .default([]),
      draft: draftRows(productLineShape(hsRules), productLineRules),
    },
    slaughters: {
      complete: z
        .array(z.object(slaughterShape(hsRules), { error: M.invalid }).superRefine(slaughterRules), { error: M.invalid })
        .max(LIST_MAX, M.tooManyItems)
        .default([]),
      draft: draftRows(slaughterShape(hsRules), slaughterRules),
    },
  };
  const lines = (data: Readonly<Record<string, unknown>>): Line[] => [
    ...(readSection<Line[]>({ sections }, data, 'products') ?? []),
    ...(readSection<Line[]>({ sections }, data, 'slaughters') ?? []),
  ];
  return {
    kind: 'shipment',
    requestType: 100,
    titleKey: 'services:shipment.title',
    facilityTypes: ['external', 'cb'],
    subject: { type: 'facility' },
    preconditions: [{ type: 'cbAcceptanceValid' }, { type: 'cbDesignationValid' }, { type: 'notBlockedByExpiredCertificate' }],
    sections,
    crossRules: [
      {
        // "At least one product, or added slaughters" (spec 02 section 5).
        section: 'slaughters',
        needs: ['products', 'slaughters'],
        check: (data, issue) => {
          if (lines(data).length === 0) issue('form.shipmentLineRequired', ['products']);
        },
      },
    ],
    serverChecks: ['attachmentsBelongToRequest', 'foreignFactory', 'importerVerified', 'shipmentCovered'],
    outcome: 'issuesCertificate',
    // The invoices' files (section `other`): without it a draft's files were never open and no invoice could be attached.
    attachmentSection: 'other',
    project: (data) => {
      const all = lines(data);
      const goods = readSection<{ goods: 'meat' | 'poultry' | 'other' }>({ sections }, data, 'shipmentType')?.goods ?? 'other';
      const netGrams = all.reduce((sum, l) => sum + toGrams(l.netWeight, l.unit), 0);
      const other = readSection<{ invoices: { attachmentId: string }[] }>({ sections }, data, 'other');
      return {
        ...emptyProjection(),
        shipment: all.length ? { netGrams, goods } : null,
        factoryPublicId: readSection<{ facilityPublicId: string }>({ sections }, data, 'factory')?.facilityPublicId ?? null,
        attachmentIds: other?.invoices.map((i) => i.attachmentId) ?? [],
      };
    },
    fees: {
      shipment: ({ schedule, projection }) => {
        if (!projection.shipment) throw new Error('a shipment without products or slaughters cannot be billed');
        return shipmentFee(schedule, projection.shipment.netGrams);
      },
    },
    feeReadings: {
      shipment: 'per started 27 t of the total net weight of products and slaughters, converted from their units on the server',
    },
    feeDisplay: 'excludingVat',
    // The certificate lists the consignment's goods, named after the factory's externally certified products.
    certificateGoods: { certifiedBy: 'external', list: (data, certified) => shipmentGoods({ sections }, data, certified) },
    ...startOf('shipment', '/ex-shipment-request'),
  };
}

type ProductLine = { saudiHsCode: string; globalHsCode: string; quantity: number; netWeight: number; unit: number };
type SlaughterLine = { slaughterFacility: string; cuttingType: string; category: string; netWeight: number; unit: number; saudiHsCode: string; globalHsCode: string };
const hs6 = (code: string | undefined) => (code ?? '').slice(0, 6);

/**
 * The goods a shipment certificate lists: each product line under the name of the factory's certified product with
 * the same HS code (the submission check `shipmentCovered` refused lines without one; the HS code stands in for a
 * name otherwise), each slaughter line under its cutting type; with HS codes, quantity, net weight and unit.
 */
export function shipmentGoods(
  def: Pick<ServiceDefinition, 'sections'>,
  data: Readonly<Record<string, unknown>>,
  certified: readonly CertificateProduct[],
): CertificateProduct[] {
  const products = (readSection<ProductLine[]>(def, data, 'products') ?? []).map((l): CertificateProduct => {
    const match = certified.find((p) => [hs6(p.globalHsCode), hs6(p.hsCode)].some((h) => h && (h === hs6(l.globalHsCode) || h === hs6(l.saudiHsCode))));
    return {
      line: 'product',
      nameAr: match?.nameAr ?? l.saudiHsCode,
      nameEn: match?.nameEn ?? l.saudiHsCode,
      ...(match?.brandAr ? { brandAr: match.brandAr } : {}),
      ...(match?.brandEn ? { brandEn: match.brandEn } : {}),
      ...(match?.category ? { category: match.category } : {}),
      hsCode: l.saudiHsCode,
      globalHsCode: l.globalHsCode,
      quantity: l.quantity,
      netWeight: l.netWeight,
      unit: l.unit,
    };
  });
  const slaughters = (readSection<SlaughterLine[]>(def, data, 'slaughters') ?? []).map(
    (l): CertificateProduct => ({
      line: 'slaughter',
      nameAr: l.cuttingType,
      nameEn: l.cuttingType,
      slaughterFacility: l.slaughterFacility,
      category: l.category,
      hsCode: l.saudiHsCode,
      globalHsCode: l.globalHsCode,
      netWeight: l.netWeight,
      unit: l.unit,
    }),
  );
  return [...products, ...slaughters];
}
