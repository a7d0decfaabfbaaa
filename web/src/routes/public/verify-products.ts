/** The product columns of the public verification page. */
export type VerifyProductColumn = 'product' | 'brand' | 'hsCode';

/**
 * The columns the product table shows: the HS code only when a product has one. A Halal mark's products carry no HS
 * code (the mark names the product by its number); an always-shown column was an empty "HS code" row on every mark's
 * card (walk1 item 15).
 */
export function verifyProductColumns(products: readonly { hsCode?: string | null }[]): VerifyProductColumn[] {
  return products.some((p) => !!p.hsCode?.trim()) ? ['product', 'brand', 'hsCode'] : ['product', 'brand'];
}
