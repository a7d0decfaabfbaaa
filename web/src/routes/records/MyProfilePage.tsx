import { Badge, Box, Button, Card, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { Ltr } from '../../components/Bidi';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { useSession } from '../../session';
import { facilityProfilePath, type FacilityType } from '../../session/selected-facility';
import { screenExists } from '../../screens';
import { nameIn, RoleLabel } from '../facilities/labels';
import { countryName } from '../../lib/countries';

/** The edit screens of a CB and of an external factory (main users; the server checks the edit permission). */
const EDIT_PATH: Partial<Record<FacilityType, string>> = {
  ConformityBody: '/facility-profile/cb/$cbPublicId/edit',
  ExternalFacility: '/facility-profile/external/$facilityPublicId/edit',
};
const GROUPS: FacilityType[] = ['InternalFacility', 'ExternalFacility', 'ConformityBody'];

/**
 * facility ("my profile", spec 01 section 2): the signed-in user at a glance — their personal data link, and their
 * facilities and conformity bodies grouped by type, each with its role and links to its profile, its certificates
 * and its invoices (only screens that exist are linked).
 */
export function MyProfilePage() {
  const { t, i18n } = useTranslation(['records', 'facilities', 'shell']);
  const session = useSession();
  const list = useApi(apiQuery('/api/Facility/GetUserFacilities', { params: { query: { pageNumber: 1, pageSize: 100, searchBy: 0 } } }));
  const items = list.data?.items ?? [];
  return (
    <PageContainer>
      <PageHeader title={t('records:profile.title')} description={t('records:profile.description')} breadcrumbs={[{ label: t('records:profile.title') }]} />
      <Stack gap="6">
        <Card.Root>
          <Card.Body>
            <Flex justify="space-between" align="center" gap="3" wrap="wrap">
              <Box>
                <Text fontWeight="semibold" data-testid="profile-name">
                  {session?.user?.name}
                </Text>
                <Text color="fg.muted">
                  <Ltr>{session?.user?.userName}</Ltr>
                </Text>
              </Box>
              {screenExists('/personal-profile/personal-data') && (
                <Button asChild variant="outline">
                  <Link to="/personal-profile/personal-data">{t('records:profile.personal')}</Link>
                </Button>
              )}
            </Flex>
          </Card.Body>
        </Card.Root>
        {GROUPS.map((type) => {
          const group = items.filter((f) => f.facilityType === type);
          if (group.length === 0) return null;
          return (
            <Box as="section" key={type} aria-labelledby={`group-${type}`}>
              <Heading as="h2" size="md" mb="3" id={`group-${type}`}>
                {t(`records:profile.group.${type}`)}
              </Heading>
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                {group.map((f) => (
                  <Card.Root key={f.publicId} data-testid={`profile-facility-${f.publicId}`}>
                    <Card.Body>
                      <Flex justify="space-between" gap="2" wrap="wrap" mb="2">
                        <Text fontWeight="semibold">{nameIn(f, i18n.language)}</Text>
                        <Badge>
                          <RoleLabel role={f.currentUserRole} isYou />
                        </Badge>
                      </Flex>
                      <Text color="fg.muted" fontSize="sm" mb="3">
                        <Ltr>{f.registrationNumber}</Ltr>
                        {f.city ? ` · ${f.city}` : ''} · {countryName(f.countryCode, i18n.language)}
                      </Text>
                      <Flex gap="2" wrap="wrap">
                        <Button asChild size="sm" colorPalette="brand">
                          <Link to={facilityProfilePath({ facilityType: f.facilityType, id: f.id, publicId: f.publicId })}>{t('records:profile.open')}</Link>
                        </Button>
                        {f.currentUserRole === 0 && EDIT_PATH[f.facilityType] && screenExists(EDIT_PATH[f.facilityType]!) && (
                          <Button asChild size="sm" variant="outline" data-testid={`edit-${f.publicId}`}>
                            <Link to={EDIT_PATH[f.facilityType]!} params={{ cbPublicId: f.publicId, facilityPublicId: f.publicId } as never}>
                              {t('records:edit.edit')}
                            </Link>
                          </Button>
                        )}
                        {screenExists('/certificates') && (
                          <Button asChild size="sm" variant="outline">
                            <Link to="/certificates">{t('shell:menu.certificates')}</Link>
                          </Button>
                        )}
                        {screenExists('/invoices') && (
                          <Button asChild size="sm" variant="outline">
                            <Link to="/invoices">{t('shell:menu.invoices')}</Link>
                          </Button>
                        )}
                      </Flex>
                    </Card.Body>
                  </Card.Root>
                ))}
              </SimpleGrid>
            </Box>
          );
        })}
        {list.data && items.length === 0 && <Text color="fg.muted">{t('records:profile.none')}</Text>}
      </Stack>
    </PageContainer>
  );
}
