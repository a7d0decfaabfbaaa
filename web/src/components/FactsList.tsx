import { DataList } from '@chakra-ui/react';

/**
 * A list of facts (label and value): the label above its value on a phone, beside it from 768 px. Side by side on a
 * phone, a long value (a CB's categories, an address) had a third of the screen and ran to ten lines.
 */
export function FactsList(props: DataList.RootProps) {
  return <DataList.Root orientation={{ base: 'vertical', md: 'horizontal' }} {...props} />;
}
