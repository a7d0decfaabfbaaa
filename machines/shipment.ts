import type { MachineDefinition } from './definition';
import type { PaymentService } from './effects';
import { Permissions as P } from './permissions';
import { requestContext, requestSetup } from './request-setup';
import { SET_B } from './set-b';
import type { RequestContext } from './types';
import { deletedState, draftState, withStaffNotes } from './fragments/common';
import { enterPayment, paymentStep } from './fragments/payment';
import { may } from './guards';
import { noDiscountWhenStoppedReading } from './readings';

const applicant = { request: P.shipment.default, submit: P.shipment.submit };
const issue = { type: 'effect.issueCertificate' as const, params: { certificateKind: 'shipment' as const } };
/** The issue fails (and its timer retries it) while the factory's Halal certificate is suspended or expired. */
const issueWhileCertified = { type: 'effect.issueCertificate' as const, params: { certificateKind: 'shipment' as const, whileFactoryCertified: true } };

/** Payment services 2-4 of spec 02 section 3 by the kind of goods (field `goods` of section `shipmentType` of the request data). */
export function shipmentService(context: RequestContext): PaymentService {
  const goods = (context.data.shipmentType as { goods?: unknown } | undefined)?.goods;
  return goods === 'poultry' ? 3 : goods === 'meat' ? 4 : 2;
}

/**
 * Version 1 issues the certificate in the payment's own transition. Versions 2 and 3 issue it from a
 * paid waiting state, through a durable timer, and only while the factory's Halal certificate is in force: a payment
 * that was under way at the portal when that certificate was suspended or expired is kept, and the shipment waits,
 * paid, until it is valid again (as a paid Halal-mark package waits in 1004).
 */
const shipmentMachine = (paidWaits: boolean, noDiscountWhenStopped = false) => requestSetup.createMachine({
  id: 'shipment',
  context: ({ input }) => requestContext(input),
  initial: 'draft',
  states: withStaffNotes({
    draft: draftState({
      code: SET_B.draft,
      applicant,
      submit: enterPayment({ free: { target: '#completed', actions: issue }, paymentTarget: '#inProgress' }),
    }),
    ...paymentStep({
      pending: { name: 'inProgress', code: SET_B.inProgress },
      expired: { name: 'paymentExpired', code: SET_B.paymentExpired, stopped: true },
      service: shipmentService,
      feeKind: 'shipment',
      paid: paidWaits ? { target: '#issuing' } : { target: '#completed', actions: issue },
      cancel: { target: '#draft', actions: 'resetToDraft', kind: 'toDraft' },
      applicant,
      ids: true,
    }),
    ...(paidWaits
      ? {
          issuing: {
            id: 'issuing',
            tags: ['payment'],
            meta: {
              status: SET_B.inProgress,
              deadline: { after: 'immediately', event: 'ISSUE_CERTIFICATE' },
              description: 'Paid (or fee waived): the system issues the certificate at once, or once the factory’s Halal certificate is valid again.',
            },
            on: { ISSUE_CERTIFICATE: { guard: may({ relation: 'system' }), target: '#completed', actions: issueWhileCertified } },
          },
        }
      : {}),
    completed: {
      id: 'completed',
      type: 'final',
      tags: ['final'],
      meta: { status: SET_B.completed, description: 'Completed: the shipment certificate is issued.' },
    },
    deleted: deletedState,
  }, P.portals.halalCenter, noDiscountWhenStopped ? { noDiscountWhenStopped: true } : {}),
});

const machine = shipmentMachine(false);
const machineV2 = shipmentMachine(true);
const machineV3 = shipmentMachine(true, true);

export const shipmentV1: MachineDefinition = {
  kind: 'shipment',
  version: 1,
  title: 'Shipment certificate',
  catalogue: 'External facility request, set B (0, 4, 1007, 1008)',
  requestTypes: [100, 200],
  requestKind: 3,
  machine,
  readings: [
    'Request types 100 (external factories) and 200 (internal factories), request kind 3 (ShipmentRequest), start this machine.',
    'Shipment certificates are "issued immediately": draft (0) -> submitted and in progress while its bill is unpaid (1007) -> paid: completed with the certificate issued (1008). Set B’s 1007 "in progress" and 1008 "completed" are read as the shipment statuses; an unpaid bill expires to 4 (payment expired, stopped).',
    'The bill service follows the goods: poultry 3, meat 4, other shipments 2 (spec 02 section 3), from the field `goods` of the request data section `shipmentType`; the amount (1,000 SAR per 27 tons of net weight) is the server’s.',
    'Before completion the shipment can be cancelled (back to draft, the bill cancelled) and edited as a draft; "after a shipment request is completed it cannot be modified or cancelled": 1008 is final.',
  ],
};

export const shipmentV2: MachineDefinition = {
  ...shipmentV1,
  version: 2,
  machine: machineV2,
  readings: [
    ...shipmentV1.readings,
    'A paid shipment (or one whose fee is waived) stays 1007 "in progress" until the system issues its certificate: at once, unless the factory’s Halal certificate has been suspended or has expired since submission (spec 02 sections 4 and 8: services are blocked meanwhile); then it waits, paid, and is issued once that certificate is valid again. Such a bill cannot be started at the payment portal meanwhile.',
  ],
};

/** Version 3: as version 2, with no discount on a stopped request (4). */
export const shipmentV3: MachineDefinition = {
  ...shipmentV2,
  version: 3,
  machine: machineV3,
  readings: [...shipmentV2.readings, noDiscountWhenStoppedReading(3, SET_B.paymentExpired, 'Versions 1 and 2')],
};
