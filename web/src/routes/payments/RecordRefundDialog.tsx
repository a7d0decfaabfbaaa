import { useState } from 'react';
import { Input, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ZRefundRecord } from '../../../../machines/forms/refund';
import { api, data } from '../../api/client';
import { ApiError, useRefusal } from '../../api/errors';
import { ltr } from '../../components/Bidi';
import { FormField } from '../../components/form/FormField';
import type { FieldMessage } from '../../components/form/validation-messages';
import { notify } from '../../components/toaster';
import { FormDialog } from '../requests/FormDialog';
import { moneyFormat } from '../../lib/numbers';

type Field = 'reference' | 'refundedOn';

/**
 * Records a refund owed as made (POST /api/payments/:id/refund): the refund's reference and the day it was made. The
 * shared schema checks the fields here with the server's words; the server's own refusals (the day's bounds, a refund
 * already recorded by someone else, a payment no longer owed one) are shown in the dialog, which stays open.
 */
export function RecordRefundDialog({ payment, onClose, onRecorded }: { payment: { paymentId: string; billNumber: string; amount: string }; onClose: () => void; onRecorded: () => void }) {
  const { t, i18n } = useTranslation('payments');
  const [reference, setReference] = useState('');
  const [refundedOn, setRefundedOn] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, FieldMessage>>>({});
  const refusal = useRefusal();
  const money = moneyFormat(i18n.language);

  const submit = async () => {
    refusal.clear();
    const parsed = ZRefundRecord.safeParse({ reference, refundedOn });
    if (!parsed.success) {
      const found: Partial<Record<Field, FieldMessage>> = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as Field] ??= { key: issue.message, params: { max: 64 } };
      setErrors(found);
      throw new Error('invalid');
    }
    setErrors({});
    try {
      await data(api.POST('/api/payments/{id}/refund', { params: { path: { id: payment.paymentId } }, body: parsed.data, handleErrors: [400, 409] }));
    } catch (e) {
      const fields = e instanceof ApiError && e.status === 400 ? e.validationErrors.filter((v) => v.key && (v.members[0] === 'reference' || v.members[0] === 'refundedOn')) : [];
      if (fields.length) setErrors(Object.fromEntries(fields.map((v) => [v.members[0], { key: v.key!, params: v.params }])));
      else refusal.refuse(e);
      throw e;
    }
    notify.success(t('attention.refund.recorded', { bill: ltr(payment.billNumber) }));
    onRecorded();
  };

  return (
    <FormDialog
      title={t('attention.refund.title', { bill: ltr(payment.billNumber) })}
      submitLabel={t('attention.refund.submit')}
      onSubmit={submit}
      onClose={onClose}
      size="md"
      testId="refund-dialog"
    >
      <Stack gap="4">
        <Text>{t('attention.refund.intro', { amount: ltr(money.format(Number(payment.amount))) })}</Text>
        <FormField label={t('attention.refund.reference')} required helper={t('attention.refund.referenceHelp')} error={errors.reference}>
          <Input dir="ltr" value={reference} onChange={(e) => setReference(e.target.value)} maxLength={80} data-testid="refund-reference" />
        </FormField>
        <FormField label={t('attention.refund.date')} required error={errors.refundedOn}>
          <Input type="date" dir="ltr" value={refundedOn} onChange={(e) => setRefundedOn(e.target.value)} data-testid="refund-date" />
        </FormField>
        {refusal.messages.length > 0 && (
          <Text color="fg.error" role="alert" data-testid="refund-refusal">
            {refusal.messages.join(' ')}
          </Text>
        )}
      </Stack>
    </FormDialog>
  );
}
