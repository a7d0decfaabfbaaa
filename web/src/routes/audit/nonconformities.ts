import type { z } from 'zod';
import type { ZCorrectiveAction, ZCorrectiveActionDecisionsPayload, ZNonConformity } from '../../../../machines/events';
import type { HistoryItem } from '../requests/requests-api';

/** The history's payloads, as the machines' event schemas give them (the server stored what they accepted). */
export type NonConformityView = z.output<typeof ZNonConformity>;
export type CorrectiveActionView = z.output<typeof ZCorrectiveAction>;
type CorrectiveActionDecision = z.output<typeof ZCorrectiveActionDecisionsPayload>['decisions'][number];

/** Spec 02 section 5: clause number of digits and . - / only, at most 5 characters. */
export const CLAUSE_NUMBER = /^[0-9./-]{1,5}$/;

/** The non-conformities of the latest audit result (the context keeps only the ids of the open ones). */
export function latestNonConformities(history: readonly HistoryItem[]): NonConformityView[] {
  const result = [...history].reverse().find((h) => h.event === 'SUBMIT_AUDIT_RESULT');
  return (result?.payload.nonConformities as NonConformityView[] | undefined) ?? [];
}

/** The corrective actions the applicant last submitted, by non-conformity id. */
export function latestCorrectiveActions(history: readonly HistoryItem[]): Map<string, CorrectiveActionView> {
  const out = new Map<string, CorrectiveActionView>();
  for (const h of history)
    if (h.event === 'SUBMIT_CORRECTIVE_ACTIONS')
      for (const a of (h.payload.actions as CorrectiveActionView[] | undefined) ?? []) out.set(a.nonConformityId, a);
  return out;
}

/** The auditor's last reason for rejecting each corrective action. */
export function rejectionReasons(history: readonly HistoryItem[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const h of history)
    if (h.event === 'DECIDE_CORRECTIVE_ACTIONS')
      for (const d of (h.payload.decisions as CorrectiveActionDecision[] | undefined) ?? [])
        if (!d.accepted && d.reason) out.set(d.nonConformityId, d.reason);
  return out;
}
