import type { MachineDefinition } from './definition';
import { baseContext, entitySetup, inputDate } from './entity-setup';
import type { PaymentService } from './effects';
import { may } from './guards';
import { Permissions as P } from './permissions';
import type { BaseContext, MachineInput } from './types';

/** Certificate statuses (spec 02 section 4). */
export const CERTIFICATE_CODES = { active: 1, expired: 2, expiringSoon: 3, suspended: 4 } as const;

export interface CertificateContext extends BaseContext {
  expiresAt: string;
  /** The next anniversary on which a yearly instalment is billed; null when none is left (or paid in full). */
  nextInstallmentAt: string | null;
  installmentsLeft: number;
  /** Bill service of the instalments (6 internal, 7 external). */
  installmentService: PaymentService | null;
}

const addYear = (iso: string): string => {
  const d = new Date(iso);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toISOString();
};

function installmentsOf(input: MachineInput): Pick<CertificateContext, 'nextInstallmentAt' | 'installmentsLeft' | 'installmentService'> {
  const i = input.data?.installments as { count?: unknown; firstDueAt?: unknown; service?: unknown } | undefined;
  const count = typeof i?.count === 'number' && Number.isInteger(i.count) && i.count > 0 ? i.count : 0;
  if (!count) return { nextInstallmentAt: null, installmentsLeft: 0, installmentService: null };
  const first = typeof i?.firstDueAt === 'string' ? new Date(i.firstDueAt) : undefined;
  if (!first || Number.isNaN(first.getTime())) throw new Error('input.data.installments.firstDueAt must be a date');
  return { nextInstallmentAt: first.toISOString(), installmentsLeft: count, installmentService: Number(i?.service) as PaymentService };
}

const cert = entitySetup<CertificateContext>();

/**
 * A yearly instalment falls due: the bill is created (the engine prices it with the current fee of the certificate's
 * kind) and the next anniversary is armed while instalments remain.
 */
const installmentDue = {
  guard: may({ relation: 'system' }),
  actions: [
    {
      type: 'effect.createBill' as const,
      params: ({ context }: { context: CertificateContext }) => ({
        service: context.installmentService ?? 6,
        feeKind: 'certificateInstallment' as const,
        paymentOption: 'yearly' as const,
      }),
    },
    cert.assign(({ context }) => ({
      installmentsLeft: context.installmentsLeft - 1,
      nextInstallmentAt: context.installmentsLeft > 1 && context.nextInstallmentAt ? addYear(context.nextInstallmentAt) : null,
    })),
  ],
} as const;

const renew = {
  guard: may({ relation: 'system' }),
  target: '#certificate.active',
  actions: cert.assign(({ event }) => {
    const left = typeof event.installmentsLeft === 'number' ? event.installmentsLeft : 0;
    return {
      expiresAt: new Date(String(event.expiresAt)).toISOString(),
      installmentsLeft: left,
      nextInstallmentAt: left > 0 && typeof event.nextInstallmentAt === 'string' ? new Date(event.nextInstallmentAt).toISOString() : null,
    };
  }),
} as const;
const suspend = { guard: may({ permission: P.certificates.suspend }), target: '#certificate.suspended' } as const;

const machine = cert.createMachine({
  id: 'certificate',
  context: ({ input }) => ({ ...baseContext(input), expiresAt: inputDate(input, 'expiresAt'), ...installmentsOf(input) }),
  initial: 'active',
  states: {
    active: {
      tags: ['final'],
      meta: {
        status: CERTIFICATE_CODES.active,
        deadline: [
          { after: 'certificateExpiringSoon', event: 'EXPIRING_SOON' },
          { after: 'installmentDue', event: 'INSTALLMENT_DUE' },
        ],
        description: 'Valid.',
      },
      on: {
        EXPIRING_SOON: { guard: may({ relation: 'system' }), target: 'expiringSoon' },
        INSTALLMENT_DUE: installmentDue,
        RENEW: renew,
        SUSPEND: suspend,
      },
    },
    expiringSoon: {
      tags: ['applicant'],
      meta: {
        status: CERTIFICATE_CODES.expiringSoon,
        deadline: [
          { after: 'certificateExpiry', event: 'CERTIFICATE_EXPIRED' },
          { after: 'installmentDue', event: 'INSTALLMENT_DUE' },
        ],
        description: 'Under 60 days left: it can be renewed now.',
      },
      on: {
        CERTIFICATE_EXPIRED: { guard: may({ relation: 'system' }), target: 'expired' },
        INSTALLMENT_DUE: installmentDue,
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
    'Every issued certificate runs this machine, started by the engine in the transaction that issues it; its workflow id is the certificate id, so its history (`/api/requests/<certificate id>/history`) records each change of status, verifiable like a request’s. A certificate written without the engine (the demo seed, a migration) starts it when the server starts (workflows/adopt.ts), on its dates, suspended when its row holds 4.',
    'Expiring soon (3) starts 60 days before the expiry date (spec 02 section 9: "under 60 days"); both moments are deadlines computed from the certificate’s `expiresAt`, so a certificate issued with less than 60 days left becomes 3 at once.',
    'Yearly instalments (spec 01 section 9 "yearly installments"): a certificate paid yearly bills its first year when issued (the request’s certificate fees) and each following year on its anniversary (INSTALLMENT_DUE, a durable timer; the bill is priced with the fee in force then). Paid in full, no instalment is left. An instalment left unpaid expires like any bill; staff may then suspend the certificate (SUSPEND, reason required).',
    'A completed renewal request renews the certificate (RENEW with the new expiry date and its instalments, sent by the system), from active, expiring soon or expired ("an expired certificate ... must be renewed").',
    'The spec names the suspended status but not who suspends: SUSPEND and REINSTATE (reason required) need the permission CertificateManagement.Suspend, held by decision-committee members and the administrator. A suspended certificate still expires on its date.',
  ],
};
