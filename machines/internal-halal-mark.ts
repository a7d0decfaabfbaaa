import type { MachineDefinition } from './definition';
import { Permissions as P } from './permissions';
import { MARK_DRAFT_READING, MARK_ENDS_WITH_CERTIFICATE_READING, SIMPLE_CODES, SIMPLE_READINGS, simpleRequestMachine } from './simple-request';
import { noDiscountWhenStoppedReading } from './readings';

const policies = P.internalRequest;

const OPTIONS = {
  kind: 'internalHalalMark',
  applicant: { request: policies.request, submit: policies.submit },
  service: 6,
  feeKind: 'halalMark',
  issue: { guard: { relation: 'system' }, effect: { type: 'effect.issueHalalMarks', params: {} } },
} as const;

export const internalHalalMarkV1: MachineDefinition = {
  kind: 'internalHalalMark',
  version: 1,
  title: 'Internal Halal mark request',
  catalogue: 'Internal facility request (simple set 1001 to 1005)',
  machine: simpleRequestMachine(OPTIONS),
  readings: [
    ...SIMPLE_READINGS,
    MARK_DRAFT_READING,
    'A mark request buys a package of tags; there is no review step. The marks are issued by the system once the bill is paid (1004 -> 1005); 1004 declares an immediate deadline, so the engine’s timer sends ISSUE_CERTIFICATE at once, durably and recorded in the history. The unused tags of the certificate’s earlier paid packages are credited against the bill when it is created (never below zero, each balance once: workflows/mark-credit.ts); when the credit covers the whole package the bill is settled by it and a timer due at once sends PAYMENT_CONFIRMED, so 1002 is passed through and recorded in the history.',
  ],
};

/**
 * Version 2: no discount on a stopped request (1003); and a paid package whose certificate expired before its marks could
 * be issued (suspended until it expired) ends in 1003 and its payment is listed for a refund.
 */
export const internalHalalMarkV2: MachineDefinition = {
  ...internalHalalMarkV1,
  version: 2,
  machine: simpleRequestMachine({ ...OPTIONS, noDiscountWhenStopped: true, endsWithCertificate: true }),
  readings: [...internalHalalMarkV1.readings, noDiscountWhenStoppedReading(2, SIMPLE_CODES.expired, 'Version 1'), MARK_ENDS_WITH_CERTIFICATE_READING],
};
