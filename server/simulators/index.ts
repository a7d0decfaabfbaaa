import type { FastifyInstance } from 'fastify';
import { crRegistrySimulator } from './cr-registry';
import { foodAuthoritySimulator } from './food-authority';
import { recaptchaSimulator } from './recaptcha';
import { smsSimulator } from './sms';
import { paymentPortalSimulatorFor, PAYMENT_PORTAL_SIMULATOR_PATH } from './payment-portal/plugin';

/**
 * Local stand-ins for the external services, mounted under /simulators/* when config.SIMULATORS is true. They speak
 * the protocols the adapters (server/adapters/) speak to the real services, so switching is a base-URL change.
 * Not under /api: they are other systems, not the portal's API.
 */
export async function registerSimulators(app: FastifyInstance): Promise<void> {
  // Defence in depth behind loadConfig: the SMS simulator publishes OTPs and the payment one marks bills paid.
  if (app.config.NODE_ENV === 'production') throw new Error('The simulators cannot run in production');
  await app.register(crRegistrySimulator(app.config.CR_REGISTRY_API_KEY), { prefix: '/simulators/cr' });
  await app.register(foodAuthoritySimulator(app.config.FOOD_AUTHORITY_API_KEY), { prefix: '/simulators/foodAuthority' });
  await app.register(recaptchaSimulator(app.config.RECAPTCHA_SECRET), { prefix: '/simulators/recaptcha' });
  await app.register(smsSimulator(app.config.SMS_PROVIDER_API_KEY), { prefix: '/simulators/sms' });
  await app.register(paymentPortalSimulatorFor(app.config), { prefix: PAYMENT_PORTAL_SIMULATOR_PATH });
}
