import { expect, it } from 'vitest';
import { apiDocument, apiTypesSource } from '../../scripts/api-types';

/**
 * Issue 16 item 5: web/src/api/schema.gen.ts is what the server's document generates. A server change that alters the
 * document fails here until `npm run api:types` regenerates the file (and the web then type-checks against it).
 */
it('the committed web API types are generated from the current document', async () => {
  const source = await apiTypesSource(await apiDocument());
  await expect(source).toMatchFileSnapshot('../../web/src/api/schema.gen.ts');
}, 120_000);
