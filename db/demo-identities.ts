import { withLuhnDigit } from '../machines/forms/facilities/formats';

/**
 * National ids and mobiles of the demo people, shared by the seed (db/seed-facilities.ts) and the commercial
 * registry simulator (which lists them as parties of its registrations). All ids pass the Luhn check.
 */
export const DEMO_IDENTITIES = {
  /** A signed-up applicant with no facility yet: owner of the simulator's "new factory" registrations. */
  'new.applicant': { nationalId: withLuhnDigit('108800000'), phone: '+966550000001' },
  'internal.main': { nationalId: withLuhnDigit('101000000'), phone: '+966550000002' },
  'internal.sub': { nationalId: withLuhnDigit('101000001'), phone: '+966550000003' },
  'cb.main': { nationalId: withLuhnDigit('201000000'), phone: '+60123000001' },
  'cb.sub': { nationalId: withLuhnDigit('201000001'), phone: '+60123000002' },
  external: { nationalId: withLuhnDigit('201000002'), phone: '+905300000001' },
} as const;

/** An owner in the registry who has no account in the portal (a CR whose applicant must bring a delegation letter). */
export const REGISTRY_ONLY_OWNER = { name: 'فهد بن سعد العتيبي', nationalId: withLuhnDigit('107700000') };
