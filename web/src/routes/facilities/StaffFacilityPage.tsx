import { Badge, Card, DataList, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { useRouteParams } from '../../route-params';
import { FactsList } from '../../components/FactsList';
import { DataTable, type Column } from '../../components/DataTable';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import type { Member } from './facilities-api';
import { certificateHeadingKey, CrStatusBadge, nameIn, RoleLabel } from './labels';
import { countryName } from '../../lib/countries';
import { formatDate } from '../../lib/dates';

export const StaffCbPage = () => <StaffFacility kind="cb" id={useRouteParams('halal-profile/cb/$id').id} />;
export const StaffFacilityPage = () => <StaffFacility kind="facility" id={useRouteParams('halal-profile/facility/$id').id} />;

/**
 * halal-profile/cb/{id} and halal-profile/facility/{id}: Halal-center staff read any CB or facility
 * (/api/HalalCenter/ConformityBody/get, /api/HalalCenter/Facility/get) with its users and qualifying certificate.
 */
function StaffFacility({ kind, id }: { kind: 'cb' | 'facility'; id: string }) {
  const { t, i18n } = useTranslation('facilities');
  // Both calls answer the same staff view (server/modules/facilities: HalalCenter routes).
  const path = kind === 'cb' ? '/api/HalalCenter/ConformityBody/get/{id}' : '/api/HalalCenter/Facility/get/{id}';
  const view = useApi(apiQuery(path as '/api/HalalCenter/Facility/get/{id}', { params: { path: { id } } }));
  const f = view.data;
  if (!f) return <PageContainer>{null}</PageContainer>;
  const columns: Column<Member>[] = [
    { key: 'name', header: t('fields.userName'), render: (u) => u.name },
    { key: 'role', header: t('fields.role'), render: (u) => <RoleLabel role={u.role} isYou={false} /> },
    { key: 'email', header: t('fields.email'), render: (u) => <span dir="ltr">{u.email}</span> },
    { key: 'delegatedBy', header: t('fields.delegatedBy'), render: (u) => u.delegatedBy ?? t('profile.applicant') },
  ];
  return (
    <PageContainer>
      <PageHeader
        title={nameIn(f, i18n.language)}
        description={
          <Flex gap="2" mt="2" wrap="wrap">
            <Badge variant="outline">{t(`facilityType.${f.facilityType}`)}</Badge>
            <CrStatusBadge status={f.crStatus} />
          </Flex>
        }
      />
      <Stack gap="6">
        <Card.Root>
          <Card.Body>
            <FactsList data-testid="facility-data">
              <DataList.Item>
                <DataList.ItemLabel>{t('fields.registrationNumber')}</DataList.ItemLabel>
                <DataList.ItemValue dir="ltr">{f.registrationNumber}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>{t('fields.country')}</DataList.ItemLabel>
                <DataList.ItemValue data-testid="facility-country">{countryName(f.countryCode, i18n.language)}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>{t('fields.city')}</DataList.ItemLabel>
                <DataList.ItemValue>{f.city}</DataList.ItemValue>
              </DataList.Item>
              {f.acceptanceNumber && (
                <DataList.Item>
                  <DataList.ItemLabel>{t('fields.acceptanceNumber')}</DataList.ItemLabel>
                  <DataList.ItemValue dir="ltr">{f.acceptanceNumber}</DataList.ItemValue>
                </DataList.Item>
              )}
              {f.certificateExpiryDate && (
                <DataList.Item>
                  <DataList.ItemLabel>{t('fields.certificateExpiryDate')}</DataList.ItemLabel>
                  <DataList.ItemValue data-testid="certificate-expiry-date">{formatDate(f.certificateExpiryDate, i18n.language)}</DataList.ItemValue>
                </DataList.Item>
              )}
              {kind === 'cb' && (
                <DataList.Item>
                  <DataList.ItemLabel>{t('fields.iban')}</DataList.ItemLabel>
                  <DataList.ItemValue>{t(`ibanStatus.${f.ibanStatus}`)}</DataList.ItemValue>
                </DataList.Item>
              )}
            </FactsList>
          </Card.Body>
        </Card.Root>
        {f.certificate && (
          <Card.Root>
            <Card.Body>
              <Heading as="h2" size="md" mb="2">
                {t(certificateHeadingKey(f.certificate.kind))}
              </Heading>
              {/* On a phone the row wraps rather than breaking the number at its hyphens ("HC-CB-" / "000012"). */}
              <Flex gap="3" align="center" wrap="wrap">
                <Text dir="ltr" whiteSpace="nowrap" data-testid="certificate-number">
                  {f.certificate.number}
                </Text>
                <Badge colorPalette={f.certificate.usable ? 'green' : 'red'}>{t(f.certificate.usable ? 'profile.certificateUsable' : 'profile.certificateBlocked')}</Badge>
                <Text color="fg.muted">{t('profile.expiresOn', { date: formatDate(f.certificate.expiresAt, i18n.language) })}</Text>
              </Flex>
            </Card.Body>
          </Card.Root>
        )}
        <DataTable caption={t('profile.tabs.users')} columns={columns} rows={f.users} rowKey={(u) => u.userId} />
      </Stack>
    </PageContainer>
  );
}
