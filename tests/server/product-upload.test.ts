import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { multipartBody, pdf } from '../helpers/multipart';

let t: TestApp;
let applicant: Client;
let template: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  applicant = await t.login('internal.main');
  const res = await applicant.get('/api/product-upload/template');
  template = res.rawPayload;
});
afterAll(() => t?.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
type Row = Record<string, string | number | null>;

const good = (over: Row = {}): Row => ({
  nameAr: 'حليب طازج كامل الدسم',
  nameEn: 'Fresh Full Fat Milk',
  brandAr: 'المراعي',
  brandEn: 'Almarai',
  saudiHsCode: '040120000000',
  globalHsCode: '040120',
  productNumber: 'SFDA2024000000001',
  technicalSpecifications: 'Pasteurised; 3% fat',
  category: 'CI',
  netWeight: 1000,
  grossWeight: 1050,
  unit: 'ml',
  ...over,
});

/** Fills the downloaded template: rows from row 3, by the column keys of the hidden first row. */
async function filled(rows: Row[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ExcelJS.Buffer);
  const sheet = wb.getWorksheet('Products')!;
  const columns = new Map<string, number>();
  sheet.getRow(1).eachCell((cell, col) => columns.set(String(cell.value), col));
  rows.forEach((row, i) => {
    for (const [key, value] of Object.entries(row)) sheet.getRow(3 + i).getCell(columns.get(key)!).value = value;
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function send(c: Client, content: Buffer, lang = 'en', name = 'products.xlsx', type = XLSX) {
  const { payload, headers } = multipartBody({ name, type, content });
  return c.request({ method: 'POST', url: `/api/product-upload?lang=${lang}`, payload, headers });
}

describe('the product upload template', () => {
  it('is an .xlsx workbook with bilingual headers, hidden lists and drop-down validations', async () => {
    const res = await applicant.get('/api/product-upload/template');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
    expect(wb.worksheets.map((s) => [s.name, s.state])).toEqual([
      ['Products', 'visible'],
      ['Units', 'hidden'],
      ['Categories', 'hidden'],
      ['Instructions', 'visible'],
    ]);
    const products = wb.getWorksheet('Products')!;
    expect(products.getRow(1).hidden).toBe(true);
    expect(products.getCell('J2').value).toBe('الوزن الصافي / Net weight');
    const units = wb.getWorksheet('Units')!;
    const unitRows = [2, 3, 4, 5, 6, 7].map((r) => [units.getCell(`A${r}`).value, units.getCell(`B${r}`).value]);
    expect(unitRows).toEqual([[0, 'kg'], [1, 'g'], [2, 'mg'], [3, 'kl'], [4, 'l'], [5, 'ml']]);
    expect(products.getCell('L3').dataValidation).toMatchObject({ type: 'list', formulae: ['Units!$B$2:$B$7'] });
    expect(products.getCell('I500').dataValidation).toMatchObject({ type: 'list', formulae: ['Categories!$A$2:$A$16'] });
    const instructions = wb.getWorksheet('Instructions')!;
    const text = instructions.getColumn(1).values.join('\n');
    expect(text).toContain('17');
    expect(text).toMatch(/[\u0600-\u06FF]/);
  });

  it('is for applicants: staff are refused, anonymous callers must sign in', async () => {
    const staff = await t.login('registration');
    expect((await staff.get('/api/product-upload/template')).statusCode).toBe(403);
    expect((await t.anonymous.get('/api/product-upload/template')).statusCode).toBe(401);
  });
});

describe('uploading the filled form', () => {
  it('answers the parsed products', async () => {
    const res = await send(applicant, await filled([good(), good({ nameEn: 'Laban Drink', nameAr: 'لبن', productNumber: 'SFDA2024000000002', unit: 4, netWeight: 1, grossWeight: 1.1, technicalSpecifications: null })]));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.count).toBe(2);
    expect(body.products[0]).toEqual({
      nameAr: 'حليب طازج كامل الدسم',
      nameEn: 'Fresh Full Fat Milk',
      brandAr: 'المراعي',
      brandEn: 'Almarai',
      saudiHsCode: '040120000000',
      globalHsCode: '040120',
      productNumber: 'SFDA2024000000001',
      technicalSpecifications: ['Pasteurised', '3% fat'],
      category: 'CI',
      netWeight: 1000,
      grossWeight: 1050,
      unit: 5,
    });
    expect(body.products[1]).toMatchObject({ unit: 4, technicalSpecifications: [] });
  });

  it('restores the leading zero of an HS code typed into a number cell', async () => {
    const res = await send(applicant, await filled([good({ saudiHsCode: 20130, globalHsCode: 20130 })]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().products[0]).toMatchObject({ saudiHsCode: '020130', globalHsCode: '020130' });
  });

  // [column, good value, bad value, English message] — every rule of the product upload form (spec 02 section 5).
  const rules: [string, string | number, string | number | null, string][] = [
    ['nameAr', 'ع'.repeat(100), 'ع'.repeat(101), 'Enter at most 100 characters'],
    ['nameEn', 'M'.repeat(100), 'M'.repeat(101), 'Enter at most 100 characters'],
    ['nameEn', 'Milk', 'Mi', 'Enter at least 3 characters'],
    ['brandAr', 'المراعي', 'Almarai', 'Use Arabic letters only'],
    ['brandEn', 'Almarai', 'المراعي', 'Use English letters only'],
    ['unit', 'kg', 'ton', 'Choose a unit from the list'],
    ['netWeight', 0.1, 0.05, 'Weight must be between 0.1 and 9999999'],
    ['grossWeight', 9999999, 10000000, 'Weight must be between 0.1 and 9999999'],
    ['grossWeight', 1000, 999, 'Total weight must be greater than or equal to net weight'],
    ['productNumber', 'ABCDEFGH123456789', 'ABCDEFGH12345678', 'The food authority product number must be exactly 17 characters, English letters (A-Z) or digits'],
    ['productNumber', 'ABCDEFGH123456789', 'ABCDEFGH1234567-9', 'The food authority product number must be exactly 17 characters, English letters (A-Z) or digits'],
    ['saudiHsCode', '02013000', '02013', 'The HS code must be numeric, 6 to 12 digits'],
    ['globalHsCode', '020130', '0201300000001', 'The HS code must be numeric, 6 to 12 digits'],
    ['saudiHsCode', '020130', '020311', 'Products under this HS code cannot be certified Halal'],
    ['globalHsCode', '020130', '220300', 'Products under this HS code cannot be certified Halal'],
    ['category', 'CIV', 'XYZ', 'Choose a category from the list'],
    ['brandEn', 'Almarai', null, 'This field is required'],
  ];
  const labels: Record<string, string> = {
    nameAr: 'Product name (Arabic)',
    nameEn: 'Product name (English)',
    brandAr: 'Brand (Arabic)',
    brandEn: 'Brand (English)',
    unit: 'Unit',
    netWeight: 'Net weight',
    grossWeight: 'Gross weight',
    productNumber: 'Food authority product number',
    saudiHsCode: 'Saudi HS code',
    globalHsCode: 'Global HS code',
    category: 'Category',
  };

  it.each(rules)('%s: accepts %j and refuses %j with its row number', async (column, goodValue, badValue, message) => {
    const ok = await send(applicant, await filled([good({ [column]: goodValue })]));
    expect(ok.statusCode, ok.body).toBe(200);
    // The bad value sits in the second product, so sheet row 4.
    const res = await send(applicant, await filled([good({ productNumber: 'SFDA2024000000009', nameEn: 'Other Milk', nameAr: 'حليب آخر' }), good({ [column]: badValue })]));
    expect(res.statusCode).toBe(400);
    const error = res.json().error;
    expect(error.code).toBe('ProductUploadRowErrors');
    expect(error.message).toBe('Products could not be uploaded due to errors in entered data (row 4).');
    expect(error.validationErrors).toContainEqual(expect.objectContaining({ message: `Row 4, ${labels[column]}: ${message}`, members: [`rows.4.${column}`] }));
  });

  it('reports every erroneous row, and a product repeated within the form', async () => {
    const rows = [good(), good({ netWeight: 0 }), good({ nameEn: 'Yoghurt', nameAr: 'زبادي' }), good({ productNumber: 'SFDA2024000000003', unit: 'box' })];
    const res = await send(applicant, await filled(rows));
    expect(res.statusCode).toBe(400);
    const error = res.json().error;
    expect(error.message).toBe('Products could not be uploaded due to errors in entered data (row 4, 5, 6).');
    expect(error.validationErrors.map((v: { members: string[] }) => v.members[0])).toEqual(['rows.4.netWeight', 'rows.5.productNumber', 'rows.6.unit']);
    expect(error.validationErrors[1].message).toBe('Row 5, Food authority product number: This product already exists');
  });

  it('answers in the language asked, and names the column and the message as keys the web says again after a switch', async () => {
    const file = await filled([good({ brandAr: 'Almarai' })]);
    const error = (await send(applicant, file, 'ar')).json().error;
    expect(error.message).toBe('تعذر رفع المنتجات بسبب أخطاء في البيانات المدخلة (الصف 3).');
    expect(error.validationErrors[0].message).toBe('الصف 3، العلامة التجارية (عربي): استخدم الحروف العربية فقط');
    expect((await send(applicant, file, 'en')).json().error.validationErrors[0].message).toBe('Row 3, Brand (Arabic): Use Arabic letters only');
    // Keys, not words of the request's language: the column's key and the validation key.
    expect(error.validationErrors[0]).toMatchObject({ key: 'validation:form.productRow', params: { row: 3, column: 'brandAr', message: 'arabicOnly' } });
  });

  it('refuses a file that is not the filled template', async () => {
    const code = async (content: Buffer, name = 'products.xlsx') => (await send(applicant, content, 'en', name)).json().error.code;
    expect(await code(pdf(), 'products.xlsx')).toBe('ProductUploadInvalidFile');
    expect(await code(await filled([good()]), 'products.xls')).toBe('ProductUploadInvalidFile');
    expect(await code(await filled([good()]), 'my.products.xlsx')).toBe('UploadTwoDotsInName');
    const other = new ExcelJS.Workbook();
    other.addWorksheet('Sheet1').addRow(['name', 'weight']);
    expect(await code(Buffer.from(await other.xlsx.writeBuffer()))).toBe('ProductUploadInvalidFile');
    expect(await code(template)).toBe('ProductUploadEmpty');
  });

  it('refuses more than 1000 products', async () => {
    const rows = Array.from({ length: 1001 }, (_, i) => good({ productNumber: `SFDA${String(i).padStart(13, '0')}`, nameEn: `Milk ${i}`, nameAr: `حليب ${i}` }));
    const res = await send(applicant, await filled(rows));
    expect(res.json().error).toMatchObject({ code: 'ProductUploadTooManyRows', message: 'The product upload form may contain at most 1000 products.' });
  });

  it('is for applicants only', async () => {
    const staff = await t.login('audit');
    expect((await send(staff, await filled([good()]))).statusCode).toBe(403);
  });
});

describe('the form size limit comes from configuration', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ MAX_PRODUCT_UPLOAD_MB: '0.001' });
  });
  afterAll(() => small?.close());

  it('refuses a larger workbook', async () => {
    const c = await small.login('internal.main');
    const res = await send(c, await filled([good()]));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('UploadExceedsSize');
  });
});
