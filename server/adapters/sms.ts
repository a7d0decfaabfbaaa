import type { FastifyInstance } from 'fastify';
import { AppError, registerErrorStatus } from '../errors';
import { callJson, serviceBaseUrl } from './http';

registerErrorStatus({ PhoneInvalid: 400 });

export interface SmsSendResult {
  /** The provider's id of the message. */
  providerMessageId: string;
}

export interface SmsProvider {
  /** Sends one text message to an E.164 number; throws PhoneInvalid when the provider refuses the number. */
  send(to: string, text: string): Promise<SmsSendResult>;
}

/**
 * A plain REST SMS gateway: `POST {base}/messages` with a bearer key and `{ to, from, text }`, answering
 * 201 `{ id, status }`, or 400 `{ error: 'invalid_number' }`. The local simulator speaks the same protocol.
 */
export function createSmsProvider(opts: { baseUrl: string; apiKey: string; sender: string; timeoutMs: number; fetchImpl?: typeof fetch }): SmsProvider {
  return {
    async send(to, text) {
      const { status, body } = await callJson<{ id?: string; error?: string }>(
        `${opts.baseUrl}/messages`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.apiKey}` },
          body: JSON.stringify({ to, from: opts.sender, text }),
          timeoutMs: opts.timeoutMs,
          fetchImpl: opts.fetchImpl,
        },
        'sms',
      );
      if (status === 400 && body?.error === 'invalid_number') throw new AppError('PhoneInvalid');
      if ((status !== 200 && status !== 201) || !body?.id) throw new AppError('ExternalServiceUnavailable', { service: 'sms' });
      return { providerMessageId: body.id };
    },
  };
}

const perApp = new WeakMap<object, SmsProvider>();

/** The SMS client of this server (keyed by its config, shared by every plugin context). */
export function smsProviderOf(app: FastifyInstance): SmsProvider {
  let p = perApp.get(app.config);
  if (!p) {
    p = createSmsProvider({
      baseUrl: serviceBaseUrl(app.config, 'sms'),
      apiKey: app.config.SMS_PROVIDER_API_KEY,
      sender: app.config.SMS_SENDER,
      timeoutMs: app.config.EXTERNAL_TIMEOUT_MS,
    });
    perApp.set(app.config, p);
  }
  return p;
}
