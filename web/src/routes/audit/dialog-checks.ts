import type { FieldMessage } from '../../components/form/validation-messages';
import { CLAUSE_NUMBER } from './nonconformities';

/**
 * The checks of the audit and corrective-action dialogs, as form messages by field: keys of the machines' validation
 * texts (`machines:validation.required`), which FormField and messageText put into the reader's words.
 */
const message = (key: string): FieldMessage => ({ key: `machines:validation.${key}` });

export interface NcRowInput {
  reference: string;
  clauseNumber: string;
  description: string;
  observedCase: string;
}

/** The inspection result (AuditResultDialog): compliant or not chosen, and each non-conformity's required fields. */
export function checkAuditResult(compliant: 'yes' | 'no' | '', rows: readonly NcRowInput[]): Record<string, FieldMessage> {
  const e: Record<string, FieldMessage> = {};
  if (!compliant) e.compliant = message('required');
  if (compliant === 'no') {
    if (rows.length === 0) e.rows = message('nonConformityRequired');
    rows.forEach((r, i) => {
      if (!r.reference.trim()) e[`${i}.reference`] = message('required');
      if (!CLAUSE_NUMBER.test(r.clauseNumber.trim())) e[`${i}.clauseNumber`] = message('clauseNumberFormat');
      if (!r.description.trim()) e[`${i}.description`] = message('required');
      if (!r.observedCase.trim()) e[`${i}.observedCase`] = message('required');
    });
  }
  return e;
}

/** The auditor's decisions (CorrectiveDecisionsDialog): one per open non-conformity, a rejection with its reason. */
export function checkCorrectiveDecisions(
  open: readonly string[],
  decisions: Readonly<Record<string, { accepted?: boolean; reason: string } | undefined>>,
): Record<string, FieldMessage> {
  const e: Record<string, FieldMessage> = {};
  for (const id of open) {
    const d = decisions[id];
    if (d?.accepted === undefined) e[id] = message('decisionRequired');
    else if (!d.accepted && !d.reason.trim()) e[id] = message('reasonRequired');
  }
  return e;
}

/** The applicant's corrective actions (CorrectiveActionsDialog): a description and an implementation date each. */
export function checkCorrectiveActions(
  open: readonly string[],
  rows: Readonly<Record<string, { description: string; implementationDate: string } | undefined>>,
): Record<string, FieldMessage> {
  const e: Record<string, FieldMessage> = {};
  for (const id of open) {
    const r = rows[id];
    if (!r?.description.trim()) e[`${id}.description`] = message('correctiveActionRequired');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(r?.implementationDate ?? '')) e[`${id}.implementationDate`] = message('invalidDate');
  }
  return e;
}
