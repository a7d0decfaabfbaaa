import { Field } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { messageText, type FieldMessage } from './validation-messages';

export interface FormFieldProps {
  label: React.ReactNode;
  /** Shows the required mark and sets aria-required on the input. */
  required?: boolean;
  /** A validation key with parameters (translated from the validation namespace) or a ready message. */
  error?: FieldMessage | string | null;
  helper?: React.ReactNode;
  disabled?: boolean;
  readOnly?: boolean;
  /** The input (Input, Textarea, NativeSelect...): Field wires its id, label and aria attributes. */
  children: React.ReactNode;
}

/** A labelled form input with its helper text and validation message (spec 01 section 5). */
export function FormField({ label, required, error, helper, disabled, readOnly, children }: FormFieldProps) {
  const { t } = useTranslation('validation');
  const message = error ? messageText(t, error) : null;
  return (
    <Field.Root required={required} invalid={!!message} disabled={disabled} readOnly={readOnly}>
      <Field.Label>
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      {children}
      {helper && !message && <Field.HelperText>{helper}</Field.HelperText>}
      {message && <Field.ErrorText data-testid="field-error">{message}</Field.ErrorText>}
    </Field.Root>
  );
}
