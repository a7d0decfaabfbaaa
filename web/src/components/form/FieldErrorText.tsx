import { Text, type TextProps } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { messageText, type FieldMessage } from './validation-messages';

/** A message about a group of inputs (a list, a step, a file) outside a FormField: said with its parameters. */
export function FieldErrorText({ message, ...rest }: { message: FieldMessage | string } & TextProps) {
  const { t } = useTranslation('validation');
  return (
    <Text color="fg.error" data-testid="field-error" {...rest}>
      {messageText(t, message)}
    </Text>
  );
}
