import type { Config } from '../config';
import { AppError, registerErrorStatus } from '../errors';

registerErrorStatus({ ExternalServiceUnavailable: 502 });

/** The external services this server talks to, and the config key of each base URL. */
const SERVICE_URL_KEYS = {
  cr: 'CR_REGISTRY_URL',
  foodAuthority: 'FOOD_AUTHORITY_URL',
  recaptcha: 'RECAPTCHA_URL',
  sms: 'SMS_PROVIDER_URL',
} as const satisfies Record<string, keyof Config>;
export type ExternalService = keyof typeof SERVICE_URL_KEYS;

/**
 * Base URL of an external service: the configured one, else the local simulator mounted by this same server under
 * /simulators/<service> (so a fresh `npm start` works on one machine; the real service is a configuration change).
 */
export function serviceBaseUrl(config: Config, service: ExternalService): string {
  const configured = config[SERVICE_URL_KEYS[service]];
  const base = configured ?? `http://127.0.0.1:${config.PORT}/simulators/${service}`;
  return base.replace(/\/+$/, '');
}

export interface HttpResult<T> {
  status: number;
  body: T;
}

/**
 * One JSON call to an external service with a timeout. Network failures and 5xx answers become
 * ExternalServiceUnavailable (502) so the caller sees "the service is unavailable, try later" rather than a crash;
 * 4xx answers are returned for the adapter to interpret (a 404 from the registry means "no such CR").
 */
export async function callJson<T>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs: number; fetchImpl?: typeof fetch },
  service: ExternalService,
): Promise<HttpResult<T>> {
  const doFetch = init.fetchImpl ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, {
      method: init.method ?? 'GET',
      headers: { accept: 'application/json', ...init.headers },
      body: init.body,
      signal: AbortSignal.timeout(init.timeoutMs),
    });
  } catch {
    throw new AppError('ExternalServiceUnavailable', { service });
  }
  if (res.status >= 500) throw new AppError('ExternalServiceUnavailable', { service });
  const text = await res.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError('ExternalServiceUnavailable', { service });
    }
  }
  return { status: res.status, body: body as T };
}
