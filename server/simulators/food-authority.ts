import type { FastifyPluginAsync } from 'fastify';
import type { FoodAuthorityProduct } from '../adapters/food-authority';

/**
 * The products the food-authority simulator knows (README lists them): the demo's and the tests' products, with the
 * names and Saudi HS codes the authority registered. A product number it does not list is unknown (404).
 */
export const SEEDED_PRODUCTS: FoodAuthorityProduct[] = [
  { productNumber: 'SFDA2024000000001', nameAr: 'حليب طازج كامل الدسم', nameEn: 'Fresh Full Fat Milk', hsCode: '040120000000' },
  { productNumber: 'SFDA2024000000002', nameAr: 'خبز أبيض شرائح', nameEn: 'Sliced White Bread', hsCode: '190590900000' },
  { productNumber: 'SFDA2024000000003', nameAr: 'لبن قليل الدسم', nameEn: 'Low Fat Laban', hsCode: '040390000000' },
  { productNumber: 'SFDA2024000000009', nameAr: 'لبن زبادي', nameEn: 'Plain Yoghurt', hsCode: '040310000000' },
  { productNumber: 'TRX00000000000001', nameAr: 'لحم بقري مجمد', nameEn: 'Frozen Beef', hsCode: '020230000000' },
  { productNumber: 'TRX00000000000002', nameAr: 'لحم ضأن مجمد', nameEn: 'Frozen Lamb', hsCode: '020430000000' },
  { productNumber: 'TRX00000000000003', nameAr: 'لحم عجل مجمد', nameEn: 'Frozen Veal', hsCode: '020430000000' },
  { productNumber: 'TRX00000000000004', nameAr: 'لحم خروف مجمد', nameEn: 'Frozen Mutton', hsCode: '020430000000' },
  // The browser walks' products (tests/e2e): every certificate request now asks the authority about its products.
  { productNumber: 'TRA00000000000001', nameAr: 'لحم بقري طازج منزوع العظم', nameEn: 'Fresh Boneless Beef', hsCode: '020130000000' },
  { productNumber: 'TRA00000000000002', nameAr: 'ذبائح ضأن مجمدة', nameEn: 'Frozen Lamb Carcasses', hsCode: '020430000000' },
  { productNumber: 'TRA00000000000003', nameAr: 'لحم بقري مجمد منزوع العظم', nameEn: 'Frozen Boneless Beef', hsCode: '020230000000' },
  { productNumber: 'TRA00000000000004', nameAr: 'قطع دجاج مجمدة', nameEn: 'Frozen Chicken Cuts', hsCode: '020714000000' },
  // Registered under the 6-digit heading the walks type (the form accepts 6 to 12 digits; the check compares as typed).
  { productNumber: 'ABC12345678901234', nameAr: 'حليب طازج', nameEn: 'Fresh Milk', hsCode: '040110' },
  { productNumber: 'ABC12345678901235', nameAr: 'لبن طازج', nameEn: 'Fresh Laban', hsCode: '040390' },
  { productNumber: 'XYZ12345678901233', nameAr: 'لحم بقري مجمد', nameEn: 'Frozen Beef', hsCode: '020230' },
  { productNumber: 'XYZ12345678901234', nameAr: 'لحم بقري مجمد', nameEn: 'Frozen Beef', hsCode: '020230' },
];

/** Food-authority simulator: `GET /products/{productNumber}` with an `apiKey` header. */
export const foodAuthoritySimulator = (apiKey: string): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Params: { productNumber: string } }>('/products/:productNumber', async (request, reply) => {
      if (request.headers.apikey !== apiKey) return reply.status(401).send({ code: 'unauthorized' });
      const product = SEEDED_PRODUCTS.find((p) => p.productNumber === request.params.productNumber.toUpperCase());
      if (!product) return reply.status(404).send({ code: 'not_found', message: 'Product not found' });
      return product;
    });
  };
