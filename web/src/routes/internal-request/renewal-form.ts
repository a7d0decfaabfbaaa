import { renewalSection } from '../../../../machines/services/internal';
import { fieldMessages, type FieldMessage } from '../../components/form/validation-messages';

export interface Renewal {
  reason: string;
  notes?: string;
}

/**
 * The renewal's reason and notes checked with the section schema the server uses: the renewal to send, or each field's
 * message (a validation key with its parameters, put into words where the field shows it).
 */
export function checkRenewal(renewal: Renewal): { ok: true; renewal: Renewal } | { ok: false; errors: Record<string, FieldMessage> } {
  const checked = renewalSection().complete.safeParse(renewal);
  return checked.success ? { ok: true, renewal: checked.data as Renewal } : { ok: false, errors: fieldMessages(checked.error.issues) };
}
