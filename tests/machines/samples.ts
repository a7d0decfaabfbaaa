import { getNextTransitions, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { SYSTEM_ACTOR, type Actor } from '../../machines/actor';
import { guardParamsOf, sectionsOf, EVENT_TYPES, type EventType, type MachineEvent, type MachineInput, type MachineKind, type MayParams } from '../../machines';

/** Inputs the model tests start machines with; entity machines get the data they require. */
export function inputFor(kind: MachineKind, discountPercent = 0): MachineInput {
  const data: Record<string, unknown> = {
    bill: {},
    certificate: { expiresAt: '2027-06-30T00:00:00.000Z' },
    halalMark: { validFrom: '2026-01-01', expiresAt: '2027-01-01' },
    delegation: { delegationType: 1, permissions: ['InternalFacilityRequestService.Request'] },
  }[kind as string] ?? {};
  return { requestId: `req-${kind}`, ownerUserId: 'owner-o', facilityId: 'facility-f', discountPercent, data };
}

export const PLAN = {
  visitStartDate: '2026-03-01',
  visitDays: 2,
  language: 'ar',
  visitGoal: 'Initial certification audit',
  facilityCoordinator: { name: 'Facility coordinator', phone: '+966500000000' },
  teamLeaderUserId: 'leader-1',
  technicalAuditorUserIds: ['auditor-1'],
  islamicAffairsExpert: 'Sheikh Expert',
  visitDates: ['2026-03-01', '2026-03-02'],
  timeline: [
    { date: '2026-03-01', hour: 9, minute: 0, period: 'am', activity: 'Opening meeting', auditorUserIds: ['leader-1', 'auditor-1'] },
  ],
};

export const NON_CONFORMITY = {
  id: 'nc-1',
  specification: 'GSO 2055-1',
  clauseNumber: '5.2',
  description: 'Cleaning records incomplete',
  observedCase: 'Missing entries for March',
};

/** Valid payload variants of each event; routing variants (compliant or not, accept or reject) are all listed. */
export function payloadsFor(kind: MachineKind, type: EventType, snapshot: AnyMachineSnapshot): Record<string, unknown>[] {
  const section = sectionsOf(kind)[0] ?? 'products';
  const open = (snapshot.context.openNonConformities as string[] | undefined) ?? [];
  switch (type) {
    case 'EDIT':
      return [{ data: { [section]: { edited: true } } }];
    case 'SUBMIT':
      return [{ agreementAccepted: true }];
    case 'DELETE':
      return [{ confirmed: true }];
    case 'ASSIGN_TO_EMPLOYEE':
      return [{ assigneeUserId: 'staff-a' }];
    case 'ADD_NOTE':
      return [{ note: 'A note for the file' }];
    case 'RETURN':
      return [{ reason: 'Please correct the returned section', sections: [section] }];
    case 'RETURN_TO_REGISTRATION':
    case 'RETURN_PLAN':
    case 'APPROVE':
    case 'RETURN_TO_AUDIT':
    case 'REJECT':
    case 'SUSPEND':
    case 'REINSTATE':
    case 'CANCEL': // optional for requests, required for a Halal mark (machines/events.ts KIND_EVENT_DEFINITIONS)
      return [{ reason: 'Reason given by the reviewer' }];
    case 'SAVE_PLAN':
    case 'SUBMIT_PLAN':
      return [{ plan: PLAN }];
    case 'SUBMIT_AUDIT_RESULT':
      return [{ compliant: true }, { compliant: false, nonConformities: [NON_CONFORMITY] }];
    case 'SUBMIT_CORRECTIVE_ACTIONS':
      return [{ actions: open.map((id) => ({ nonConformityId: id, description: 'Fixed', implementationDate: '2026-04-01' })) }];
    case 'DECIDE_CORRECTIVE_ACTIONS':
      return open.length
        ? [
            { decisions: open.map((id) => ({ nonConformityId: id, accepted: true })) },
            { decisions: open.map((id) => ({ nonConformityId: id, accepted: false, reason: 'Not sufficient' })) },
          ]
        : [];
    case 'SUBMIT_REPORT':
      return [{ summary: 'Compliant with the Halal standard' }];
    case 'CHOOSE_PAYMENT_OPTION':
      return [{ option: 'yearly' }];
    case 'ADD_PRODUCTS':
      return [{ products: [{ nameEn: 'Dates', nameAr: 'تمر' }] }];
    case 'ADD_CATEGORIES':
      return [{ categories: ['C0'] }];
    case 'RENEW':
      return [{ expiresAt: '2030-06-30T00:00:00.000Z' }];
    case 'ACKNOWLEDGE':
      return [{ acknowledged: true, delegateUserId: 'delegate-d' }];
    case 'GRANT_DISCOUNT':
      return [{ percent: 100, reason: 'Exempted by decision of the center' }, { percent: 50, reason: 'Half of the fees waived' }];
    default:
      return [{}];
  }
}

/** An actor that satisfies the permission and relation of a guard in this snapshot (the first listed permission). */
export function actorFor(params: MayParams, snapshot: AnyMachineSnapshot): Actor {
  const ctx = snapshot.context as { facilityId: string; ownerUserId: string; assigneeUserId: string | null; delegateUserId?: string };
  if (params.relation === 'system') return SYSTEM_ACTOR;
  const permission = typeof params.permission === 'string' ? params.permission : params.permission?.[0];
  const permissions = permission ? [permission] : [];
  const userId = {
    applicant: 'applicant-u',
    owner: ctx.ownerUserId,
    reviewer: ctx.assigneeUserId ?? 'staff-a',
    assignee: ctx.assigneeUserId ?? 'nobody',
    unassigned: 'staff-a',
    assigned: 'lead-b',
    delegate: ctx.delegateUserId ?? 'nobody',
    none: 'staff-a',
  }[params.relation ?? 'none'];
  return { userId, roles: [], permissions, facilityIds: params.relation === 'applicant' ? [ctx.facilityId] : [] };
}

const isEventType = (t: string): t is EventType => (EVENT_TYPES as readonly string[]).includes(t);

/**
 * Every event the model may send in a snapshot: for each candidate transition, its guard's actor with every payload
 * variant, kept when the machine takes it (so the traversal only follows real transitions).
 */
export function eventsFor(kind: MachineKind, machine: AnyStateMachine) {
  return (snapshot: AnyMachineSnapshot): MachineEvent[] => {
    if (snapshot.status !== 'active') return [];
    const out = new Map<string, MachineEvent>();
    for (const t of getNextTransitions(snapshot)) {
      const params = guardParamsOf(t);
      if (!params || !isEventType(t.eventType)) continue;
      const actor = actorFor(params, snapshot);
      for (const payload of payloadsFor(kind, t.eventType, snapshot)) {
        const event = { type: t.eventType, actor, ...payload } as MachineEvent;
        if (machine.getTransitionData(snapshot, event).length > 0) out.set(JSON.stringify(event), event);
      }
    }
    return [...out.values()];
  };
}
