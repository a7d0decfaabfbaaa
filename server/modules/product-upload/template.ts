import ExcelJS from 'exceljs';
import { PRODUCT_CATEGORY_CODES, UNITS } from '../../../machines/forms/catalogues';
import { tFor } from '../../i18n';
import { FIRST_DATA_ROW, HEADER_ROW, KEY_ROW, PRODUCT_COLUMNS, SHEETS, TEMPLATE_ROWS } from './columns';

const ar = tFor('ar');
const en = tFor('en');
/** "Arabic / English": the template serves both languages at once. */
const both = (key: string) => `${ar(key)} / ${en(key)}`;

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F5F3F' } };

/** Column letter of a 1-based index (A..Z is enough for the form's dozen columns). */
const letter = (index: number) => String.fromCharCode(64 + index);

/**
 * The product upload form (.xlsx): a Products sheet with bilingual headers and drop-down lists for the unit and
 * the category, hidden sheets holding those lists (units 0 kg, 1 g, 2 mg, 3 kl, 4 l, 5 ml per spec 02 section 3),
 * and a bilingual Instructions sheet with the rules each row is checked against.
 */
export async function buildProductTemplate(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Halal certification portal';
  wb.created = new Date(0);

  const products = wb.addWorksheet(SHEETS.products, { views: [{ state: 'frozen', ySplit: HEADER_ROW }] });
  const units = wb.addWorksheet(SHEETS.units, { state: 'hidden' });
  const categories = wb.addWorksheet(SHEETS.categories, { state: 'hidden' });
  const instructions = wb.addWorksheet(SHEETS.instructions);

  // Lists first: the products sheet's validations point at them.
  units.addRow([both('forms:productUpload.code'), both('forms:productUpload.symbol'), ar('forms:productUpload.name'), en('forms:productUpload.name')]);
  for (const u of UNITS) units.addRow([u.code, u.symbol, ar(`forms:unit.${u.code}`), en(`forms:unit.${u.code}`)]);
  categories.addRow([both('forms:productUpload.code'), ar('forms:productUpload.name'), en('forms:productUpload.name')]);
  for (const c of PRODUCT_CATEGORY_CODES) categories.addRow([c, ar(`forms:category.${c}`), en(`forms:category.${c}`)]);
  const unitList = `${SHEETS.units}!$B$2:$B$${UNITS.length + 1}`;
  const categoryList = `${SHEETS.categories}!$A$2:$A$${PRODUCT_CATEGORY_CODES.length + 1}`;

  products.columns = PRODUCT_COLUMNS.map((c) => ({ key: c.key, width: c.width, style: c.text ? { numFmt: '@' } : {} }));
  const keyRow = products.getRow(KEY_ROW);
  const headerRow = products.getRow(HEADER_ROW);
  PRODUCT_COLUMNS.forEach((c, i) => {
    keyRow.getCell(i + 1).value = c.key;
    const h = headerRow.getCell(i + 1);
    h.value = both(`forms:product.${c.key}`);
    h.font = { bold: true, color: { argb: 'FFFFFFFF' } };
    h.fill = HEADER_FILL;
    h.alignment = { wrapText: true, vertical: 'middle', horizontal: 'center' };
  });
  keyRow.hidden = true;
  headerRow.height = 36;

  // One validation per column range. Per-cell validations would be squeezed by exceljs into overlapping ranges
  // (it sorts addresses as text, so I10 comes before I3), which Excel reports as a damaged file.
  const validations = (products as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } })
    .dataValidations;
  const listError = both('forms:productUpload.listError');
  PRODUCT_COLUMNS.forEach((c, i) => {
    if (!c.list) return;
    const col = letter(i + 1);
    validations.add(`${col}${FIRST_DATA_ROW}:${col}${FIRST_DATA_ROW + TEMPLATE_ROWS - 1}`, {
      type: 'list',
      allowBlank: true,
      formulae: [c.list === 'units' ? unitList : categoryList],
      showErrorMessage: true,
      errorTitle: both(`forms:product.${c.key}`),
      error: listError,
    });
  });

  instructions.columns = [{ width: 100 }];
  for (const [t, rtl] of [[ar, true], [en, false]] as const) {
    const alignment: Partial<ExcelJS.Alignment> = { wrapText: true, readingOrder: rtl ? 'rtl' : 'ltr', horizontal: rtl ? 'right' : 'left' };
    const title = instructions.addRow([t('forms:productUpload.instructionsSheet')]);
    title.font = { bold: true, size: 14 };
    title.alignment = alignment;
    for (const line of t('forms:productUpload.instructions', { returnObjects: true }) as string[]) instructions.addRow([line]).alignment = alignment;
    instructions.addRow([]);
  }

  return Buffer.from(await wb.xlsx.writeBuffer());
}
