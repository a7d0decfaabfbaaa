import { z } from 'zod';
import { FormMessage as M, formIssuesOf, type FormIssue } from './messages';
import { MAIN_CATEGORIES, OPERATIONS, type MainCategory, type Operation } from './catalogues';
import { INTERNAL_REQUEST_ATTACHMENTS } from './attachment-categories';
import {
  attachmentList,
  attachmentListDraft,
  blankToUndefined,
  categoryShape,
  coveredCategoryCodes,
  draftList,
  draftShape,
  enumField,
  issueAt as issue,
  noDuplicateStrings,
  optionalField as optional,
  validCategorySelection,
  type IssueSink as Ctx,
} from './parts';
import type { HsRulesSource } from './hs-relevance';
import {
  addressField,
  arabicLettersField,
  arabicNameField,
  areaField,
  countField,
  digitsField,
  englishLettersField,
  englishNameField,
  foldName,
  freeTextField,
  hsCodeField,
  nameLikeField,
  requiredOrInvalid,
  revenueField,
  toNumber,
} from './fields';
import { createProductSchema, duplicateProducts, productShape, type TProduct } from './product';

/**
 * The internal facility Halal certificate request form (issue 5 wizard; spec 02 sections 3 and 5, spec 01
 * section 5). The form is one object with a key per wizard step; each step has its own schema so a step validates
 * alone, rules that tie steps together (brands and products, product categories) run at the step that completes
 * them and again on submit, and a draft accepts any part of the form whose filled fields are valid.
 *
 * The summary step shows the whole form and has no data of its own.
 */
export const INTERNAL_REQUEST_STEPS = [
  'factory',
  'address',
  'branches',
  'trademarks',
  'products',
  'hsCodes',
  'categories',
  'operations',
  'production',
  'validity',
  'attachments',
  'agreement',
] as const;
export type InternalRequestStep = (typeof INTERNAL_REQUEST_STEPS)[number];

/** Upper bounds on list sizes, so one request cannot grow without limit. */
export const INTERNAL_REQUEST_LIMITS = {
  branches: 50,
  trademarks: 100,
  products: 1000,
  hsCodes: 200,
  categories: MAIN_CATEGORIES.length,
  operations: OPERATIONS.length,
  attachments: 200,
} as const;

/** Validity of the certificate in years (fees are paid yearly or in full for the period). */
export const VALIDITY_YEARS = { min: 1, max: 3 } as const;

const validityField = () =>
  z.preprocess(
    toNumber,
    z
      .number({ error: requiredOrInvalid })
      .int(M.validityRange)
      .min(VALIDITY_YEARS.min, M.validityRange)
      .max(VALIDITY_YEARS.max, M.validityRange),
  );

// ---- per-step field shapes (objects of field schemas; the draft makes each field optional) ----

const factoryShape = () => ({
  nameAr: arabicNameField(),
  nameEn: englishNameField(),
  /** Saudi commercial registration numbers have 10 digits. */
  commercialRegistrationNumber: digitsField(/^\d{10}$/, M.crNumberFormat),
  /** Establishment unified number (700 number): 10 digits starting with 7, like "70X XXX XXXX" in spec 02. */
  unifiedNumber: optional(digitsField(/^7\d{9}$/, M.unifiedNumberFormat)),
  activityName: optional(freeTextField(200)),
  totalAnnualRevenue: revenueField(),
  fullTimeEmployees: countField(1, 999_999, M.employeesRange),
});

const addressShape = () => ({
  /** The facility is domestic: its address is in Saudi Arabia. */
  countryCode: z.string({ error: requiredOrInvalid }).trim().toUpperCase().pipe(z.literal('SA', { error: M.countryMustBeSaudi })),
  city: nameLikeField(),
  district: nameLikeField(),
  street: addressField(),
  /** Saudi national address: 5-digit postal code, 4-digit building and additional numbers. */
  zipCode: digitsField(/^\d{5}$/, M.zipCodeFormat),
  buildingNumber: digitsField(/^\d{4}$/, M.buildingNumberFormat),
  additionalNumber: digitsField(/^\d{4}$/, M.additionalNumberFormat),
});

