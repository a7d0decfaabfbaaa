import { describe, expect, it } from 'vitest';
import {
  FormMessage as M,
  INTERNAL_REQUEST_STEPS,
  ZInternalRequest,
  ZInternalRequestDraft,
  createInternalRequestForm,
  formIssuesOf,
  internalRequestForm as form,
  type FormIssue,
  type InternalRequestStep,
} from '../../machines/forms';
import { goodProduct, goodRequest } from './fixtures';

type Form = Record<string, unknown>;
const withStep = (step: string, value: unknown): Form => ({ ...goodRequest(), [step]: value });
const stepIssues = (step: InternalRequestStep, f: Form) => form.validateStep(step, f);
const submitIssues = (f: unknown): FormIssue[] => {
  const r = form.validateSubmit(f);
  return r.success ? [] : r.issues;
};
const pick = <T extends object>(o: T, over: Partial<T>) => ({ ...o, ...over });
const req = goodRequest() as Record<string, Record<string, unknown>>;

describe('the internal request form: whole-form submit', () => {
  it('accepts a complete request, with the same answer from the zod schema and validateSubmit', () => {
    expect(submitIssues(goodRequest())).toEqual([]);
    expect(ZInternalRequest.safeParse(goodRequest()).success).toBe(true);
  });

  it('reports the problems of every step at once, cross-step rules included', () => {
    const f = goodRequest();
    (f.factory as Form).nameEn = 'مصنع';
    (f.agreement as Form).accepted = false;
    (f.trademarks as Form[]).push({ nameAr: 'نادك', nameEn: 'Nadec' });
    const issues = submitIssues(f);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'factory.nameEn', message: M.englishNameLike },
        { path: 'agreement.accepted', message: M.agreementRequired },
        { path: 'trademarks.2.nameEn', message: M.brandWithoutProducts },
      ]),
    );
  });

  it('an empty submission names each missing step as required', () => {
    const issues = submitIssues({});
    for (const step of INTERNAL_REQUEST_STEPS) expect(issues).toContainEqual({ path: step, message: step === 'agreement' ? M.agreementRequired : M.required });
  });

  it('the zod schema carries the cross-step rules too (for route bodies)', () => {
    const f = goodRequest();
    (f.products as Form[])[1] = goodProduct({ brandAr: 'نادك', brandEn: 'Nadec', productNumber: 'SFDA2024000000077', nameEn: 'Laban Drink', nameAr: 'لبن' });
    const r = ZInternalRequest.safeParse(f);
    expect(r.success).toBe(false);
    expect(formIssuesOf(r.error!.issues)).toEqual(
      expect.arrayContaining([
        { path: 'products.1.brandEn', message: M.brandUnknown },
        { path: 'trademarks.1.nameEn', message: M.brandWithoutProducts },
      ]),
    );
  });
});

