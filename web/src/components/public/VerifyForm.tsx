import { useId, useState } from 'react';
import { Button, Field, HStack, Input } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/** The box where a visitor types a certificate number or verification code; opens /verify/<code>. */
export function VerifyForm({ initial = '', size = 'md' }: { initial?: string; size?: 'md' | 'lg' }) {
  const { t } = useTranslation('public');
  const navigate = useNavigate();
  const [code, setCode] = useState(initial);
  const id = useId();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const value = code.trim();
    if (value) void navigate({ to: '/verify/$code', params: { code: value } });
  };
  return (
    <form onSubmit={submit} role="search" aria-label={t('nav.verify')}>
      <Field.Root>
        <Field.Label htmlFor={id}>{t('verify.inputLabel')}</Field.Label>
        <HStack w="full" gap="2">
          <Input
            id={id}
            name="code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder={t('verify.placeholder')}
            maxLength={64}
            dir="ltr"
            size={size}
            bg="bg"
            autoComplete="off"
            data-testid="verify-input"
          />
          <Button type="submit" colorPalette="brand" size={size} data-testid="verify-submit">
            {t('verify.submit')}
          </Button>
        </HStack>
      </Field.Root>
    </form>
  );
}