const branchShape = () => ({
  city: nameLikeField(),
  district: optional(nameLikeField()),
  address: addressField(),
});

type TBranch = z.infer<z.ZodObject<ReturnType<typeof branchShape>>>;

const trademarkShape = () => ({
  nameAr: arabicLettersField(),
  nameEn: englishLettersField(),
});

const productionShape = () => ({
  productionLines: countField(1, 999, M.productionLinesRange),
  haccpCriticalPoints: countField(0, 999, M.haccpRange),
  permanentHalalEmployees: countField(1, 999_999, M.employeesRange),
  shifts: countField(1, 10, M.shiftsRange),
  productionArea: areaField(),
});

// ---- rules over lists and across steps ----

function noDuplicateTrademarks(items: readonly { nameAr: string; nameEn: string }[], ctx: Ctx) {
  const ar = new Set<string>();
  const en = new Set<string>();
  items.forEach((t, i) => {
    if (ar.has(foldName(t.nameAr))) issue(ctx, M.trademarkDuplicate, [i, 'nameAr']);
    else if (en.has(foldName(t.nameEn))) issue(ctx, M.trademarkDuplicate, [i, 'nameEn']);
    ar.add(foldName(t.nameAr));
    en.add(foldName(t.nameEn));
  });
}

function noDuplicateProducts(items: readonly TProduct[], ctx: Ctx) {
  for (const d of duplicateProducts(items)) issue(ctx, M.productDuplicate, [d.index, d.field]);
}

type TrademarkData = { nameAr: string; nameEn: string }[];
const brandKey = (ar: string, en: string) => `${foldName(ar)}|${foldName(en)}`;

/**
 * Spec 02 section 5 / spec 01 section 5: "each product needs a brand; each brand needs products". A product's brand
 * must be one of the request's trademarks (both names), and every trademark must have at least one product.
 */
function brandsAndProducts(trademarks: TrademarkData, products: readonly TProduct[], ctx: Ctx) {
  const brands = new Set(trademarks.map((t) => brandKey(t.nameAr, t.nameEn)));
  const used = new Set<string>();
  products.forEach((p, i) => {
    const key = brandKey(p.brandAr, p.brandEn);
    if (!brands.has(key)) issue(ctx, M.brandUnknown, ['products', i, 'brandEn']);
    used.add(key);
  });
  trademarks.forEach((t, i) => {
    if (!used.has(brandKey(t.nameAr, t.nameEn))) issue(ctx, M.brandWithoutProducts, ['trademarks', i, 'nameEn']);
  });
}

function productCategoriesSelected(
  categories: readonly { category: MainCategory; subCategories: readonly string[] }[],
  products: readonly TProduct[],
  ctx: Ctx,
) {
  const covered = coveredCategoryCodes(categories);
  products.forEach((p, i) => {
    if (!covered.has(p.category)) issue(ctx, M.productCategoryNotSelected, ['products', i, 'category']);
  });
}

/**
 * Builds every schema of the form. `hsRules` is the list of Halal-relevant HS code prefixes (see hs-relevance.ts);
 * the server passes its configured list, the web the default.
 */