describe('each step validates alone', () => {
  // [step, field change, expected issue] — each row a rule of spec 01/02 with a bad value; the good value is the fixture.
  const bad: [InternalRequestStep, unknown, FormIssue][] = [
    ['factory', pick(req.factory, { nameAr: 'Almarai' }), { path: 'factory.nameAr', message: M.arabicNameLike }],
    ['factory', pick(req.factory, { nameEn: 'AB' }), { path: 'factory.nameEn', message: M.nameTooShort }],
    ['factory', pick(req.factory, { commercialRegistrationNumber: '10100000' }), { path: 'factory.commercialRegistrationNumber', message: M.crNumberFormat }],
    ['factory', pick(req.factory, { unifiedNumber: '6001234567' }), { path: 'factory.unifiedNumber', message: M.unifiedNumberFormat }],
    ['factory', pick(req.factory, { totalAnnualRevenue: '123456789012345678901' }), { path: 'factory.totalAnnualRevenue', message: M.revenueFormat }],
    ['factory', pick(req.factory, { totalAnnualRevenue: '100.123' }), { path: 'factory.totalAnnualRevenue', message: M.revenueFormat }],
    ['factory', pick(req.factory, { totalAnnualRevenue: -5 }), { path: 'factory.totalAnnualRevenue', message: M.revenueFormat }],
    ['factory', pick(req.factory, { fullTimeEmployees: 2.5 }), { path: 'factory.fullTimeEmployees', message: M.integerOnly }],
    ['factory', pick(req.factory, { fullTimeEmployees: 0 }), { path: 'factory.fullTimeEmployees', message: M.employeesRange }],
    ['address', pick(req.address, { countryCode: 'AE' }), { path: 'address.countryCode', message: M.countryMustBeSaudi }],
    ['address', pick(req.address, { city: 'Ri' }), { path: 'address.city', message: M.nameTooShort }],
    ['address', pick(req.address, { city: 'Riyadh!' }), { path: 'address.city', message: M.nameLike }],
    ['address', pick(req.address, { street: '<script>' }), { path: 'address.street', message: M.addressText }],
    ['address', pick(req.address, { zipCode: '1221' }), { path: 'address.zipCode', message: M.zipCodeFormat }],
    ['address', pick(req.address, { buildingNumber: '24567' }), { path: 'address.buildingNumber', message: M.buildingNumberFormat }],
    ['address', pick(req.address, { additionalNumber: '81a3' }), { path: 'address.additionalNumber', message: M.additionalNumberFormat }],
    ['branches', { hasBranches: true, items: [] }, { path: 'branches.items', message: M.branchRequired }],
    ['branches', { hasBranches: true, items: [{ address: 'Phase 4' }] }, { path: 'branches.items.0.city', message: M.required }],
    ['trademarks', [{ nameAr: 'المراعي', nameEn: 'Almarai' }, { nameAr: 'المراعى', nameEn: 'Other' }], { path: 'trademarks.1.nameAr', message: M.trademarkDuplicate }],
    ['trademarks', [{ nameAr: 'المراعي', nameEn: 'Almarai' }, { nameAr: 'نادك', nameEn: 'ALMARAI' }], { path: 'trademarks.1.nameEn', message: M.trademarkDuplicate }],
    ['trademarks', [{ nameAr: 'المراعي1', nameEn: 'Almarai' }], { path: 'trademarks.0.nameAr', message: M.arabicLettersOnly }],
    ['trademarks', [{ nameAr: 'المراعي', nameEn: 'Al-Marai' }], { path: 'trademarks.0.nameEn', message: M.englishLettersOnly }],
    ['products', [], { path: 'products', message: M.productRequired }],
    ['products', [goodProduct(), goodProduct({ nameEn: 'Other Milk', nameAr: 'حليب آخر' })], { path: 'products.1.productNumber', message: M.productDuplicate }],
    ['products', [goodProduct({ grossWeight: 999 })], { path: 'products.0.grossWeight', message: M.grossBelowNet }],
    ['products', [goodProduct({ brandEn: undefined })], { path: 'products.0.brandEn', message: M.required }],
    ['products', Array.from({ length: 1001 }, () => goodProduct()), { path: 'products', message: M.tooManyProducts }],
    ['hsCodes', [], { path: 'hsCodes', message: M.hsCodeRequired }],
    ['hsCodes', ['040120', '040120'], { path: 'hsCodes.1', message: M.hsCodeDuplicate }],
    ['hsCodes', ['220300'], { path: 'hsCodes.0', message: M.hsCodeNotHalal }],
    ['hsCodes', ['04012'], { path: 'hsCodes.0', message: M.hsCodeFormat }],
    ['categories', [], { path: 'categories', message: M.categoryRequired }],
    ['categories', [{ category: 'C', subCategories: ['AI'] }], { path: 'categories.0.subCategories.0', message: M.subCategoryMismatch }],
    ['categories', [{ category: 'C' }, { category: 'C', subCategories: ['CI'] }], { path: 'categories.1.category', message: M.categoryDuplicate }],
    ['categories', [{ category: 'Z' }], { path: 'categories.0.category', message: M.categoryInvalid }],
    ['operations', [], { path: 'operations', message: M.operationRequired }],
    ['operations', ['packaging', 'packaging'], { path: 'operations.1', message: M.operationDuplicate }],
    ['operations', ['smuggling'], { path: 'operations.0', message: M.operationInvalid }],
    ['production', pick(req.production, { productionArea: 1234567 }), { path: 'production.productionArea', message: M.areaFormat }],
    ['production', pick(req.production, { productionArea: '100.555' }), { path: 'production.productionArea', message: M.areaFormat }],
    ['production', pick(req.production, { productionArea: 0 }), { path: 'production.productionArea', message: M.areaPositive }],
    ['production', pick(req.production, { productionLines: 0 }), { path: 'production.productionLines', message: M.productionLinesRange }],
    ['production', pick(req.production, { haccpCriticalPoints: 1000 }), { path: 'production.haccpCriticalPoints', message: M.haccpRange }],
    ['production', pick(req.production, { permanentHalalEmployees: 1.5 }), { path: 'production.permanentHalalEmployees', message: M.integerOnly }],
    ['production', pick(req.production, { shifts: 11 }), { path: 'production.shifts', message: M.shiftsRange }],
    ['validity', { years: 4 }, { path: 'validity.years', message: M.validityRange }],
    ['attachments', [{ id: '00000000-0000-4000-8000-000000000001', category: 'commercialRegistrationCopy' }], { path: 'attachments', message: M.attachmentRequired }],
    [
      'attachments',
      [...(req.attachments as unknown as Form[]), { id: '00000000-0000-4000-8000-000000000003', category: 'industrialLicense' }],
      { path: 'attachments.2.category', message: M.attachmentTooMany },
    ],
    [
      'attachments',
      [...(req.attachments as unknown as Form[]), { id: '00000000-0000-4000-8000-000000000003', category: 'operationPlan' }],
      { path: 'attachments.2.category', message: M.attachmentCategoryNotAllowed },
    ],
    [
      'attachments',
      [...(req.attachments as unknown as Form[]), { id: '00000000-0000-4000-8000-000000000001', category: 'productPhoto' }],
      { path: 'attachments.2.id', message: M.attachmentDuplicate },
    ],
    ['agreement', { accepted: false }, { path: 'agreement.accepted', message: M.agreementRequired }],
    ['agreement', {}, { path: 'agreement.accepted', message: M.agreementRequired }],
  ];
  it.each(bad)('%s: refuses %j', (step, value, expected) => {
    expect(stepIssues(step, goodRequest())).toEqual([]);
    expect(stepIssues(step, withStep(step, value))).toContainEqual(expected);
  });

  it('good boundary values pass their step', () => {
    const f = goodRequest();
    f.factory = pick(req.factory, { totalAnnualRevenue: '12345678901234567890.99', unifiedNumber: '', activityName: undefined, fullTimeEmployees: '7' });
    f.production = pick(req.production, { productionArea: '999999.99', haccpCriticalPoints: 0 });
    f.branches = { hasBranches: false, items: [{ city: 'x' }] };
    for (const step of ['factory', 'production', 'branches'] as const) expect(stepIssues(step, f)).toEqual([]);
    const parsed = form.steps.factory.parse(f.factory);
    // Kept as text: 20 digits do not fit a JS number exactly.
    expect(parsed.totalAnnualRevenue).toBe('12345678901234567890.99');
    expect(form.steps.branches.parse(f.branches)).toEqual({ hasBranches: false, items: [] });
  });

  it('a whole main category or chosen sub-categories are both valid selections', () => {
    expect(stepIssues('categories', withStep('categories', [{ category: 'C' }]))).toEqual([]);
    expect(stepIssues('categories', withStep('categories', [{ category: 'C', subCategories: ['CI', 'CIV'] }, { category: 'K' }]))).toEqual([]);
  });
});

