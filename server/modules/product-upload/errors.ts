import { registerErrorStatus } from '../../errors';

/** Refusals of the product upload form (spec 02 section 8 "product upload"), texts in locales/<lang>/errors.json. */
export const ProductUploadError = {
  /** "products could not be uploaded due to errors in entered data (row N)": each error is a validation detail. */
  RowErrors: 'ProductUploadRowErrors',
  /** Not an .xlsx workbook made from the template. */
  InvalidFile: 'ProductUploadInvalidFile',
  Empty: 'ProductUploadEmpty',
  TooManyRows: 'ProductUploadTooManyRows',
  /** The zip inflates beyond XLSX_LIMITS.maxInflatedBytes (a zip bomb, or far more than a product form). */
  InflatedTooLarge: 'ProductUploadInflatedTooLarge',
  /** A sheet uses or declares rows or columns far beyond the form's. */
  SheetTooLarge: 'ProductUploadSheetTooLarge',
  /** Reading the form took longer than allowed (the worker was stopped). */
  TooSlow: 'ProductUploadTooSlow',
} as const;

registerErrorStatus({
  ProductUploadRowErrors: 400,
  ProductUploadInvalidFile: 400,
  ProductUploadEmpty: 400,
  ProductUploadTooManyRows: 400,
  ProductUploadInflatedTooLarge: 400,
  ProductUploadSheetTooLarge: 400,
  ProductUploadTooSlow: 400,
});
