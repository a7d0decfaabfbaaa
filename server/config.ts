import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * Every setting the server reads, parsed once at start. A bad value stops the process naming the variable
 * (see loadConfig). Defaults are the ones a fresh `npm start` on one machine needs; production sets its own.
 */
export const ZConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * Public base URL (scheme, host, optional port and path): the only source of the links in SMS, QR codes and payment
   * callbacks. Required in production; elsewhere unset means the Host header of the request (never X-Forwarded-Host).
   */
  PUBLIC_URL: z.string().url().refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL').optional(),
  /**
   * Proxies whose X-Forwarded-For / -Proto are believed: comma-separated addresses or CIDR ranges
   * (e.g. `10.0.0.1,172.16.0.0/12`). Unset (the default) trusts no proxy: the client address is the socket's, so
   * rate limits hold whatever X-Forwarded-For says.
   */
  TRUST_PROXY: z
    .string()
    .regex(/^\s*[0-9a-fA-F:.]+(\/\d{1,3})?\s*(,\s*[0-9a-fA-F:.]+(\/\d{1,3})?\s*)*$/, 'comma-separated IP addresses or CIDR ranges')
    .optional(),
  /**
   * Keys of the history chain's HMAC: comma-separated `keyId:secret` pairs (secret at least 32 characters), the first
   * one signs new rows, the others still verify older rows (rotation). Required in production.
   */
  HISTORY_KEYS: z
    .string()
    .regex(/^\s*[A-Za-z0-9_-]{1,32}:[^,\s]{32,}\s*(,\s*[A-Za-z0-9_-]{1,32}:[^,\s]{32,}\s*)*$/, 'comma-separated keyId:secret pairs, secrets of at least 32 characters')
    .optional(),
  /** Accept history rows hashed with the unkeyed SHA-256 of before (data written before HISTORY_KEYS existed). */
  HISTORY_ACCEPT_LEGACY: z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1').default(false),
  DATA_DIR: z.string().min(1).default('./data'),
  /** The built web app to serve (vite build output); unset means web/dist. E2E runs point it at their own build. */
  WEB_DIST: z.string().min(1).optional(),
  /** PostgreSQL URL; unset means embedded PGlite in DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Secret for session JWTs; in production it must be set and long. */
  JWT_SECRET: z.string().min(32).default('dev-only-secret-change-me-in-production-0123456789'),
  /** Idle minutes before the session ends (spec: sessionTime). */
  SESSION_TIME_MINUTES: z.coerce.number().positive().max(24 * 60).default(20),
  /** How many units the idle warning counts down (spec: 5). */
  SESSION_WARNING_COUNTDOWN: z.coerce.number().int().min(1).max(600).default(5),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  WORKFLOW_ENGINE: z.enum(['embedded', 'temporal']).default('embedded'),
  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('halal-requests'),
  /** Timer runner poll interval; 0 disables the runner (tests drive it by hand). */
  TIMER_POLL_MS: z.coerce.number().int().min(0).default(1000),
  /**
   * Payment reconciliation sweep interval (server/modules/payments/reconcile-payments.ts): asks the payment portal about
   * payments whose callback never came and tells requests a paid bill they never heard of; 0 disables it (tests run it by hand).
   */
  PAYMENT_RECONCILE_MS: z.coerce.number().int().min(0).default(60_000),
  /** Days a draft or stopped request is kept before automatic deletion. */
  DRAFT_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** Hours a bill may stay unpaid before it expires. */
  PAYMENT_WINDOW_HOURS: z.coerce.number().positive().default(72),
  /**
   * Run the local simulators of the external government services inside this process. Default: on outside
   * production; in production they are off and cannot be turned on.
   */
  SIMULATORS: bool.optional(),
  /** Base URLs of the external services; default to the local simulators mounted under /simulators. */
  CR_REGISTRY_URL: z.string().url().optional(),
  PAYMENT_PORTAL_URL: z.string().url().optional(),
  SMS_PROVIDER_URL: z.string().url().optional(),
  RECAPTCHA_URL: z.string().url().optional(),
  FOOD_AUTHORITY_URL: z.string().url().optional(),
  /** Credentials of the external services (the simulators accept the defaults). */
  CR_REGISTRY_API_KEY: z.string().min(1).default('simulator-key'),
  FOOD_AUTHORITY_API_KEY: z.string().min(1).default('simulator-key'),
  RECAPTCHA_SECRET: z.string().min(1).default('simulator-secret'),
  SMS_PROVIDER_API_KEY: z.string().min(1).default('simulator-key'),
  SMS_SENDER: z.string().min(1).max(11).default('HALAL'),
  /** Timeout of every call to an external service. */
  EXTERNAL_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** OTP and SMS limits (spec 01 section 8, notification codes 1001-1006). */
  OTP_TTL_SECONDS: z.coerce.number().int().min(30).default(300),
  OTP_RESEND_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  OTP_MAX_RESENDS: z.coerce.number().int().min(0).default(3),
  OTP_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  /** SMS messages one phone number may receive in 24 hours (1001). */
  SMS_DAILY_LIMIT_PER_PHONE: z.coerce.number().int().min(1).default(10),
  /** The same message (purpose and subject) to one phone number in 24 hours (1002). */
  SMS_DUPLICATE_MAX: z.coerce.number().int().min(1).default(5),
  /** Hours a new delegate's set-password link stays valid. */
  DELEGATE_INVITATION_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(72),
  VAT_RATE: z.coerce.number().min(0).max(1).default(0.15),
  /** Government payment portal: API key of the create-payment call, and the HMAC secret its callbacks are signed with. */
  PAYMENT_PORTAL_API_KEY: z.string().min(1).default('simulator-key'),
  PAYMENT_CALLBACK_SECRET: z.string().min(16).default('dev-only-payment-callback-secret'),
  /** Fee schedule in SAR excluding VAT (the spec gives only the shipment rate; reasons in server/modules/payments/fees.ts). */
  FEE_APPLICATION_SAR: z.coerce.number().min(0).default(1000),
  FEE_AUDIT_PER_AUDITOR_DAY_SAR: z.coerce.number().min(0).default(2500),
  FEE_INTERNAL_CERTIFICATE_YEAR_SAR: z.coerce.number().min(0).default(5000),
  FEE_EXTERNAL_CERTIFICATE_YEAR_SAR: z.coerce.number().min(0).default(7500),
  FEE_CB_APPOINTMENT_REQUEST_SAR: z.coerce.number().min(0).default(10000),
  FEE_CB_DESIGNATION_SAR: z.coerce.number().min(0).default(30000),
  FEE_CB_RENEWAL_SAR: z.coerce.number().min(0).default(25000),
  FEE_SHIPMENT_PER_27_TONS_SAR: z.coerce.number().min(0).default(1000),
  FEE_MARK_PER_PRODUCT_YEAR_SAR: z.coerce.number().min(0).default(500),
  /**
   * HS codes under which Halal products may be registered: comma-separated code prefixes (2 to 12 digits); a prefix
   * starting with '!' excludes, and the longest matching prefix wins. Default: food chapters and food ingredients,
   * minus pork and alcoholic beverages (reasons in docs/hs-codes.md).
   */
  HALAL_HS_PREFIXES: z
    .string()
    .regex(/^\s*!?\d{2,12}\s*(,\s*!?\d{2,12}\s*)*$/, 'comma-separated HS code prefixes, optionally starting with !')
    .default(
      '02,!0203,!020630,!020641,!020649,!020910,!021011,!021012,!021019,03,04,0504,07,08,09,10,11,12,13,' +
        '15,!150110,!150120,16,!160241,!160242,!160249,17,18,19,20,21,22,!2203,!2204,!2205,!2206,!2207,!2208,' +
        '2309,2936,3203,3302,3501,3502,3503,3504,3505,3507',
    ),
  /** Days before expiry a certificate (or mark) counts as expiring soon (spec 02 section 9: 60). */
  EXPIRING_SOON_DAYS: z.coerce.number().int().min(1).max(365).default(60),
  /** Days before expiry a CB is offered its renewal (spec 02 section 9: 180). */
  CB_RENEWAL_PROMPT_DAYS: z.coerce.number().int().min(1).max(730).default(180),
  /** Halal-mark packages (spec 02 section 9 gives no numbers): from N to M tags, in steps, about B products a year. */
  MARK_PACKAGE_MIN_TAGS: z.coerce.number().int().min(1).default(8),
  MARK_PACKAGE_MAX_TAGS: z.coerce.number().int().min(1).default(400),
  MARK_PACKAGE_STEP: z.coerce.number().int().min(1).default(8),
  MARK_BASE_PRODUCTS_PER_YEAR: z.coerce.number().int().min(1).default(8),
  /** Largest attachment in megabytes (spec 02 section 9: 50); tests lower it. Category limits may be smaller. */
  MAX_UPLOAD_MB: z.coerce.number().positive().max(50).default(50),
  /** Largest product upload form (.xlsx) in megabytes. */
  MAX_PRODUCT_UPLOAD_MB: z.coerce.number().positive().max(50).default(10),
  /** Bump to make open browsers show the new-version modal. */
  APP_VERSION: z.string().default('1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type Config = Omit<z.infer<typeof ZConfig>, 'SIMULATORS'> & { SIMULATORS: boolean };

/** The development defaults of the external services' credentials: accepted by the simulators, refused in production. */
const SIMULATOR_CREDENTIALS = new Set(['simulator-key', 'simulator-secret']);

/** What production must configure: each external service's real base URL and credential. */
const PRODUCTION_REQUIRED = [
  ['CR_REGISTRY_URL', 'the commercial registry base URL'],
  ['CR_REGISTRY_API_KEY', 'the commercial registry API key'],
  ['FOOD_AUTHORITY_URL', 'the food authority product system base URL'],
  ['FOOD_AUTHORITY_API_KEY', 'the food authority API key'],
  ['PAYMENT_PORTAL_URL', 'the government payment portal base URL'],
  ['PAYMENT_PORTAL_API_KEY', 'the payment portal API key'],
  ['SMS_PROVIDER_URL', 'the SMS gateway base URL'],
  ['SMS_PROVIDER_API_KEY', 'the SMS gateway API key'],
  ['RECAPTCHA_URL', 'the reCAPTCHA verification base URL'],
  ['RECAPTCHA_SECRET', 'the reCAPTCHA secret'],
  ['PUBLIC_URL', 'the address people reach the portal at (links in SMS, QR codes, payment callbacks)'],
  ['HISTORY_KEYS', 'the keys of the request history chain (keyId:secret, at least 32 characters)'],
] as const;

/** Problems of a production configuration, one line per variable. */
function productionProblems(given: Record<string, string | undefined>, config: z.infer<typeof ZConfig>): string[] {
  const problems: string[] = [];
  if (config.JWT_SECRET.startsWith('dev-only-')) problems.push('  JWT_SECRET: must be set in production');
  if (config.PAYMENT_CALLBACK_SECRET.startsWith('dev-only-')) problems.push('  PAYMENT_CALLBACK_SECRET: must be set in production');
  // The embedded PGlite database is durable (db/client.ts) but single-process, backed up only with the server
  // stopped, and without replication or point-in-time recovery: production runs on PostgreSQL (README, Data).
  if (!config.DATABASE_URL) problems.push('  DATABASE_URL: required in production (the embedded PGlite database is for development and demos)');
  if (config.SIMULATORS === true) problems.push('  SIMULATORS: the simulators cannot run in production (they publish OTPs and mark bills paid)');
  for (const [name, what] of PRODUCTION_REQUIRED) {
    const value = given[name];
    if (!value) problems.push(`  ${name}: required in production (${what})`);
    else if (SIMULATOR_CREDENTIALS.has(value)) problems.push(`  ${name}: the simulator's value is refused in production`);
  }
  return problems;
}

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError whose message names each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (`DATABASE_URL=`) means "not set", as in a shell.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZConfig.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const problems = raw.NODE_ENV === 'production' ? productionProblems(given, raw) : [];
  if (raw.WORKFLOW_ENGINE === 'temporal' && !raw.TEMPORAL_ADDRESS) problems.push('  TEMPORAL_ADDRESS: required when WORKFLOW_ENGINE=temporal');
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const config: Config = { ...raw, SIMULATORS: raw.SIMULATORS ?? raw.NODE_ENV !== 'production' };
  return config;
}

/** Cookies go over HTTPS only in production, whatever a proxy in front of the server says (not `secure: 'auto'`). */
export const secureCookies = (config: Pick<Config, 'NODE_ENV'>): boolean => config.NODE_ENV === 'production';

/** Config for tests: defaults plus overrides, without reading process.env. */
export function testConfig(overrides: Partial<Record<keyof Config, string>> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', TIMER_POLL_MS: '0', PAYMENT_RECONCILE_MS: '0', SIMULATORS: 'false', LOG_LEVEL: 'silent', ...overrides });
}
