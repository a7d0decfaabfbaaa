import { z } from 'zod';
import { FormMessage as M } from './messages';
import { PRODUCT_CATEGORY_CODES, UNIT_CODES, type UnitCode } from './catalogues';
import type { HsRulesSource } from './hs-relevance';
import {
  arabicLettersField,
  arabicNameField,
  englishLettersField,
  englishNameField,
  foldName,
  freeTextField,
  hsCodeField,
  productNumberField,
  requiredOrInvalid,
  toNumber,
  weightField,
} from './fields';

/** Spec 02 section 3: "technical specifications (several allowed)". */
export const MAX_TECHNICAL_SPECIFICATIONS = 20;
export const TECHNICAL_SPECIFICATION_MAX = 500;

export const categoryCodeField = () =>
  z
    .string({ error: requiredOrInvalid })
    .trim()
    .pipe(z.string().min(1, { error: M.required, abort: true }).refine((c) => PRODUCT_CATEGORY_CODES.includes(c), M.categoryInvalid));

/** A unit code 0-5 (UNITS); anything else is "choose a unit from the list". */
export const unitField = () =>
  z.preprocess(
    toNumber,
    z
      .number({ error: (issue) => (issue.input === undefined || issue.input === null ? M.required : M.unitInvalid) })
      .refine((n) => (UNIT_CODES as readonly number[]).includes(n), M.unitInvalid)
      .transform((n) => n as UnitCode),
  );

/**
 * The fields of one product (spec 02 section 3 "Product" and the product upload rules of section 5). Each field
 * validates alone; `ZProduct` adds "gross must be at least net".
 */
export function productShape(hsRules?: HsRulesSource) {
  return {
    nameAr: arabicNameField(),
    nameEn: englishNameField(),
    brandAr: arabicLettersField(),
    brandEn: englishLettersField(),
    saudiHsCode: hsCodeField(hsRules),
    globalHsCode: hsCodeField(hsRules),
    productNumber: productNumberField(),
    technicalSpecifications: z
      .array(freeTextField(TECHNICAL_SPECIFICATION_MAX), { error: M.invalid })
      .max(MAX_TECHNICAL_SPECIFICATIONS, M.tooManyItems)
      .default([]),
    category: categoryCodeField(),
    netWeight: weightField(),
    grossWeight: weightField(),
    unit: unitField(),
  };
}

/** Spec 02 section 5: "Weights: gross must be at least net" (both in the product's unit). */
function grossAtLeastNet(p: { netWeight: number; grossWeight: number }, ctx: z.RefinementCtx) {
  if (p.grossWeight < p.netWeight) ctx.addIssue({ code: 'custom', message: M.grossBelowNet, path: ['grossWeight'] });
}

/** One product, validated alone (a wizard row or one row of the product upload form). */
export const createProductSchema = (hsRules?: HsRulesSource) =>
  z.object(productShape(hsRules), { error: M.invalid }).superRefine(grossAtLeastNet);

export const ZProduct = createProductSchema();
export type TProduct = z.infer<typeof ZProduct>;

/**
 * What makes two products the same (spec 02 section 5 "product already added is rejected"): the same food-authority
 * number, or the same name (Arabic or English, compared folded) under the same brand.
 */
export function productIdentities(p: Pick<TProduct, 'productNumber' | 'nameAr' | 'nameEn' | 'brandAr' | 'brandEn'>): string[] {
  return [
    `number:${p.productNumber.toUpperCase()}`,
    `ar:${foldName(p.brandAr)}|${foldName(p.nameAr)}`,
    `en:${foldName(p.brandEn)}|${foldName(p.nameEn)}`,
  ];
}

/**
 * Indexes of products that repeat an earlier one, with the field to point at. Used by the products step and by the
 * product upload form, where the index is the row.
 */
export function duplicateProducts(products: readonly TProduct[]): { index: number; field: keyof TProduct }[] {
  const seen = new Set<string>();
  const out: { index: number; field: keyof TProduct }[] = [];
  products.forEach((p, index) => {
    const ids = productIdentities(p);
    const hit = ids.findIndex((id) => seen.has(id));
    if (hit >= 0) out.push({ index, field: hit === 0 ? 'productNumber' : hit === 1 ? 'nameAr' : 'nameEn' });
    ids.forEach((id) => seen.add(id));
  });
  return out;
}
