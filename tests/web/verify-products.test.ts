import { describe, expect, it } from 'vitest';
import { verifyProductColumns } from '../../web/src/routes/public/verify-products';

/** The public verification page (/verify/:code) lists a certificate's products; a Halal mark's carry no HS code (walk1 item 15). */
describe('verifyProductColumns', () => {
  it('a Halal mark whose products have no HS code shows no HS code column (no empty "HS code" line on its card)', () => {
    expect(verifyProductColumns([{ hsCode: undefined }, {}])).toEqual(['product', 'brand']);
    expect(verifyProductColumns([{ hsCode: '' }, { hsCode: null }])).toEqual(['product', 'brand']);
  });

  it('a certificate whose products have HS codes shows them', () => {
    expect(verifyProductColumns([{ hsCode: '020230000000' }, {}])).toEqual(['product', 'brand', 'hsCode']);
  });
});
