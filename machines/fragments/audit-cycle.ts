import type { FeeKind, PaymentService } from '../effects';
import { may, type MayParams } from '../guards';
import type { RequestStates, RequestStateConfig } from '../request-setup';
import { assignmentHandlers } from './assignment';
import { branches, type ApplicantPolicies, type Branch, type ServicePolicies } from './common';
import { enterPayment, paymentStep } from './payment';

/** The reading of the versions that keep audit's saved plan apart from the plan sent to the applicant. */
export const PLAN_DRAFT_READING =
  'A plan audit saves (SAVE_PLAN) stays audit’s draft, seen by Halal-center staff only, until SUBMIT_PLAN sends it: the applicant reads, accepts or returns only the plan last sent to them, and the audit fees are worked out from that plan. Earlier versions stored a saved plan over the sent one, so an applicant reading a returned plan (8/20, CB 1001) saw the auditor’s unsent changes.';

/** Status codes of one instance of the cycle (first round, or after a return from the decision committee). */
export interface AuditCycleCodes {
  plan: number;
  planApproval: number;
  planReturned: number;
  planApproved: number;
  procedures: number;
  correctiveActions: number;
  correctiveActionsApproval: number;
  correctiveActionsModification: number;
  report: number;
  decision: number;
  waitingIssue: number;
  auditFees?: { pending: number; expired: number };
  /** `paymentOption` only where the applicant chooses yearly or full payment. */
  certificateFees?: { paymentOption?: number; pending: number; expired: number };
}

export interface AuditCycleOptions {
  /** State id of the cycle (unique in the machine): `audit1`, `audit2`. */
  id: string;
  codes: AuditCycleCodes;
  policies: ServicePolicies;
  applicant: ApplicantPolicies;
  /** Bill services of the fees; each needs its codes above. */
  auditFees?: { service: PaymentService };
  /** `choosePaymentOption: false`: one bill at approval, no yearly/full choice (CB appointment, CB renewal). */
  certificateFees?: { service: PaymentService; feeKind: FeeKind; choosePaymentOption?: boolean };
  returnToRegistration: Branch;
  returnToAudit: Branch;
  reject: Branch;
  /** ISSUE_CERTIFICATE in `waitingIssue`: who issues, where it leads, which effect. */
  issue: Branch & { guard: Omit<MayParams, 'when'> };
  /** Where cancelling a payment leads (back to draft). */
  cancelPayment: Branch;
  /**
   * Only staff who may submit a plan take a plan to draft (plan and returned plan). Versions recorded before this
   * option let any audit employee take it, so a technical auditor (report only) could hold a plan nobody else could send.
   */
  plannersTakePlans?: boolean;
  /**
   * SAVE_PLAN keeps audit's draft apart (`auditPlanDraft`, staff-only) and only SUBMIT_PLAN writes `auditPlan`, the plan
   * the applicant reads and accepts. Versions recorded before this option let a saved draft overwrite the sent plan.
   */
  keepsPlanDraft?: boolean;
}

/**
 * Audit and inspection, then the decision committee (spec 02 section 4 steps 3-5), as one fragment instantiated
 * per round with its own codes: plan -> applicant approves or returns it -> (audit fees) -> plan approved ->
 * inspection -> compliant report, or corrective actions accepted or rejected one by one -> audit report ->
 * decision committee: approve (-> payment option -> certificate fees -> waiting issue), return to audit, reject.
 */
