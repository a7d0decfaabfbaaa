import { useId } from 'react';
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
import { STAFF_HOME } from '../../session';

export const StaffCbPage = () => <StaffFacility kind="cb" id={useRouteParams('halal-profile/cb/$id').id} />;
export const StaffFacilityPage = () => <StaffFacility kind="facility" id={useRouteParams('halal-profile/facility/$id').id} />;

/**
 * halal-profile/cb/{id} and halal-profile/facility/{id}: Halal-center staff read any CB or facility
 * (/api/HalalCenter/ConformityBody/get, /api/HalalCenter/Facility/get) with its users and qualifying certificate.
 */
function StaffFacility({ kind, id }: { kind: 'cb' | 'facility'; id: string }) {
  const { t, i18n } = useTranslation(['facilities', 'shell']);
  const usersHeading = useId();
  // Both calls answer the same staff view (server/modules/facilities: HalalCenter routes).
  const path = kind === 'cb' ? '/api/HalalCenter/ConformityBody/get/{id}' : '/api/HalalCenter/Facility/get/{id}';
  const view = useApi(apiQuery(path as '/api/HalalCenter/Facility/get/{id}', { params: { path: { id } } }));
  const f = view.data;
  if (!f) return <PageContainer>{null}</PageContainer>;
  const name = nameIn(f, i18n.language);
  const columns: Column<Member>[] = [
    { key: 'name', header: t('fields.userName'), render: (u) => u.name },
    { key: 'role', header: t('fields.role'), render: (u) => <RoleLabel role={u.role} isYou={false} /> },
    { key: 'email', header: t('fields.email'), render: (u) => <span dir="ltr">{u.email}</span> },
    { key: 'delegatedBy', header: t('fields.delegatedBy'), render: (u) => u.delegatedBy ?? t('profile.applicant') },
  ];
  return (
    <PageContainer>
      <PageHeader
        title={name}
        // Staff have no list of CBs or facilities: they come from a request's "Facility profile" link, so the trail
        // leads to their home (the request queues), named as the request page's own trail names it.
        breadcrumbs={[{ label: t('shell:menu.home'), to: STAFF_HOME }, { label: name }]}
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
        {/*
          The users list is named by a visible heading at every width: below 768 px its rows are cards without the
          column headers, and the table's hidden caption told a sighted phone user nothing about what the cards are.
          The section takes the heading as its name, the table keeps its caption for screen readers.
        */}
        <Stack as="section" gap="2" aria-labelledby={usersHeading}>
          <Heading as="h2" size="md" id={usersHeading} data-testid="users-heading">
            {t('profile.tabs.users')}
          </Heading>
          <DataTable caption={t('profile.tabs.users')} columns={columns} rows={f.users} rowKey={(u) => u.userId} />
        </Stack>
      </Stack>
    </PageContainer>
  );
}
