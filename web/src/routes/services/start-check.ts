import { useTranslation } from 'react-i18next';
import type { RequestKind } from '../../../../machines/services';
import { refusalOf } from '../../api/errors';
import { apiQuery, useApi } from '../../api/query';
import { messageText } from '../../components/form/validation-messages';

/**
 * Whether the service `kind` may start now for the facility (and the certificate it is about), asked before a start
 * page's button is pressed: the start's own checks (GET /api/requests/start-check). `refused` is why not, in the
 * start's words, drawn from the refusal's key at each render so that it follows a language switch; null while the
 * answer is awaited or when the start may go ahead.
 */
export function useStartCheck(kind: RequestKind, facilityId: string, certificateId: string | undefined): { canStart: boolean; refused: string | null } {
  const { t } = useTranslation();
  const check = useApi(apiQuery('/api/requests/start-check', { params: { query: { kind, facilityId, certificateId } } }), { enabled: !!facilityId });
  const refusal = check.data?.refusal;
  return { canStart: !!check.data?.canStart, refused: refusal ? messageText(t, refusalOf(refusal)) || null : null };
}
