import { CB_ISSUED_ALIASES, CB_READINGS, cbRequestMachine } from './cb-request';
import type { MachineDefinition } from './definition';

export const cbRenewalV1: MachineDefinition = {
  kind: 'cbRenewal',
  version: 1,
  title: 'CB designation certificate renewal',
  catalogue: 'CB accreditation request statuses (1000 to 1007)',
  requestTypes: [2, 600, 'CbaRenewalRequest'],
  machine: cbRequestMachine({
    kind: 'cbRenewal',
    // Spec 02 section 1: "Certificate validity is 3 years on renewal."
    issueEffect: { type: 'effect.renewCertificate', params: { certificateKind: 'cbDesignation', validityMonths: 36 } },
  }),
  aliases: CB_ISSUED_ALIASES,
  readings: [
    'Request types 2, 600 and `CbaRenewalRequest` are three spellings of the CB renewal; all start this machine.',
    'The renewal follows the designation workflow; completion renews the existing certificate for 3 years (spec 02 section 1) instead of issuing a new one.',
    ...CB_READINGS,
  ],
};
