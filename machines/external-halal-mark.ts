import type { MachineDefinition } from './definition';
import { Permissions as P } from './permissions';
import { MARK_DRAFT_READING, MARK_ENDS_WITH_CERTIFICATE_READING, SIMPLE_CODES, SIMPLE_READINGS, simpleRequestMachine } from './simple-request';
import { noDiscountWhenStoppedReading } from './readings';

const policies = P.externalRequest;

const OPTIONS = {
  kind: 'externalHalalMark',
  applicant: { request: policies.request, submit: policies.submit },
  service: 7,
  feeKind: 'halalMark',
  issue: { guard: { relation: 'system' }, effect: { type: 'effect.issueHalalMarks', params: {} } },
} as const;

export const externalHalalMarkV1: MachineDefinition = {
  kind: 'externalHalalMark',
  version: 1,
  title: 'External Halal mark request',
  catalogue: 'External facility request, set B (1001 to 1005)',
  requestKind: 4,
  machine: simpleRequestMachine(OPTIONS),
  readings: [
    'Request kind 4 (HalalMarkRequest) uses set B’s 1001-1005, the same numbers and meanings as the internal simple set.',
    ...SIMPLE_READINGS,
    MARK_DRAFT_READING,
    'The marks are issued by the system once paid (1004 declares an immediate deadline). The mark fee is per product per year, never beyond the facility certificate; the amount is the server’s.',
  ],
};

/**
 * Version 2: no discount on a stopped request (1003); and a paid package whose certificate expired before its marks could
 * be issued (suspended until it expired) ends in 1003 and its payment is listed for a refund.
 */
export const externalHalalMarkV2: MachineDefinition = {
  ...externalHalalMarkV1,
  version: 2,
  machine: simpleRequestMachine({ ...OPTIONS, noDiscountWhenStopped: true, endsWithCertificate: true }),
  readings: [...externalHalalMarkV1.readings, noDiscountWhenStoppedReading(2, SIMPLE_CODES.expired, 'Version 1'), MARK_ENDS_WITH_CERTIFICATE_READING],
};
