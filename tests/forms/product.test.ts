import { describe, expect, it } from 'vitest';
import { ZProduct, createProductSchema, duplicateProducts, formIssuesOf, FormMessage as M, type TProduct } from '../../machines/forms';
import { goodProduct } from './fixtures';

/** The validation keys a product gets, by field path. */
function messages(value: unknown, schema = ZProduct): Record<string, string[]> {
  const r = schema.safeParse(value);
  if (r.success) return {};
  const out: Record<string, string[]> = {};
  for (const i of formIssuesOf(r.error.issues)) (out[i.path] ??= []).push(i.message);
  return out;
}

describe('one product (spec 02 section 5, product upload rules)', () => {
  it('accepts a complete, valid product and normalises it', () => {
    const r = ZProduct.safeParse(goodProduct({ nameEn: '  Fresh   Full Fat Milk ', productNumber: 'sfda2024000000001', netWeight: '1000' }));
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ nameEn: 'Fresh Full Fat Milk', productNumber: 'SFDA2024000000001', netWeight: 1000, unit: 5 });
  });

  // [field, good value, bad value, expected message]
  const cases: [keyof TProduct, unknown, unknown, string][] = [
    ['nameAr', 'ع'.repeat(100), 'ع'.repeat(101), M.nameTooLong],
    ['nameAr', 'لبن', 'لب', M.nameTooShort],
    ['nameAr', 'حليب 2 لتر', 'Milk حليب', M.arabicNameLike],
    ['nameAr', 'حليب - قليل الدسم', undefined, M.required],
    ['nameEn', 'M'.repeat(100), 'M'.repeat(101), M.nameTooLong],
    ['nameEn', 'Milk 2L', 'حليب', M.englishNameLike],
    ['nameEn', 'Tea', 'Te', M.nameTooShort],
    ['brandAr', 'نادك الذهبي', 'نادك 2', M.arabicLettersOnly],
    ['brandAr', 'نادك', 'Nadec', M.arabicLettersOnly],
    ['brandEn', 'Golden Nadec', 'Nadec 2', M.englishLettersOnly],
    ['brandEn', 'Nadec', 'نادك', M.englishLettersOnly],
    ['brandEn', 'B'.repeat(100), 'B'.repeat(101), M.nameTooLong],
    ['saudiHsCode', '020130', '02013', M.hsCodeFormat],
    ['saudiHsCode', '020130000000', '0201300000001', M.hsCodeFormat],
    ['saudiHsCode', '020130', '0201.30', M.hsCodeFormat],
    ['saudiHsCode', '020130', '020311', M.hsCodeNotHalal],
    ['globalHsCode', '220210', '220300', M.hsCodeNotHalal],
    ['globalHsCode', '040120', 'abcdef', M.hsCodeFormat],
    ['productNumber', 'ABCDEFGHIJ1234567', 'ABCDEFGHIJ123456', M.productNumberFormat],
    ['productNumber', 'ABCDEFGHIJ1234567', 'ABCDEFGHIJ12345678', M.productNumberFormat],
    ['productNumber', 'ABCDEFGHIJ1234567', 'ABCDEFGHIJ-123456', M.productNumberFormat],
    ['category', 'CIV', 'CV', M.categoryInvalid],
    ['category', 'K', 'C', M.categoryInvalid],
    ['unit', 0, 6, M.unitInvalid],
    ['unit', '3', 'kg', M.unitInvalid],
    ['unit', 4, undefined, M.required],
    ['netWeight', 0.1, 0.09, M.weightRange],
    ['grossWeight', 9_999_999, 10_000_000, M.weightRange],
    ['netWeight', '12.5', 'twelve', M.invalid],
    ['technicalSpecifications', ['a'.repeat(500)], ['a'.repeat(501)], M.textTooLong],
  ];
  it.each(cases)('%s: accepts %j, refuses %j with %s', (field, good, bad, message) => {
    const big = field === 'netWeight' ? { grossWeight: 9_999_999 } : {};
    expect(messages(goodProduct({ ...big, [field]: good }))).toEqual({});
    const issues = messages(goodProduct({ ...big, [field]: bad }));
    const paths = Object.keys(issues);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => p.startsWith(field))).toBe(true);
    expect(Object.values(issues).flat()).toContain(message);
  });

  it('Arabic fields accept vowel marks and Arabic-Indic digits', () => {
    expect(messages(goodProduct({ brandAr: 'الْمَرَاعِي', nameAr: 'حليب ١ لتر' }))).toEqual({});
  });

  it('gross weight must be at least the net weight', () => {
    expect(messages(goodProduct({ netWeight: 500, grossWeight: 500 }))).toEqual({});
    expect(messages(goodProduct({ netWeight: 500, grossWeight: 499.9 }))).toEqual({ grossWeight: [M.grossBelowNet] });
  });

  it('a missing field is reported as required, an empty one too', () => {
    const { brandEn: _omit, ...rest } = goodProduct();
    expect(messages(rest)).toEqual({ brandEn: [M.required] });
    expect(messages(goodProduct({ productNumber: '  ' }))).toEqual({ productNumber: [M.required] });
  });

  it('takes the Halal HS list as a parameter', () => {
    const onlyFish = createProductSchema('03');
    expect(messages(goodProduct({ saudiHsCode: '030211', globalHsCode: '030211' }), onlyFish)).toEqual({});
    expect(messages(goodProduct(), onlyFish)).toEqual({ saudiHsCode: [M.hsCodeNotHalal], globalHsCode: [M.hsCodeNotHalal] });
  });

  it('finds repeated products: same food-authority number, or same name under the same brand', () => {
    const p = ZProduct.parse(goodProduct());
    const sameNumber = ZProduct.parse(goodProduct({ nameEn: 'Other Milk', nameAr: 'حليب آخر' }));
    const sameName = ZProduct.parse(goodProduct({ productNumber: 'SFDA2024000000099', nameAr: 'حليب آخر', nameEn: 'fresh full  fat MILK' }));
    const otherBrand = ZProduct.parse(goodProduct({ productNumber: 'SFDA2024000000098', brandAr: 'نادك', brandEn: 'Nadec' }));
    expect(duplicateProducts([p, otherBrand])).toEqual([]);
    expect(duplicateProducts([p, sameNumber])).toEqual([{ index: 1, field: 'productNumber' }]);
    expect(duplicateProducts([p, otherBrand, sameName])).toEqual([{ index: 2, field: 'nameEn' }]);
  });
});
