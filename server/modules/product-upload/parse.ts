import ExcelJS from 'exceljs';
import type { z } from 'zod';
import { UNITS } from '../../../machines/forms/catalogues';
import { formIssuesOf } from '../../../machines/forms/messages';
import { duplicateProducts, type TProduct } from '../../../machines/forms/product';
import { FormMessage } from '../../../machines/forms/messages';
import { AppError } from '../../errors';
import { FIRST_DATA_ROW, KEY_ROW, MAX_PRODUCT_ROWS, PRODUCT_COLUMNS, SHEETS } from './columns';
import { ProductUploadError } from './errors';
import { inspectXlsx, XLSX_LIMITS } from './xlsx-limits';

/** One product row as read from the sheet, before validation; `row` is the row number Excel shows. */
export interface SheetRow {
  row: number;
  values: Record<string, unknown>;
}

export interface RowError {
  row: number;
  /** The product field (a column of the form). */
  field: string;
  /** Key of the `validation` namespace. */
  message: string;
}

type Plain = string | number | boolean | Date | null;

/** The value a person sees in a cell: rich text joined, hyperlinks as their text, formulas as their result. */
function plain(v: ExcelJS.CellValue): Plain {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || v instanceof Date) return v;
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('hyperlink' in v) return String(v.text ?? '');
  if ('formula' in v || 'sharedFormula' in v) return plain((v as { result?: ExcelJS.CellValue }).result ?? null);
  if ('error' in v) return String(v.error);
  return null;
}

const isBlank = (v: Plain) => v === null || (typeof v === 'string' && v.trim() === '');

/** Text of a cell; a number typed into a text column keeps its digits (no exponent for the sizes in question). */
function asText(v: Plain): string | undefined {
  if (isBlank(v)) return undefined;
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

/**
 * HS codes have an even number of digits (6, 8, 10, 12). A code typed into a number-formatted cell loses its
 * leading zero (020130 becomes 20130); an odd count of digits from a numeric cell is that case, so the zero is
 * restored. Text cells are taken as written.
 */
function hsCode(v: Plain): string | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) {
    const digits = v.toFixed(0);
    return digits.length % 2 === 1 ? `0${digits}` : digits;
  }
  return asText(v)?.trim();
}

/** The unit column holds a symbol from the list (kg, g, mg, kl, l, ml) or a code 0-5. */
function unit(v: Plain): unknown {
  if (isBlank(v)) return undefined;
  if (typeof v === 'number') return v;
  const s = String(v).trim().toLowerCase();
  const bySymbol = UNITS.find((u) => u.symbol === s);
  return bySymbol ? bySymbol.code : s;
}

/** Several technical specifications share one cell, separated by semicolons or line breaks. */
function specifications(v: Plain): string[] {
  const s = asText(v);
  return s ? s.split(/[;\n\r]+/).map((x) => x.trim()).filter(Boolean) : [];
}

function fieldValue(key: string, v: Plain): unknown {
  switch (key) {
    case 'saudiHsCode':
    case 'globalHsCode':
      return hsCode(v);
    case 'unit':
      return unit(v);
    case 'technicalSpecifications':
      return specifications(v);
    case 'netWeight':
    case 'grossWeight':
      return isBlank(v) ? undefined : typeof v === 'number' ? v : asText(v);
    default:
      return asText(v);
  }
}

/**
 * Reads the product rows of an uploaded form, on the calling thread (the server calls it in a worker thread, see
 * xlsx-worker.ts). First the zip is inspected with bounded work (xlsx-limits.ts): a part inflating beyond the limit
 * or a sheet reaching past the allowed rows or columns is refused before the spreadsheet library sees it. Then
 * refuses a file that is not an .xlsx workbook with the template's column keys, an empty form, and one with more than
 * MAX_PRODUCT_ROWS products.
 */
export async function readProductRowsHere(buffer: Uint8Array): Promise<SheetRow[]> {
  const inspected = inspectXlsx(buffer);
  if (!inspected.ok) {
    if (inspected.reason === 'inflatedTooLarge') throw new AppError(ProductUploadError.InflatedTooLarge, { maxMb: XLSX_LIMITS.maxInflatedBytes / 1024 / 1024 });
    if (inspected.reason === 'sheetTooLarge') throw new AppError(ProductUploadError.SheetTooLarge, { maxRow: XLSX_LIMITS.maxRow, maxColumn: XLSX_LIMITS.maxColumn });
    throw new AppError(ProductUploadError.InvalidFile);
  }
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength) as unknown as ExcelJS.Buffer);
  } catch {
    throw new AppError(ProductUploadError.InvalidFile);
  }
  const sheet = wb.getWorksheet(SHEETS.products) ?? wb.worksheets[0];
  if (!sheet) throw new AppError(ProductUploadError.InvalidFile);
  const keys = PRODUCT_COLUMNS.map((_, i) => asText(plain(sheet.getRow(KEY_ROW).getCell(i + 1).value)));
  if (PRODUCT_COLUMNS.some((c, i) => keys[i] !== c.key)) throw new AppError(ProductUploadError.InvalidFile);

  const rows: SheetRow[] = [];
  // rowCount is bounded by the inspection above (XLSX_LIMITS.maxRow).
  for (let r = FIRST_DATA_ROW; r <= Math.min(sheet.rowCount, XLSX_LIMITS.maxRow); r++) {
    const cells = PRODUCT_COLUMNS.map((_, i) => plain(sheet.getRow(r).getCell(i + 1).value));
    if (cells.every(isBlank)) continue;
    if (rows.length === MAX_PRODUCT_ROWS) throw new AppError(ProductUploadError.TooManyRows, { max: MAX_PRODUCT_ROWS });
    rows.push({ row: r, values: Object.fromEntries(PRODUCT_COLUMNS.map((c, i) => [c.key, fieldValue(c.key, cells[i])])) });
  }
  if (!rows.length) throw new AppError(ProductUploadError.Empty);
  return rows;
}

const columnOrder = new Map(PRODUCT_COLUMNS.map((c, i) => [c.key as string, i]));

/**
 * Validates each row with the product schema (spec 02 section 5) and refuses products repeated within the form.
 * Returns the products, or every error with its row.
 */
export function validateProductRows(
  rows: readonly SheetRow[],
  schema: z.ZodType<TProduct, unknown>,
): { products: TProduct[]; errors: [] } | { products: []; errors: RowError[] } {
  const errors: RowError[] = [];
  const valid: { row: number; product: TProduct }[] = [];
  for (const { row, values } of rows) {
    const r = schema.safeParse(values);
    if (r.success) valid.push({ row, product: r.data });
    else for (const i of formIssuesOf(r.error.issues)) errors.push({ row, field: i.path.split('.')[0], message: i.message });
  }
  for (const d of duplicateProducts(valid.map((v) => v.product))) {
    errors.push({ row: valid[d.index].row, field: d.field, message: FormMessage.productDuplicate });
  }
  if (errors.length) {
    // One message per field and row is enough to fix it; keep the first zod gave.
    const seen = new Set<string>();
    const unique = errors
      .sort((a, b) => a.row - b.row || (columnOrder.get(a.field) ?? 99) - (columnOrder.get(b.field) ?? 99))
      .filter((e) => !seen.has(`${e.row}:${e.field}`) && seen.add(`${e.row}:${e.field}`));
    return { products: [], errors: unique };
  }
  return { products: valid.map((v) => v.product), errors: [] };
}
