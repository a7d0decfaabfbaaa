import type { TProduct } from '../../../machines/forms/product';
import { INTERNAL_REQUEST_LIMITS } from '../../../machines/forms/internal-request';

/**
 * The columns of the product upload form, in sheet order. Row 1 of the sheet holds these keys (hidden), row 2 the
 * bilingual headers, and products start at row 3, so the row numbers in error messages are the ones Excel shows
 * and renaming a header never breaks parsing.
 */
export const PRODUCT_COLUMNS: readonly { key: keyof TProduct; width: number; text?: boolean; list?: 'units' | 'categories' }[] = [
  { key: 'nameAr', width: 32, text: true },
  { key: 'nameEn', width: 32, text: true },
  { key: 'brandAr', width: 24, text: true },
  { key: 'brandEn', width: 24, text: true },
  // HS codes and the product number are text: Excel would drop leading zeros and round 17-digit numbers.
  { key: 'saudiHsCode', width: 20, text: true },
  { key: 'globalHsCode', width: 20, text: true },
  { key: 'productNumber', width: 26, text: true },
  { key: 'technicalSpecifications', width: 40, text: true },
  { key: 'category', width: 14, list: 'categories' },
  { key: 'netWeight', width: 14 },
  { key: 'grossWeight', width: 14 },
  { key: 'unit', width: 12, list: 'units' },
];

export const KEY_ROW = 1;
export const HEADER_ROW = 2;
export const FIRST_DATA_ROW = 3;
/** Rows prepared with drop-down lists in the template; the parser reads any number up to MAX_PRODUCT_ROWS. */
export const TEMPLATE_ROWS = 1000;
/** As many products as one request may hold. */
export const MAX_PRODUCT_ROWS = INTERNAL_REQUEST_LIMITS.products;

/** Sheet names are fixed (not translated) so the parser finds them in a template of either language. */
export const SHEETS = { products: 'Products', units: 'Units', categories: 'Categories', instructions: 'Instructions' } as const;