export function createInternalRequestForm(options: { hsRules?: HsRulesSource } = {}) {

  const steps = {
    factory: z.object(factoryShape(), { error: requiredOrInvalid }),
    address: z.object(addressShape(), { error: requiredOrInvalid }),
    // Branches count only when the facility says it has some; then "an extra factory address must be added".
    // Rows left over from toggling the answer to "no" are dropped rather than validated.
    branches: z.discriminatedUnion(
      'hasBranches',
      [
        z.object({
          hasBranches: z.literal(true),
          items: z
            .array(z.object(branchShape(), { error: M.invalid }), { error: requiredOrInvalid })
            .min(1, M.branchRequired)
            .max(INTERNAL_REQUEST_LIMITS.branches, M.tooManyItems),
        }),
        z.object({ hasBranches: z.literal(false), items: z.unknown().transform((): TBranch[] => []) }),
      ],
      { error: requiredOrInvalid },
    ),
    trademarks: z
      .array(z.object(trademarkShape(), { error: M.invalid }), { error: requiredOrInvalid })
      .max(INTERNAL_REQUEST_LIMITS.trademarks, M.tooManyItems)
      .superRefine(noDuplicateTrademarks),
    products: z
      .array(createProductSchema(options.hsRules), { error: requiredOrInvalid })
      .min(1, M.productRequired)
      .max(INTERNAL_REQUEST_LIMITS.products, M.tooManyProducts)
      .superRefine(noDuplicateProducts),
    hsCodes: z
      .array(hsCodeField(options.hsRules), { error: requiredOrInvalid })
      .min(1, M.hsCodeRequired)
      .max(INTERNAL_REQUEST_LIMITS.hsCodes, M.tooManyItems)
      .superRefine(noDuplicateStrings(M.hsCodeDuplicate)),
    categories: z
      .array(z.object(categoryShape(), { error: M.invalid }), { error: requiredOrInvalid })
      .min(1, M.categoryRequired)
      .max(INTERNAL_REQUEST_LIMITS.categories, M.tooManyItems)
      .superRefine(validCategorySelection),
    operations: z
      .array(enumField<Operation>(OPERATIONS, M.operationInvalid), { error: requiredOrInvalid })
      .min(1, M.operationRequired)
      .max(INTERNAL_REQUEST_LIMITS.operations, M.tooManyItems)
      .superRefine(noDuplicateStrings(M.operationDuplicate)),
    production: z.object(productionShape(), { error: requiredOrInvalid }),
    validity: z.object({ years: validityField() }, { error: requiredOrInvalid }),
    attachments: attachmentList(INTERNAL_REQUEST_ATTACHMENTS, INTERNAL_REQUEST_LIMITS.attachments),
    agreement: z.object({ accepted: z.literal(true, { error: M.agreementRequired }) }, { error: M.agreementRequired }),
  } satisfies Record<InternalRequestStep, z.ZodType>;

  type StepData = { [K in InternalRequestStep]: z.infer<(typeof steps)[K]> };

  /** Rules that span steps, named by the step that completes them (the wizard runs them when leaving it). */
  const crossRules: { step: InternalRequestStep; needs: InternalRequestStep[]; check(d: Partial<StepData>, ctx: Ctx): void }[] = [
    { step: 'products', needs: ['trademarks', 'products'], check: (d, ctx) => brandsAndProducts(d.trademarks!, d.products!, ctx) },
    {
      step: 'categories',
      needs: ['categories', 'products'],
      check: (d, ctx) => productCategoriesSelected(d.categories!, d.products!, ctx),
    },
  ];

  function runCross(data: Partial<StepData>, only?: InternalRequestStep): FormIssue[] {
    const out: FormIssue[] = [];
    for (const rule of crossRules) {
      if (only && rule.step !== only) continue;
      if (!rule.needs.every((s) => data[s] !== undefined)) continue;
      rule.check(data, { addIssue: (i) => out.push({ path: i.path.map(String).join('.'), message: i.message }) });
    }
    return out;
  }

  const ZInternalRequest = z
    .object(steps, { error: requiredOrInvalid })
    .superRefine((d, ctx) => {
      for (const i of runCross(d)) ctx.addIssue({ code: 'custom', message: i.message, path: i.path.split('.') });
    });

  // ---- the draft: every step and every field optional; filled fields keep their rules ----
  const ZInternalRequestDraft = z.object(
    {
      factory: z.object(draftShape(factoryShape()), { error: M.invalid }).optional(),
      address: z.object(draftShape(addressShape()), { error: M.invalid }).optional(),
      branches: z
        .object({ hasBranches: z.boolean({ error: M.invalid }).optional(), items: draftList(branchShape(), INTERNAL_REQUEST_LIMITS.branches) }, { error: M.invalid })
        .optional(),
      trademarks: draftList(trademarkShape(), INTERNAL_REQUEST_LIMITS.trademarks),
      products: draftList(productShape(options.hsRules), INTERNAL_REQUEST_LIMITS.products),
      hsCodes: z
        .array(z.preprocess(blankToUndefined, hsCodeField(options.hsRules).optional()), { error: M.invalid })
        .max(INTERNAL_REQUEST_LIMITS.hsCodes, M.tooManyItems)
        .optional(),
      categories: draftList(categoryShape(), INTERNAL_REQUEST_LIMITS.categories),
      operations: z.array(enumField<Operation>(OPERATIONS, M.operationInvalid), { error: M.invalid }).max(INTERNAL_REQUEST_LIMITS.operations, M.tooManyItems).optional(),
      production: z.object(draftShape(productionShape()), { error: M.invalid }).optional(),
      validity: z.object(draftShape({ years: validityField() }), { error: M.invalid }).optional(),
      attachments: attachmentListDraft(INTERNAL_REQUEST_ATTACHMENTS, INTERNAL_REQUEST_LIMITS.attachments),
      agreement: z.object({ accepted: z.boolean({ error: M.invalid }).optional() }, { error: M.invalid }).optional(),
    },
    { error: M.invalid },
  );

  /**
   * Validates one wizard step of a (draft) form: the step's own schema, then the rules that this step completes,
   * using the other steps of `form` that are themselves valid. Returns no issues when the step may be left.
   */
  function validateStep(step: InternalRequestStep, form: Record<string, unknown>): FormIssue[] {
    const own = steps[step].safeParse(form[step]);
    if (!own.success) return formIssuesOf(own.error.issues, [step]);
    return runCross(parsedSteps(form), step);
  }

  function parsedSteps(form: Record<string, unknown>): Partial<StepData> {
    const out: Partial<Record<InternalRequestStep, unknown>> = {};
    for (const s of INTERNAL_REQUEST_STEPS) {
      const r = steps[s].safeParse(form[s]);
      if (r.success) out[s] = r.data;
    }
    return out as Partial<StepData>;
  }

  /**
   * Full validation for submission, reporting every problem at once: each step's own issues, and the cross-step
   * rules over the steps that are valid (ZInternalRequest.safeParse stops before the cross rules when any field fails).
   */
  function validateSubmit(form: unknown): { success: true; data: StepData } | { success: false; issues: FormIssue[] } {
    const input = (form && typeof form === 'object' ? form : {}) as Record<string, unknown>;
    const issues: FormIssue[] = [];
    for (const s of INTERNAL_REQUEST_STEPS) {
      const r = steps[s].safeParse(input[s]);
      if (!r.success) issues.push(...formIssuesOf(r.error.issues, [s]));
    }
    issues.push(...runCross(parsedSteps(input)));
    if (issues.length) return { success: false, issues };
    return { success: true, data: ZInternalRequest.parse(input) };
  }

  /** The draft schema of each step (every field optional, filled fields valid): what a saved draft stores. */
  const drafts = ZInternalRequestDraft.shape;

  /** The cross-step rules in the service contract's shape (machines/services/types.ts CrossRule). */
  const crossRuleList = crossRules.map((r) => ({
    section: r.step,
    needs: r.needs,
    check: (data: Record<string, unknown>, add: (message: string, path: readonly (string | number)[]) => void) =>
      r.check(data as Partial<StepData>, { addIssue: (i) => add(i.message, i.path.map((p) => (typeof p === 'number' ? p : String(p)))) }),
  }));

  return {
    steps,
    drafts,
    crossRules: crossRuleList,
    ZProduct: createProductSchema(options.hsRules),
    ZInternalRequest,
    ZInternalRequestDraft,
    validateStep,
    validateSubmit,
  };
}

/** The form with the default Halal HS list (the web's view; the server builds its own from configuration). */
export const internalRequestForm = createInternalRequestForm();
export const ZInternalRequest = internalRequestForm.ZInternalRequest;
export const ZInternalRequestDraft = internalRequestForm.ZInternalRequestDraft;
export const ZInternalRequestSteps = internalRequestForm.steps;
export type TInternalRequest = z.infer<typeof ZInternalRequest>;
export type TInternalRequestDraft = z.infer<typeof ZInternalRequestDraft>;
