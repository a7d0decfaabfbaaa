import type { MachineDefinition } from './definition';
import { baseContext, entitySetup, inputDate } from './entity-setup';
import { may } from './guards';
import { Permissions as P } from './permissions';
import type { BaseContext } from './types';

/** Halal mark statuses, the reading this machine emits (the same order as the certificate catalogue). */
export const HALAL_MARK_CODES = { active: 1, expired: 2, expiringSoon: 3, validSoon: 4 } as const;

/**
 * The other reading of the spec ("one part gives 1 active, 2 expiring soon, 3 expired, 4 valid soon"), kept so
 * that codes written under it (imported data, the old system) can be translated.
 */
export const HALAL_MARK_CODES_READING_B = { active: 1, expiringSoon: 2, expired: 3, validSoon: 4 } as const;

/** Translates a code written under reading B into the code this machine uses. */
export function halalMarkCodeFromReadingB(code: number): number {
  const entry = Object.entries(HALAL_MARK_CODES_READING_B).find(([, c]) => c === code);
  if (!entry) throw new Error(`unknown Halal mark code ${code}`);
  return HALAL_MARK_CODES[entry[0] as keyof typeof HALAL_MARK_CODES];
}

export interface HalalMarkContext extends BaseContext {
  validFrom: string;
  expiresAt: string;
}

const holderCancel = {
  guard: may({ permission: [P.internalRequest.request, P.externalRequest.request], relation: 'applicant' }),
  target: '#halalMark.cancelled',
} as const;
/** Version 2: staff who manage certificates may cancel a mark too (a mark wrongly issued, or its product withdrawn). */
const staffCancel = { guard: may({ permission: P.certificates.suspend }), target: '#halalMark.cancelled' } as const;

/** The mark lifecycle with the CANCEL transitions of its version (the states and codes are the same in both). */
type Cancel = typeof holderCancel | typeof staffCancel;
const markMachine = (cancel: Cancel | Cancel[]) =>
  entitySetup<HalalMarkContext>().createMachine({
    id: 'halalMark',
    context: ({ input }) => ({
      ...baseContext(input),
      validFrom: inputDate(input, 'validFrom'),
      expiresAt: inputDate(input, 'expiresAt'),
    }),
    initial: 'validSoon',
    states: {
      validSoon: {
        tags: ['final'],
        meta: {
          status: HALAL_MARK_CODES.validSoon,
          deadline: { after: 'markValidFrom', event: 'VALIDITY_STARTED' },
          description: 'Issued; its validity has not started yet.',
        },
        on: { VALIDITY_STARTED: { guard: may({ relation: 'system' }), target: 'active' }, CANCEL: cancel },
      },
      active: {
        tags: ['final'],
        meta: {
          status: HALAL_MARK_CODES.active,
          deadline: { after: 'markExpiringSoon', event: 'EXPIRING_SOON' },
          description: 'Valid.',
        },
        on: { EXPIRING_SOON: { guard: may({ relation: 'system' }), target: 'expiringSoon' }, CANCEL: cancel },
      },
      expiringSoon: {
        tags: ['applicant'],
        meta: {
          status: HALAL_MARK_CODES.expiringSoon,
          deadline: { after: 'markExpiry', event: 'MARK_EXPIRED' },
          description: 'Under 60 days left.',
        },
        on: { MARK_EXPIRED: { guard: may({ relation: 'system' }), target: 'expired' }, CANCEL: cancel },
      },
      expired: { type: 'final', tags: ['final'], meta: { status: HALAL_MARK_CODES.expired, description: 'Expired.' } },
      cancelled: {
        type: 'final',
        tags: ['final'],
        meta: { status: HALAL_MARK_CODES.expired, description: 'Cancelled by the facility: its validity ended.' },
      },
    },
  });

const machine = markMachine(holderCancel);
const machineV2 = markMachine([holderCancel, staffCancel]);

export const halalMarkV1: MachineDefinition = {
  kind: 'halalMark',
  version: 1,
  title: 'Halal mark',
  catalogue: 'Halal logo (1 to 4), both readings',
  machine,
  readings: [
    'The spec gives two orders for the mark codes: "1 active, 2 expired, 3 expiring soon, 4 valid soon" and "1 active, 2 expiring soon, 3 expired, 4 valid soon". The machine emits the first, which matches the certificate catalogue; the second is kept as data (HALAL_MARK_CODES_READING_B, halalMarkCodeFromReadingB) to translate codes written under it.',
    'A mark starts "valid soon" (4) and becomes active on its start date (an immediate timer when it starts today); it is expiring soon 60 days before its expiry date (as certificates) and expires on it. Validity is one year but never beyond the facility certificate: the server computes `expiresAt`.',
    'A facility member may cancel a mark (the spec lists "cancel" among the mark screens); the catalogue has no cancelled code, so a cancelled mark shows 2 (its validity ended) from a separate final state.',
  ],
};

export const halalMarkV2: MachineDefinition = {
  ...halalMarkV1,
  version: 2,
  machine: machineV2,
  readings: [
    ...halalMarkV1.readings.slice(0, 2),
    'A mark is cancelled (CANCEL, a written reason required, kept in its history) by a member of the holding facility with the request permission, or by staff holding CertificateManagement.Suspend (the certificate managers). The catalogue has no cancelled code, so a cancelled mark keeps code 2 (its validity ended) from a separate final state; the lists, the mark page and the public verification page read that state and show it as cancelled.',
  ],
};
