import { useState } from 'react';
import { Alert, Button, Flex, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { ApiError, refusalOf } from '../../api/errors';
import { messageText, type Said } from '../../components/form/validation-messages';
import { Ltr } from '../../components/Bidi';
import type { ApiResponse } from '../../api/query';

/**
 * The importer step's "Next": the importer as the form holds it, checked by the server as SUBMIT checks it (one rule,
 * server/modules/requests/server-checks.ts importerIssues). The refusal (400 naming each contradicted field, or 502 when
 * the registry cannot be asked), or null when the importer is the registry's.
 */
export async function confirmImporter(importer: unknown): Promise<ApiError | null> {
  try {
    await data(api.POST('/api/shipment-requests/importer/check', { body: (importer ?? {}) as Record<string, unknown>, handleErrors: [400, 502] }));
    return null;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
}

/**
 * The shipment wizard's check button (spec 02 section 5): the importer's unified number is looked up in the commercial
 * registry and the registry's name, CR number, expiry, status and activity fill the importer step. The server checks
 * the number again on submission; this only spares the applicant typing what the registry already knows.
 */
export function ImporterCheck({ value, onChange, readOnly }: { value: Record<string, unknown> | undefined; onChange: (v: Record<string, unknown>) => void; readOnly: boolean }) {
  const { t, i18n } = useTranslation('requests');
  const [checking, setChecking] = useState(false);
  const [found, setFound] = useState<ApiResponse<'/api/shipment-requests/importer/{unifiedNumber}'> | null>(null);
  const [failure, setFailure] = useState<Said | null>(null);
  const number = typeof value?.unifiedNumber === 'string' ? value.unifiedNumber.replace(/\s+/g, '') : '';

  const check = async () => {
    setChecking(true);
    setFailure(null);
    setFound(null);
    try {
      const r = await data(api.GET('/api/shipment-requests/importer/{unifiedNumber}', { params: { path: { unifiedNumber: number } }, handleErrors: [400, 404, 502] }));
      setFound(r);
      const ar = i18n.language === 'ar';
      onChange({
        ...value,
        name: ar ? r.name : r.nameEn || r.name,
        crNumber: r.crNumber,
        registrationExpiry: r.expiryDate.slice(0, 10),
        status: r.status.label,
        activity: ar ? r.activity : r.activityEn || r.activity,
      });
    } catch (e) {
      setFailure(e instanceof ApiError ? refusalOf(e) : { key: 'requests:importerCheck.failed' });
    } finally {
      setChecking(false);
    }
  };

  return (
    <Flex direction="column" gap="2" mb="4" data-testid="importer-check">
      <Flex gap="3" align="center" wrap="wrap">
        <Button size="sm" variant="outline" colorPalette="brand" onClick={() => void check()} loading={checking} disabled={readOnly || !number} data-testid="importer-check-button">
          {t('importerCheck.button')}
        </Button>
        <Text fontSize="sm" color="fg.muted">
          {t('importerCheck.hint')}
        </Text>
      </Flex>
      {found && (
        <Alert.Root status={found.verified ? 'success' : 'warning'} data-testid="importer-check-result" data-verified={found.verified}>
          <Alert.Indicator />
          <Alert.Description>
            {found.verified ? t('importerCheck.verified', { name: i18n.language === 'ar' ? found.name : found.nameEn || found.name }) : found.problem}{' '}
            <Ltr>{found.crNumber}</Ltr>
          </Alert.Description>
        </Alert.Root>
      )}
      {failure && (
        <Text color="fg.error" data-testid="importer-check-error">
          {messageText(t, failure)}
        </Text>
      )}
    </Flex>
  );
}
