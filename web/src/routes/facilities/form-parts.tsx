import { useMemo, useRef, useState } from 'react';
import { Badge, Box, Button, Flex, NativeSelect, Text } from '@chakra-ui/react';
import countries from 'i18n-iso-countries';
import { useTranslation } from 'react-i18next';
import { useRefusal } from '../../api/errors';
import { uploadAttachment, type Attachment } from './facilities-api';

const ALPHA2 = Object.keys(countries.getAlpha2Codes()).sort();

/** Country names in the UI language from the browser's own data (Intl.DisplayNames), sorted by that name. */
export function useCountryOptions(exclude: string[] = []): { code: string; name: string }[] {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    return ALPHA2.filter((c) => !exclude.includes(c))
      .map((code) => ({ code, name: names.of(code) ?? code }))
      .sort((a, b) => a.name.localeCompare(b.name, i18n.language));
    // Keyed by the excluded codes' text: callers pass a new array each render.
  }, [i18n.language, exclude.join(',')]);
}

export function CountrySelect({ value, onChange, exclude, name }: { value: string; onChange: (code: string) => void; exclude?: string[]; name: string }) {
  const { t } = useTranslation('facilities');
  const options = useCountryOptions(exclude);
  return (
    <NativeSelect.Root>
      <NativeSelect.Field name={name} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('form.chooseCountry')}</option>
        {options.map((o) => (
          <option key={o.code} value={o.code}>
            {o.name}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

/** Several countries (exporting countries): a picker that adds, and chips that remove. */
export function CountriesInput({ value, onChange }: { value: string[]; onChange: (codes: string[]) => void }) {
  const { t } = useTranslation('facilities');
  const options = useCountryOptions(value);
  const names = useCountryOptions();
  return (
    <Box>
      <NativeSelect.Root>
        <NativeSelect.Field
          aria-label={t('fields.exportingCountries')}
          value=""
          onChange={(e) => e.target.value && onChange([...value, e.target.value])}
        >
          <option value="">{t('form.addCountry')}</option>
          {options.map((o) => (
            <option key={o.code} value={o.code}>
              {o.name}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Flex gap="2" wrap="wrap" mt="2">
        {value.map((code) => (
          <Badge key={code} size="lg" variant="subtle" gap="1">
            {names.find((n) => n.code === code)?.name ?? code}
            <Button size="2xs" variant="plain" aria-label={t('form.remove')} onClick={() => onChange(value.filter((c) => c !== code))}>
              ×
            </Button>
          </Badge>
        ))}
      </Flex>
    </Box>
  );
}

/**
 * One attachment of a category: picks a file, uploads it at once (the server checks type, size, name and content)
 * and shows the stored file or the refusal in the user's language.
 */
export function AttachmentInput({
  category,
  required,
  value,
  onChange,
}: {
  category: string;
  required?: boolean;
  value: Attachment | null;
  onChange: (a: Attachment | null) => void;
}) {
  const { t } = useTranslation('facilities');
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);
  const refusal = useRefusal();
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setPending(true);
    refusal.clear();
    try {
      onChange(await uploadAttachment(category, file));
    } catch (e) {
      refusal.refuse(e);
      onChange(null);
    } finally {
      setPending(false);
      if (input.current) input.current.value = '';
    }
  };
  const error = refusal.messages.join(' ') || null;
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" data-testid={`attachment-${category}`}>
      <Flex align="center" gap="3" wrap="wrap">
        <Box flex="1" minW="48">
          <Text fontWeight="medium">
            {t(`attachmentCategory.${category}`)}
            {required && (
              <Text as="span" color="fg.error" ms="1">
                *
              </Text>
            )}
          </Text>
          <Text fontSize="sm" color={error ? 'fg.error' : 'fg.muted'} dir={value && !error ? 'ltr' : undefined}>
            {error ?? value?.fileName ?? t('form.fileHint')}
          </Text>
        </Box>
        <input
          ref={input}
          type="file"
          hidden
          accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg"
          name={category}
          onChange={(e) => void pick(e.target.files?.[0])}
        />
        <Button size="sm" variant="outline" loading={pending} onClick={() => input.current?.click()}>
          {value ? t('form.replaceFile') : t('form.chooseFile')}
        </Button>
        {value && (
          <Button size="sm" variant="ghost" onClick={() => onChange(null)}>
            {t('form.remove')}
          </Button>
        )}
      </Flex>
    </Box>
  );
}
