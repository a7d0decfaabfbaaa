import type { MachineDefinition } from './definition';
import type { PaymentService } from './effects';
import { Permissions as P } from './permissions';
import { requestContext, requestSetup } from './request-setup';
import { SET_B } from './set-b';
import type { RequestContext } from './types';
import { deletedState, draftState, withStaffNotes } from './fragments/common';
import { enterPayment, paymentStep } from './fragments/payment';

const applicant = { request: P.shipment.default, submit: P.shipment.submit };
const issue = { type: 'effect.issueCertificate' as const, params: { certificateKind: 'shipment' as const } };

/** Payment services 2-4 of spec 02 section 3 by the kind of goods (field `goods` of section `shipmentType` of the request data). */
export function shipmentService(context: RequestContext): PaymentService {
  const goods = (context.data.shipmentType as { goods?: unknown } | undefined)?.goods;
  return goods === 'poultry' ? 3 : goods === 'meat' ? 4 : 2;
}

const machine = requestSetup.createMachine({
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
      paid: { target: '#completed', actions: issue },
      cancel: { target: '#draft', actions: 'resetToDraft', kind: 'toDraft' },
      applicant,
      ids: true,
    }),
    completed: {
      id: 'completed',
      type: 'final',
      tags: ['final'],
      meta: { status: SET_B.completed, description: 'Completed: the shipment certificate is issued.' },
    },
    deleted: deletedState,
  }, P.portals.halalCenter),
});

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
