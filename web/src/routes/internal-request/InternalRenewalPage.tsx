import { useState } from 'react';
import { Alert, Button, Stack } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { FieldMessage } from '../../components/form/validation-messages';
import { checkRenewal } from './renewal-form';
import { TextInput } from '../requests/inputs';
import { apiQuery, useApi } from '../../api/query';
import { useRouteParams } from '../../route-params';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { StartCertificate } from '../services/StartCertificate';
import { useStartCheck } from '../services/start-check';
import { wizardPath } from '../services/wizards';

/**
 * internal-renewal-request/{facilityPublicId}/{certificateId}: the renewal (type 202) of an internal certificate. It
 * opens when fewer than the expiring-soon setting's days remain (60 by default; the server's start check says so, with
 * the days, and refuses a suspended certificate and a second open renewal); the applicant gives the reason and any notes (spec 02 section 3, checked with
 * the section schema the server uses), and starting it copies the certified request's data into a renewal draft and
 * opens the wizard of every service (the terms are the agreement ticked on submission).
 */
export function InternalRenewalPage() {
  const { facilityPublicId, certificateId } = useRouteParams('internal-renewal-request/$facilityPublicId/$certificateId');
  const { t } = useTranslation(['requests', 'shell']);
  const navigate = useNavigate();
  // The certificate as the generic start page shows it; one the user may not read answers 404 (the not-found screen).
  const certificate = useApi(apiQuery('/api/certificates/{id}', { params: { path: { id: certificateId } } }));
  // Whether it may start now is the start's own checks (the window from today's settings, not suspended, one renewal
  // open at a time), asked before the reason is typed; a refusal is said in the start's words.
  const { canStart, refused } = useStartCheck('internalRenewal', facilityPublicId, certificateId);
  const [reason, setReason] = useState('');
  const [notes, setNotes] = useState('');
  // A field's message: a validation key with its parameters (the form's own check), or the server's text.
  const [errors, setErrors] = useState<Record<string, FieldMessage | string>>({});
  const start = async () => {
    const checked = checkRenewal({ reason, notes });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      const r = await data(api.POST('/api/internal-requests/renewals', { body: { certificateId, renewal: checked.renewal }, handleErrors: [400] }));
      await navigate({ to: wizardPath(r.id) });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const fields: Record<string, string> = {};
      for (const v of e.validationErrors) for (const m of v.members) fields[m.split('.').pop()!] ??= v.message;
      setErrors(Object.keys(fields).length ? fields : { reason: e.message });
    }
  };
  const c = certificate.data;
  return (
    <PageContainer>
      <PageHeader title={t('requests:renewal.title')} breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: t('requests:renewal.title') }]} />
      {c && (
        <Stack gap="4" maxW="2xl">
          <StartCertificate certificate={c} />
          {canStart ? (
            <>
              <TextInput name="renewal.reason" label={t('requests:fields.reason')} value={reason} onChange={setReason} error={errors.reason} required multiline />
              <TextInput name="renewal.notes" label={t('requests:fields.notes')} value={notes} onChange={setNotes} error={errors.notes} multiline />
              <Button alignSelf="start" colorPalette="brand" onClick={() => void start()} data-testid="start-renewal">
                {t('requests:renewal.start')}
              </Button>
            </>
          ) : (
            refused && (
              <Alert.Root status="info" data-testid="renewal-not-open">
                <Alert.Indicator />
                <Alert.Title>{refused}</Alert.Title>
              </Alert.Root>
            )
          )}
        </Stack>
      )}
    </PageContainer>
  );
}
