import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../server/config';
import type { SimulatedSms } from '../../server/simulators/sms';
import { createTestApp, type TestApp } from '../helpers/app';
import { startSimulators } from '../helpers/simulators';

/**
 * Test harness of the facilities area: the external-service simulators run as their own HTTP server on a free port
 * (the adapters really call them over HTTP), and the app under test is configured with their URLs.
 */
export interface FacilitiesTestApp extends TestApp {
  simulatorsUrl: string;
  /** A fresh reCAPTCHA token from the simulator (what the browser widget would hand the web). */
  recaptchaToken(): Promise<string>;
  /** Messages the SMS simulator received for a phone, newest first. */
  smsTo(phone: string): Promise<SimulatedSms[]>;
  /** The 6-digit code of the newest message to a phone. */
  lastOtp(phone: string): Promise<string>;
}

export async function createFacilitiesTestApp(overrides: Partial<Record<keyof Config, string>> = {}): Promise<FacilitiesTestApp> {
  const sims = await startSimulators();
  const dataDir = mkdtempSync(join(tmpdir(), 'halal-facilities-'));
  const t = await createTestApp({
    CR_REGISTRY_URL: `${sims.url}/simulators/cr`,
    RECAPTCHA_URL: `${sims.url}/simulators/recaptcha`,
    SMS_PROVIDER_URL: `${sims.url}/simulators/sms`,
    PUBLIC_URL: 'http://portal.test',
    DATA_DIR: dataDir,
    ...overrides,
  });
  const smsTo = async (phone: string) => {
    const res = await fetch(`${sims.url}/simulators/sms/messages?to=${encodeURIComponent(phone)}`);
    return ((await res.json()) as { items: SimulatedSms[] }).items;
  };
  return {
    ...t,
    simulatorsUrl: sims.url,
    async recaptchaToken() {
      const res = await fetch(`${sims.url}/simulators/recaptcha/token`);
      return ((await res.json()) as { token: string }).token;
    },
    smsTo,
    async lastOtp(phone) {
      const [latest] = await smsTo(phone);
      const code = latest?.text.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`no OTP sent to ${phone}`);
      return code;
    },
    async close() {
      await t.close();
      await sims.app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A minimal valid PDF (magic bytes are what the upload check reads). */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
/** A 1x1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