export function auditCycle(o: AuditCycleOptions): RequestStateConfig {
  const p = o.policies;
  const c = o.codes;
  const audit = { review: [p.auditSubmitPlan, p.auditSubmitReport], others: p.auditAssignToOthers };
  const committee = { review: p.committeeReview, others: p.committeeAssignToOthers };
  const applicant = (permission: string) => may({ permission, relation: 'applicant' });
  const auditor = (permission: string) => ({ permission, relation: 'reviewer' }) as const;
  const meta = (status: number, description: string) => ({ status, description });

  // AddAuditPlan saves a first plan, EditAuditPlan changes a returned one; SubmitPlan sends either to the applicant.
  const planners = o.plannersTakePlans ? { review: p.auditSubmitPlan, others: p.auditAssignToOthers } : audit;
  const save = o.keepsPlanDraft ? ('saveDraftPlan' as const) : ('savePlan' as const);
  const send = o.keepsPlanDraft ? ('sendPlan' as const) : ('savePlan' as const);
  const planDrafting = (status: number, savePermission: string, description: string): RequestStateConfig => ({
    tags: ['audit'],
    meta: meta(status, description),
    on: {
      ...assignmentHandlers(planners),
      SAVE_PLAN: { guard: may(auditor(savePermission)), actions: save },
      SUBMIT_PLAN: { guard: may(auditor(p.auditSubmitPlan)), target: 'planApproval', actions: send },
      RETURN_TO_REGISTRATION: branches(auditor(p.auditSubmitPlan), [o.returnToRegistration]),
    },
  });

  // A request cancelled back to draft starts its plans afresh: no draft of the old round stays with it.
  const cancelActions = o.keepsPlanDraft ? [...[o.cancelPayment.actions ?? []].flat(), 'clearPlanDraft' as const] : o.cancelPayment.actions;
  const afterPlanAccepted: Branch[] = c.auditFees && o.auditFees
    ? enterPayment({ free: { target: 'planApproved' }, paymentTarget: 'auditFees' })
    : [{ target: 'planApproved' }];
  const choosesOption = o.certificateFees?.choosePaymentOption !== false;
  const afterApproval: Branch[] = c.certificateFees && o.certificateFees
    ? enterPayment({ free: { target: 'waitingIssue' }, paymentTarget: choosesOption ? 'paymentOption' : 'certificateFees' })
    : [{ target: 'waitingIssue' }];

  const states: RequestStates = {
    plan: planDrafting(c.plan, p.auditAddPlan, 'Audit prepares the inspection plan.'),
    planApproval: {
      tags: ['applicant'],
      meta: meta(c.planApproval, 'The applicant accepts the plan or returns it with a note.'),
      on: {
        ACCEPT_PLAN: branches({ permission: o.applicant.request, relation: 'applicant' }, afterPlanAccepted),
        RETURN_PLAN: { guard: applicant(o.applicant.request), target: 'planReturned' },
      },
    },
    planReturned: planDrafting(c.planReturned, p.auditEditPlan, 'The applicant returned the plan for modification.'),
    planApproved: {
      tags: ['audit'],
      meta: meta(c.planApproved, 'Plan approved: audit starts the inspection.'),
      on: {
        ...assignmentHandlers(audit),
        START_INSPECTION: { guard: may(auditor(p.auditSubmitReport)), target: 'procedures' },
      },
    },
    procedures: {
      tags: ['audit'],
      meta: meta(c.procedures, 'Inspection visit: audit records the result.'),
      on: {
        ...assignmentHandlers(audit),
        SUBMIT_AUDIT_RESULT: branches(auditor(p.auditSubmitReport), [
          { when: 'compliant', target: 'report' },
          { when: 'nonCompliant', target: 'correctiveActions', actions: 'openNonConformities' },
        ]),
      },
    },
    correctiveActions: {
      tags: ['applicant'],
      meta: meta(c.correctiveActions, 'The applicant submits corrective actions.'),
      on: { SUBMIT_CORRECTIVE_ACTIONS: { guard: applicant(o.applicant.request), target: 'correctiveActionsApproval' } },
    },
    correctiveActionsApproval: {
      tags: ['audit'],
      meta: meta(c.correctiveActionsApproval, 'The auditor accepts or rejects each corrective action.'),
      on: {
        ...assignmentHandlers(audit),
        DECIDE_CORRECTIVE_ACTIONS: branches(auditor(p.auditSubmitReport), [
          { when: 'allCorrectiveActionsAccepted', target: 'report', actions: 'keepRejectedNonConformities' },
          { when: 'someCorrectiveActionsRejected', target: 'correctiveActionsModification', actions: 'keepRejectedNonConformities' },
        ]),
      },
    },
    correctiveActionsModification: {
      tags: ['applicant'],
      meta: meta(c.correctiveActionsModification, 'The applicant corrects the rejected corrective actions.'),
      on: { SUBMIT_CORRECTIVE_ACTIONS: { guard: applicant(o.applicant.request), target: 'correctiveActionsApproval' } },
    },
    report: {
      tags: ['audit'],
      meta: meta(c.report, 'Audit writes the report for the decision committee.'),
      on: {
        ...assignmentHandlers(audit),
        SUBMIT_REPORT: { guard: may(auditor(p.auditSubmitReport)), target: 'decision' },
      },
    },
    decision: {
      tags: ['committee'],
      entry: 'clearAssignee',
      exit: 'clearAssignee',
      meta: meta(c.decision, 'The decision committee approves, returns to audit or rejects (reason required).'),
      on: {
        ...assignmentHandlers(committee),
        APPROVE: branches(auditor(p.committeeReview), afterApproval),
        RETURN_TO_AUDIT: branches(auditor(p.committeeReview), [o.returnToAudit]),
        REJECT: branches(auditor(p.committeeReview), [o.reject]),
      },
    },
    waitingIssue: {
      tags: ['committee'],
      meta: meta(c.waitingIssue, 'Approved and paid: the certificate is issued.'),
      on: { ISSUE_CERTIFICATE: branches(o.issue.guard, [o.issue]) },
    },
  };

  if (c.auditFees && o.auditFees) {
    Object.assign(
      states,
      paymentStep({
        pending: { name: 'auditFees', code: c.auditFees.pending },
        expired: { name: 'auditFeesExpired', code: c.auditFees.expired, stopped: true },
        service: o.auditFees.service,
        feeKind: 'auditFees',
        paid: { target: 'planApproved' },
        cancel: { target: o.cancelPayment.target, actions: cancelActions, kind: 'toDraft' },
        applicant: o.applicant,
      }),
    );
  }
  if (c.certificateFees && o.certificateFees) {
    if (choosesOption) {
      if (c.certificateFees.paymentOption === undefined) throw new Error(`audit cycle ${o.id}: the payment option needs a code`);
      states.paymentOption = {
        tags: ['applicant'],
        meta: meta(c.certificateFees.paymentOption, 'The applicant chooses to pay yearly or in full.'),
        on: {
          CHOOSE_PAYMENT_OPTION: { guard: applicant(o.applicant.request), target: 'certificateFees', actions: 'choosePaymentOption' },
        },
      };
    }
    Object.assign(
      states,
      paymentStep({
        pending: { name: 'certificateFees', code: c.certificateFees.pending },
        expired: { name: 'certificateFeesExpired', code: c.certificateFees.expired, stopped: true },
        service: o.certificateFees.service,
        feeKind: o.certificateFees.feeKind,
        paid: { target: 'waitingIssue' },
        cancel: { target: o.cancelPayment.target, actions: cancelActions, kind: 'toDraft' },
        applicant: o.applicant,
      }),
    );
  }

  return { id: o.id, initial: 'plan', entry: 'clearAssignee', states };
}
