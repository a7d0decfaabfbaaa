import { expect } from 'vitest';
import { users } from '../../db/schema';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import { PAYMENT_PORTAL_SIMULATOR_PATH } from '../../server/adapters/payment-portal';
import type { SimulatedSms } from '../../server/simulators/sms';
import { createTestApp, type Client } from '../helpers/app';
import { startSimulators } from '../helpers/simulators';
import type { DemoUser, World } from '../services/walk';

/**
 * The set-up the chain tests share (delegation, delegate reads, changing access): the app on the demo world with
 * every external service answered by the simulators over HTTP, the named demo users signed in at once, the SMS
 * simulator's inbox and reCAPTCHA tokens, and a delegate made through the wizard as a facility's main user does.
 */
export interface ChainsWorld extends World {
  /** Messages the SMS simulator received for a phone (+966…), newest first. */
  smsTo(phone: string): Promise<SimulatedSms[]>;
  /** A fresh reCAPTCHA token from the simulator. */
  recaptcha(): Promise<string>;
}

export async function chainsWorld(names: DemoUser[]): Promise<ChainsWorld> {
  const sims = await startSimulators();
  const app = await createTestApp({
    LOGIN_RATE_LIMIT_PER_MINUTE: '300',
    CR_REGISTRY_URL: `${sims.url}/simulators/cr`,
    FOOD_AUTHORITY_URL: `${sims.url}/simulators/foodAuthority`,
    SMS_PROVIDER_URL: `${sims.url}/simulators/sms`,
    RECAPTCHA_URL: `${sims.url}/simulators/recaptcha`,
    PAYMENT_PORTAL_URL: `${sims.url}${PAYMENT_PORTAL_SIMULATOR_PATH}`,
    PUBLIC_URL: 'http://portal.test',
  });
  const t = {
    ...app,
    async close() {
      await app.close();
      await sims.app.close();
    },
  };
  const sessions = new Map<string, Client>();
  for (const n of names) sessions.set(n, await t.login(n));
  const ids = new Map((await t.database.db.select({ id: users.id, userName: users.userName }).from(users)).map((u) => [u.userName, u.id]));
  return {
    t,
    as: Object.fromEntries(sessions) as Record<DemoUser, Client>,
    userId: (n) => ids.get(n)!,
    smsTo: async (phone) => ((await (await fetch(`${sims.url}/simulators/sms/messages?to=${encodeURIComponent(phone)}`)).json()) as { items: SimulatedSms[] }).items,
    recaptcha: async () => ((await (await fetch(`${sims.url}/simulators/recaptcha/token`)).json()) as { token: string }).token,
  };
}

const DELEGATION_PATH = {
  internal: '/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest',
  cb: '/api/ConformityBodyDelegation/SubmitCBDelegationRequest',
} as const;

/** Who a new delegate is: their national id and phone are `idPrefix`/`phonePrefix` followed by their number in the file. */
export type DelegatePerson = { idPrefix: string; phonePrefix: string; firstName: string; lastName: string; birthDate: string; email: string };

/**
 * A delegate factory for one test file: each call delegates a new person (the `seq`-th) by `by` in `facility` with
 * `permissions`, through the wizard (start, OTP, acknowledgment); the person then sets a password from the SMS
 * invitation and signs in.
 */
export function delegates(w: ChainsWorld, person: (seq: number) => DelegatePerson) {
  let seq = 0;
  return async (by: Client, facility: string, permissions: string[], group: keyof typeof DELEGATION_PATH = 'internal'): Promise<{ person: Client; nationalId: string }> => {
    seq += 1;
    const p = person(seq);
    const nationalId = withLuhnDigit(`${p.idPrefix}${String(seq).padStart(4, '0')}`);
    const local = `${p.phonePrefix}${String(seq).padStart(5, '0')}`;
    const e164 = `+966${local.slice(1)}`;
    const path = DELEGATION_PATH[group];
    const started = await by.post(path, {
      step: 'start',
      facilityPublicId: facility,
      delegate: { nationalId, firstName: p.firstName, lastName: p.lastName, birthDate: p.birthDate, preferredLanguage: 'en', phone: local, email: p.email },
      delegationType: 1,
      permissions,
    });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().id as string;
    const code = (await w.smsTo(e164))[0]!.text.match(/\b(\d{6})\b/)![1];
    expect((await by.post(path, { step: 'verifyOtp', delegationId: id, code })).statusCode).toBe(200);
    const done = await by.post(path, { step: 'acknowledge', delegationId: id, acknowledged: true });
    expect(done.json().status, done.body).toBe('active');
    const sms = (await w.smsTo(e164)).find((m) => m.text.includes('/delegate-invitation/'))!;
    const token = sms.text.match(/\/delegate-invitation\/([\w-]+)/)![1];
    expect((await w.t.anonymous.post(`/api/delegate-invitations/${token}`, { password: 'Delegate@2026' })).statusCode).toBe(200);
    return { person: await w.t.login(nationalId, 'Delegate@2026'), nationalId };
  };
}
