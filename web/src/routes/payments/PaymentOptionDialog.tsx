import { useState } from 'react';
import { RadioGroup, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { EventFormProps } from '../requests/EventDialog';
import { FormDialog } from '../requests/FormDialog';

/** After approval the applicant chooses to pay the certificate fees yearly or in full for the validity period. */
export function PaymentOptionDialog({ action, send, onClose }: EventFormProps) {
  const { t } = useTranslation('requests');
  const [option, setOption] = useState<'yearly' | 'full' | ''>('');
  return (
    <FormDialog title={action.label} submitLabel={action.label} onClose={onClose} submitDisabled={!option} onSubmit={() => send({ option })} testId="payment-option-dialog">
      <RadioGroup.Root value={option} onValueChange={(e) => setOption(e.value === 'full' ? 'full' : 'yearly')} name="paymentOption">
        <Stack gap="3">
          {(['yearly', 'full'] as const).map((v) => (
            <RadioGroup.Item key={v} value={v} data-testid={`payment-option-${v}`}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{t(`payment.options.${v}`)}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </Stack>
      </RadioGroup.Root>
    </FormDialog>
  );
}
