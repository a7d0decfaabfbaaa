import { Checkbox, Input, NativeSelect, Textarea } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../components/form/FormField';
import type { FieldMessage } from '../../components/form/validation-messages';

/**
 * Small labelled inputs shared by the request screens. `error` is a validation message with its parameters, or a
 * string: an i18n key with its namespace (`machines:validation.required`) or a ready text (the server's).
 */
const errorOf = (t: (key: string) => string, error: FieldMessage | string | undefined) => (!error ? null : typeof error === 'string' ? t(error) : error);

export function TextInput(p: {
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: FieldMessage | string;
  required?: boolean;
  type?: 'text' | 'number' | 'date' | 'tel';
  multiline?: boolean;
  readOnly?: boolean;
  dir?: 'rtl' | 'ltr';
}) {
  const { t } = useTranslation();
  return (
    <FormField label={p.label} required={p.required} error={errorOf(t, p.error)} readOnly={p.readOnly}>
      {p.multiline ? (
        <Textarea name={p.name} value={p.value} onChange={(e) => p.onChange(e.target.value)} rows={3} readOnly={p.readOnly} dir={p.dir} />
      ) : (
        <Input name={p.name} type={p.type ?? 'text'} value={p.value} onChange={(e) => p.onChange(e.target.value)} readOnly={p.readOnly} dir={p.dir} />
      )}
    </FormField>
  );
}

export function SelectInput(p: {
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { value: string; label: string }[];
  error?: FieldMessage | string;
  required?: boolean;
  placeholder?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <FormField label={p.label} required={p.required} error={errorOf(t, p.error)} disabled={p.disabled}>
      <NativeSelect.Root disabled={p.disabled}>
        <NativeSelect.Field name={p.name} value={p.value} onChange={(e) => p.onChange(e.target.value)}>
          {p.placeholder !== undefined && <option value="">{p.placeholder}</option>}
          {p.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FormField>
  );
}

export function CheckInput(p: { name: string; label: React.ReactNode; checked: boolean; onChange: (v: boolean) => void; disabled?: boolean }) {
  return (
    <Checkbox.Root checked={p.checked} onCheckedChange={(e) => p.onChange(!!e.checked)} disabled={p.disabled} data-testid={`check-${p.name}`}>
      <Checkbox.HiddenInput name={p.name} />
      <Checkbox.Control />
      <Checkbox.Label>{p.label}</Checkbox.Label>
    </Checkbox.Root>
  );
}
