import { CB_ISSUED_ALIASES, CB_READINGS, cbRequestMachine } from './cb-request';
import type { MachineDefinition } from './definition';

export const cbDesignationV1: MachineDefinition = {
  kind: 'cbDesignation',
  version: 1,
  title: 'CB designation certificate',
  catalogue: 'CB accreditation request statuses (1000 to 1007)',
  requestTypes: [0],
  machine: cbRequestMachine({
    kind: 'cbDesignation',
    issueEffect: { type: 'effect.issueCertificate', params: { certificateKind: 'cbDesignation' } },
  }),
  aliases: CB_ISSUED_ALIASES,
  readings: [...CB_READINGS],
};
