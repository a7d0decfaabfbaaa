import { Checkbox, Input, NativeSelect, Textarea } from '@chakra-ui/react';
import { FormField } from '../../components/form/FormField';
import type { FieldMessage } from '../../components/form/validation-messages';

/**
 * Small labelled inputs shared by the request screens. `error` is what FormField shows: a form message with its
 * parameters (a validation key, or a key naming its namespace such as `machines:validation.required`), or the
 * server's text, already in the reader's language, shown as it is.
 */

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
  return (
    <FormField label={p.label} required={p.required} error={p.error} readOnly={p.readOnly}>
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
  return (
    <FormField label={p.label} required={p.required} error={p.error} disabled={p.disabled}>
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
