import { Flex, Link as ChakraLink, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { Ltr } from '../../components/Bidi';

/**
 * A finished Halal-mark request names the marks it issued, each number opening the mark's page, so the applicant need
 * not look for them in the marks list. `issued`: the request answer's outcome is marks (the server decides which
 * requests issue marks, from the service's declared outcome; workflows/effects.ts effect.issueHalalMarks issues them).
 */
export function IssuedMarks({ requestId, issued }: { requestId: string; issued: boolean }) {
  const { t } = useTranslation('requests');
  const enabled = issued;
  const marks = useApi(apiQuery('/api/requests/{id}/marks', { params: { path: { id: requestId } }, handleErrors: false }), { enabled });
  const items = enabled ? (marks.data?.items ?? []) : [];
  if (!items.length) return null;
  return (
    <Flex gap="3" align="center" wrap="wrap" borderWidth="1px" borderColor="green.muted" bg="green.subtle" borderRadius="md" p="4" data-testid="marks-link">
      <Text>{t('requests:marks.issued', { count: items.length })}</Text>
      {items.map((m) => (
        <ChakraLink asChild key={m.id} fontWeight="semibold" colorPalette="green">
          <Link to="/certificates/$certificateId" params={{ certificateId: m.id }} data-testid="mark-link">
            <Ltr>{m.number}</Ltr>
          </Link>
        </ChakraLink>
      ))}
    </Flex>
  );
}
