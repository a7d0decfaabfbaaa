import { Button, Flex } from '@chakra-ui/react';
import { Link, useLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Permissions as P } from '../../../../machines/permissions';
import { useSession } from '../../session';
import { can } from '../../session/session-store';

const LINKS = [
  { to: '/identity', key: 'identity', anyOf: [P.admin.manage] },
  { to: '/setting-management', key: 'settingManagement', anyOf: [P.settings.manage] },
  { to: '/audit-logs', key: 'auditLogs', anyOf: [P.auditLogs.view] },
  { to: '/language-management', key: 'languageManagement', anyOf: [P.settings.manage] },
  { to: '/text-template-management', key: 'textTemplateManagement', anyOf: [P.settings.manage] },
];

/** The administration screens the user may open, one click apart. */
export function AdminLinks() {
  const { t } = useTranslation('shell');
  const session = useSession();
  const here = useLocation().pathname;
  const mine = LINKS.filter((l) => can(session, l.anyOf));
  if (mine.length < 2) return null;
  return (
    <Flex gap="2" wrap="wrap" mb="5" as="nav" aria-label={t('screens.identity')}>
      {mine.map((l) => (
        <Button key={l.to} asChild size="sm" variant={here === l.to ? 'solid' : 'outline'} colorPalette="brand">
          <Link to={l.to}>{t(`screens.${l.key}`)}</Link>
        </Button>
      ))}
    </Flex>
  );
}
