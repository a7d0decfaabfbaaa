/** A complete production environment (every value a real deployment would set). */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a-production-jwt-secret-of-at-least-32-characters',
  PAYMENT_CALLBACK_SECRET: 'a-production-callback-secret',
  DATABASE_URL: 'postgres://halal@db.internal:5432/halal',
  PUBLIC_URL: 'https://halal.example.gov.sa',
  CR_REGISTRY_URL: 'https://cr.example.gov.sa/api',
  CR_REGISTRY_API_KEY: 'cr-real-key',
  PAYMENT_PORTAL_URL: 'https://pay.example.gov.sa',
  PAYMENT_PORTAL_API_KEY: 'pay-real-key',
  SMS_PROVIDER_URL: 'https://sms.example.com',
  SMS_PROVIDER_API_KEY: 'sms-real-key',
  RECAPTCHA_URL: 'https://www.google.com/recaptcha/api',
  RECAPTCHA_SECRET: 'recaptcha-real-secret',
  HISTORY_KEYS: 'k2025:0123456789abcdef0123456789abcdef-history',
  LOG_LEVEL: 'silent',
  TIMER_POLL_MS: '0',
} as const;
