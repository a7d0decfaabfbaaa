import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../db/client';
import type { Config } from '../../config';
import { crRegistryOf, type CrRegistry } from '../../adapters/cr-registry';
import { recaptchaVerifierOf, type RecaptchaVerifier } from '../../adapters/recaptcha';
import { smsProviderOf, type SmsProvider } from '../../adapters/sms';

/** What the facilities services need from the server: the database, configuration and the external adapters. */
export interface FacilitiesDeps {
  db: Db;
  config: Config;
  registry: CrRegistry;
  recaptcha: RecaptchaVerifier;
  sms: SmsProvider;
  /** Where attachment contents are stored (content-addressed). */
  filesDir: string;
}

export function depsOf(app: FastifyInstance): FacilitiesDeps {
  return {
    db: app.db,
    config: app.config,
    registry: crRegistryOf(app),
    recaptcha: recaptchaVerifierOf(app),
    sms: smsProviderOf(app),
    filesDir: resolve(join(app.config.DATA_DIR, 'files')),
  };
}

/** Today's date (yyyy-mm-dd) in Saudi Arabia, where the portal's "today" is (certificate expiry rules). */
export function todayInRiyadh(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Riyadh', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
