import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';
import { callJson, serviceBaseUrl } from './http';

/**
 * The food authority's product system (spec 02 section 5: "product data must match the food authority system"): a
 * registered product by its 17-character product number, with its names and HS code. The simulator
 * (server/simulators/food-authority.ts) serves exactly this shape.
 */
export interface FoodAuthorityProduct {
  productNumber: string;
  nameAr: string;
  nameEn: string;
  /** Saudi HS code, 12 digits. */
  hsCode: string;
}

export interface FoodAuthority {
  /** The registered product, or null when the authority does not know the number. */
  product(productNumber: string): Promise<FoodAuthorityProduct | null>;
}

/** The answer of `GET /products/{productNumber}`. */
interface ProductAnswer {
  productNumber: string;
  nameAr: string;
  nameEn: string;
  hsCode: string;
}

export function createFoodAuthority(opts: { baseUrl: string; apiKey: string; timeoutMs: number; fetchImpl?: typeof fetch }): FoodAuthority {
  return {
    async product(productNumber) {
      const { status, body } = await callJson<ProductAnswer>(
        `${opts.baseUrl}/products/${encodeURIComponent(productNumber)}`,
        { headers: { apiKey: opts.apiKey }, timeoutMs: opts.timeoutMs, fetchImpl: opts.fetchImpl },
        'foodAuthority',
      );
      if (status === 404) return null;
      if (status !== 200 || !body || typeof body.nameEn !== 'string' || typeof body.hsCode !== 'string') {
        throw new AppError('ExternalServiceUnavailable', { service: 'foodAuthority' });
      }
      return { productNumber: body.productNumber, nameAr: body.nameAr, nameEn: body.nameEn, hsCode: body.hsCode };
    },
  };
}

const perApp = new WeakMap<object, FoodAuthority>();

/** The food-authority client of this server (keyed by its config, shared by every plugin context). */
export function foodAuthorityOf(app: FastifyInstance): FoodAuthority {
  let f = perApp.get(app.config);
  if (!f) {
    f = createFoodAuthority({ baseUrl: serviceBaseUrl(app.config, 'foodAuthority'), apiKey: app.config.FOOD_AUTHORITY_API_KEY, timeoutMs: app.config.EXTERNAL_TIMEOUT_MS });
    perApp.set(app.config, f);
  }
  return f;
}
