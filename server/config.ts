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
  /** Public base URL, used in QR codes and links sent by SMS. */
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
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
  /** Days a draft or stopped request is kept before automatic deletion. */
  DRAFT_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** Hours a bill may stay unpaid before it expires. */
  PAYMENT_WINDOW_HOURS: z.coerce.number().positive().default(72),
  /** Run the local simulators of the external government services inside this process. */
  SIMULATORS: bool.default(true),
  /** Base URLs of the external services; default to the local simulators mounted under /simulators. */
  CR_REGISTRY_URL: z.string().url().optional(),
  PAYMENT_PORTAL_URL: z.string().url().optional(),
  SMS_PROVIDER_URL: z.string().url().optional(),
  RECAPTCHA_URL: z.string().url().optional(),
  FOOD_AUTHORITY_URL: z.string().url().optional(),
  VAT_RATE: z.coerce.number().min(0).max(1).default(0.15),
  /** Bump to make open browsers show the new-version modal. */
  APP_VERSION: z.string().default('1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type Config = z.infer<typeof ZConfig>;

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError whose message names each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ZConfig.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production' && config.JWT_SECRET.startsWith('dev-only-')) {
    throw new ConfigError('Invalid configuration:\n  JWT_SECRET: must be set in production');
  }
  if (config.WORKFLOW_ENGINE === 'temporal' && !config.TEMPORAL_ADDRESS) {
    throw new ConfigError('Invalid configuration:\n  TEMPORAL_ADDRESS: required when WORKFLOW_ENGINE=temporal');
  }
  return config;
}

/** Config for tests: defaults plus overrides, without reading process.env. */
export function testConfig(overrides: Partial<Record<keyof Config, string>> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', TIMER_POLL_MS: '0', SIMULATORS: 'false', LOG_LEVEL: 'silent', ...overrides });
}