describe('rules across steps', () => {
  it('products step: every product has one of the trademarks as its brand', () => {
    const f = withStep('products', [...(req.products as unknown as Form[]), goodProduct({ brandAr: 'نادك', brandEn: 'Nadec', productNumber: 'SFDA2024000000003', nameEn: 'Laban', nameAr: 'لبن' })]);
    expect(stepIssues('products', f)).toEqual([{ path: 'products.2.brandEn', message: M.brandUnknown }]);
  });

  it('products step: every trademark has products', () => {
    const f = withStep('products', [goodProduct()]);
    expect(stepIssues('products', f)).toEqual([{ path: 'trademarks.1.nameEn', message: M.brandWithoutProducts }]);
  });

  it('brands match trademarks regardless of spacing and letter case', () => {
    const f = withStep('products', [goodProduct({ brandEn: 'ALMARAI ' }), (req.products as unknown as Form[])[1]]);
    expect(stepIssues('products', f)).toEqual([]);
  });

  it('categories step: every product category must be among the selected categories', () => {
    const f = withStep('categories', [{ category: 'C', subCategories: ['CI'] }]);
    expect(stepIssues('categories', f)).toEqual([{ path: 'products.1.category', message: M.productCategoryNotSelected }]);
    expect(stepIssues('categories', withStep('categories', [{ category: 'C' }]))).toEqual([]);
  });

  it('the server can build the form with its own HS list', () => {
    const fishOnly = createInternalRequestForm({ hsRules: ['03'] });
    expect(fishOnly.validateStep('hsCodes', goodRequest())).toContainEqual({ path: 'hsCodes.0', message: M.hsCodeNotHalal });
  });
});

describe('drafts: saved at any step with partial data', () => {
  it('accepts an empty draft and one with only some fields of some steps', () => {
    expect(ZInternalRequestDraft.safeParse({}).success).toBe(true);
    const draft = { factory: { nameAr: 'مصنع المراعي', totalAnnualRevenue: '' }, products: [{ nameEn: 'Milk' }], agreement: { accepted: false } };
    const r = ZInternalRequestDraft.safeParse(draft);
    expect(r.success).toBe(true);
    expect(r.data?.factory).toEqual({ nameAr: 'مصنع المراعي' });
  });

  it('still refuses a filled field that breaks its rule', () => {
    const r = ZInternalRequestDraft.safeParse({ products: [{ nameEn: 'Milk', netWeight: 0 }], production: { productionArea: 1234567 } });
    expect(r.success).toBe(false);
    expect(formIssuesOf(r.error!.issues)).toEqual(
      expect.arrayContaining([
        { path: 'products.0.netWeight', message: M.weightRange },
        { path: 'production.productionArea', message: M.areaFormat },
      ]),
    );
  });

  it('a draft is not a submission: the same partial data fails full validation', () => {
    const draft = { factory: { nameAr: 'مصنع المراعي' } };
    expect(ZInternalRequestDraft.safeParse(draft).success).toBe(true);
    expect(submitIssues(draft)).toContainEqual({ path: 'factory.nameEn', message: M.required });
    expect(submitIssues(draft)).toContainEqual({ path: 'products', message: M.required });
  });

  it('a complete request is also a valid draft', () => {
    expect(ZInternalRequestDraft.safeParse(goodRequest()).success).toBe(true);
  });
});
