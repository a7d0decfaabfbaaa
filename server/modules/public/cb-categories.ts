/**
 * The categories a conformity body is designated for: the food chain categories of ISO/TS 22003-1:2022, which
 * Halal accreditation schemes use to scope a CB's designation. Labels are in locales/<lang>/public.json under
 * `cbCategory.<code>`.
 */
export const CB_CATEGORIES = [
  'AI', // farming of animals for meat, milk, eggs, honey
  'AII', // farming of fish and seafood
  'BI', // farming of plants (other than grains and pulses)
  'BII', // farming of grains and pulses
  'C0', // animal primary conversion (slaughtering)
  'CI', // processing of perishable animal products
  'CII', // processing of perishable plant products
  'CIII', // processing of perishable animal and plant products (mixed)
  'CIV', // processing of ambient stable products
  'D', // production of feed
  'E', // catering and food service
  'FI', // retail and wholesale
  'G', // transport and storage
  'I', // production of food packaging
  'K', // production of (bio)chemicals: additives, vitamins, enzymes, flavourings
] as const;
export type CbCategory = (typeof CB_CATEGORIES)[number];
