import { describe, expect, it } from 'vitest';
import { jsonBytesOver } from '../../machines/services/validate';

// The size limits of sections and requests count UTF-8 bytes of the stored JSON; Buffer.byteLength is the reference.
describe('jsonBytesOver', () => {
  const values = {
    ascii: { name: 'Frozen Beef', n: 20 },
    arabic: { name: 'لحم بقري مجمد' },
    threeBytes: { price: '€€€ ₺' },
    allThreeBytes: '€'.repeat(40),
    surrogates: { mark: '😀😀 ok' },
    mixed: ['a', 'ب', '€', '😀', { x: 'لحم' }],
  };
  for (const [name, value] of Object.entries(values)) {
    it(`decides ${name} at its exact byte count`, () => {
      const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
      expect(jsonBytesOver(value, bytes)).toBe(false);
      expect(jsonBytesOver(value, bytes - 1)).toBe(true);
      // Inside the band the text's length alone cannot decide (length < max < 3 × length).
      for (let max = 1; max < bytes * 4; max++) expect(jsonBytesOver(value, max)).toBe(bytes > max);
    });
  }
});
