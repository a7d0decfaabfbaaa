import type { MachineDefinition } from './definition';
import { baseContext, entitySetup, inputDate } from './entity-setup';
import { may } from './guards';
import { Permissions as P } from './permissions';
import type { BaseContext } from './types';

/** Certificate statuses (spec 02 section 4). */
export const CERTIFICATE_CODES = { active: 1, expired: 2, expiringSoon: 3, suspended: 4 } as const;

export interface CertificateContext extends BaseContext {
  expiresAt: string;
}

const cert = entitySetup<CertificateContext>();
const renew = {
  guard: may({ relation: 'system' }),
  target: '#certificate.active',
  actions: cert.assign({ expiresAt: ({ event }) => new Date(String(event.expiresAt)).toISOString() }),
} as const;
const suspend = { guard: may({ permission: P.certificates.suspend }), target: '#certificate.suspended' } as const;

const machine = cert.createMachine({
  id: 'certificate',
  context: ({ input }) => ({ ...baseContext(input), expiresAt: inputDate(input, 'expiresAt') }),
  initial: 'active',
  states: {
    active: {
      tags: ['final'],
      meta: {
        status: CERTIFICATE_CODES.active,
        deadline: { after: 'certificateExpiringSoon', event: 'EXPIRING_SOON' },
        description: 'Valid.',
      },
      on: {
        EXPIRING_SOON: { guard: may({ relation: 'system' }), target: 'expiringSoon' },
        RENEW: renew,
        SUSPEND: suspend,
      },
    },
    expiringSoon: {
      tags: ['applicant'],
      meta: {
        status: CERTIFICATE_CODES.expiringSoon,
        deadline: { after: 'certificateExpiry', event: 'CERTIFICATE_EXPIRED' },
        description: 'Under 60 days left: it can be renewed now.',
      },
      on: {
        CERTIFICATE_EXPIRED: { guard: may({ relation: 'system' }), target: 'expired' },
        RENEW: renew,
        SUSPEND: suspend,
      },
    },
    expired: {
      tags: ['applicant'],
      meta: { status: CERTIFICATE_CODES.expired, description: 'Expired: it cannot be used and must be renewed.' },
      on: { RENEW: renew },
    },
    suspended: {
      tags: ['final'],
      meta: {
        status: CERTIFICATE_CODES.suspended,
        deadline: { after: 'certificateExpiry', event: 'CERTIFICATE_EXPIRED' },
        description: 'Suspended: services that need the certificate are blocked.',
      },
      on: {
        REINSTATE: { guard: may({ permission: P.certificates.suspend }), target: 'active' },
        CERTIFICATE_EXPIRED: { guard: may({ relation: 'system' }), target: 'expired' },
      },
    },
  },
});

export const certificateV1: MachineDefinition = {
  kind: 'certificate',
  version: 1,
  title: 'Certificate',
  catalogue: 'Certificate (1 to 4)',
  machine,
  readings: [
    'Expiring soon (3) starts 60 days before the expiry date (spec 02 section 9: "under 60 days"); both moments are deadlines computed from the certificate’s `expiresAt`, so a certificate issued with less than 60 days left becomes 3 at once.',
    'A completed renewal request renews the certificate (RENEW with the new expiry date, sent by the system), from active, expiring soon or expired ("an expired certificate ... must be renewed").',
    'The spec names the suspended status but not who suspends: SUSPEND and REINSTATE (reason required) need the permission CertificateManagement.Suspend, which only the administrator role holds. A suspended certificate still expires on its date.',
  ],
};
