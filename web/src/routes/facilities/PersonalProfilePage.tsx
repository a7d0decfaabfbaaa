import { Button, Card, DataList, Heading, Stack } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { FactsList } from '../../components/FactsList';
import { DataTable, type Column } from '../../components/DataTable';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { useSession } from '../../session/use-session';
import type { FacilityListItem } from './facilities-api';
import { nameIn, RoleLabel } from './labels';

/** personal-profile/personal-data: who the signed-in user is, and their role in each of their facilities. */
export function PersonalProfilePage() {
  const { t, i18n } = useTranslation('facilities');
  const session = useSession();
  const info = useApi(apiQuery('/api/app/halal-user/get-user-info'));
  const memberships = useApi(apiQuery('/api/Facility/GetUserFacilities', { params: { query: { pageSize: 100 } } }), { enabled: !session?.isStaff });
  const user = info.data ?? session?.user;
  const columns: Column<FacilityListItem>[] = [
    { key: 'name', header: t('fields.name'), render: (f) => nameIn(f, i18n.language) },
    { key: 'type', header: t('fields.facilityType'), render: (f) => t(`facilityType.${f.facilityType}`) },
    { key: 'role', header: t('fields.yourRole'), render: (f) => <RoleLabel role={f.currentUserRole} isYou /> },
  ];
  return (
    <PageContainer>
      <PageHeader
        title={t('personal.title')}
        actions={
          <Button asChild variant="outline" colorPalette="brand" size="sm" data-testid="gdpr-link">
            <Link to="/gdpr">{t('admin:gdpr.link')}</Link>
          </Button>
        }
      />
      <Stack gap="6">
        <Card.Root>
          <Card.Body>
            <FactsList data-testid="personal-data">
              <DataList.Item>
                <DataList.ItemLabel>{t('fields.name')}</DataList.ItemLabel>
                <DataList.ItemValue>{user?.name}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>{t('fields.loginName')}</DataList.ItemLabel>
                <DataList.ItemValue dir="ltr">{user?.userName}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>{t('fields.email')}</DataList.ItemLabel>
                <DataList.ItemValue dir="ltr">{user?.email}</DataList.ItemValue>
              </DataList.Item>
              {info.data && (
                <DataList.Item>
                  <DataList.ItemLabel>{t('fields.preferredLanguage')}</DataList.ItemLabel>
                  <DataList.ItemValue>{t(`language.${info.data.preferredLanguage === 'en' ? 'en' : 'ar'}`)}</DataList.ItemValue>
                </DataList.Item>
              )}
            </FactsList>
          </Card.Body>
        </Card.Root>
        {!session?.isStaff && (
          <Stack gap="3">
            <Heading as="h2" size="md">
              {t('personal.memberships')}
            </Heading>
            <DataTable caption={t('personal.memberships')} columns={columns} rows={memberships.data?.items ?? []} rowKey={(f) => f.publicId} loading={memberships.isFetching && !memberships.data} />
          </Stack>
        )}
      </Stack>
    </PageContainer>
  );
}
