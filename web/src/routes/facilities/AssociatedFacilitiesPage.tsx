import { useState } from 'react';
import { Box, Button, Flex, HStack, Input, NativeSelect } from '@chakra-ui/react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { DataTable, usePaging, type Column } from '../../components/DataTable';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { useCan } from '../../session/use-session';
import { facilityProfilePath, selectFacility, type FacilityType } from '../../session/selected-facility';
import { Permissions as P } from '../../../../machines/permissions';
import type { FacilityListItem } from './facilities-api';
import { CrStatusBadge, nameIn, RoleLabel } from './labels';
import { countryName } from '../../lib/countries';

const SEARCH_BY = ['0', '1', '2', '3', '4'] as const;
const TYPES: FacilityType[] = ['InternalFacility', 'ExternalFacility', 'ConformityBody'];

/**
 * associated-facilities: the signed-in user's facilities and CBs (spec 01 sections 2 and 3). Search by any, name,
 * CR number, city or country; filter by type; page with first and last page. Choosing one stores it as the
 * selected facility (type, id, public id) and opens its control panel (its profile).
 */
export function AssociatedFacilitiesPage() {
  const { t, i18n } = useTranslation('facilities');
  const navigate = useNavigate();
  const [draft, setDraft] = useState({ searchText: '', searchBy: '0', facilityType: '' });
  const [query, setQuery] = useState(draft);
  const { page, pageSize, setPage, paging } = usePaging();
  const list = useApi(
    apiQuery('/api/Facility/GetUserFacilities', {
      params: {
        query: {
          pageNumber: page,
          pageSize,
          searchText: query.searchText || undefined,
          searchBy: Number(query.searchBy),
          facilityType: (query.facilityType || undefined) as FacilityType | undefined,
        },
      },
    }),
  );
  const canAddInternal = useCan(P.facility.internalCreate);
  const canAddExternal = useCan(P.facility.externalCreate);
  const canAddCb = useCan(P.facility.conformityBodyCreate);

  const open = (f: FacilityListItem) => {
    const selected = { facilityType: f.facilityType, id: f.id, publicId: f.publicId };
    selectFacility(selected);
    void navigate({ to: facilityProfilePath(selected) });
  };

  const columns: Column<FacilityListItem>[] = [
    { key: 'name', header: t('fields.name'), render: (f) => nameIn(f, i18n.language) },
    { key: 'type', header: t('fields.facilityType'), render: (f) => t(`facilityType.${f.facilityType}`) },
    { key: 'registrationNumber', header: t('fields.registrationNumber'), render: (f) => <span dir="ltr">{f.registrationNumber}</span> },
    { key: 'city', header: t('fields.city'), render: (f) => f.city ?? '' },
    { key: 'country', header: t('fields.country'), render: (f) => countryName(f.countryCode, i18n.language) },
    { key: 'status', header: t('fields.crStatus'), render: (f) => <CrStatusBadge status={f.crStatus} /> },
    { key: 'role', header: t('fields.yourRole'), render: (f) => <RoleLabel role={f.currentUserRole} isYou /> },
    {
      key: 'open',
      header: '',
      align: 'end',
      render: (f) => (
        <Button size="xs" colorPalette="brand" onClick={() => open(f)} data-testid={`open-${f.publicId}`}>
          {t('associated.open')}
        </Button>
      ),
    },
  ];

  return (
    <PageContainer>
      <PageHeader
        title={t('associated.title')}
        description={t('associated.description')}
        actions={
          <>
            {canAddInternal && (
              <Button asChild colorPalette="brand" data-testid="add-internal">
                <Link to="/add-facility/internal">{t('associated.addInternal')}</Link>
              </Button>
            )}
            {canAddExternal && (
              <Button asChild variant="outline">
                <Link to="/add-facility/external">{t('associated.addExternal')}</Link>
              </Button>
            )}
            {canAddCb && (
              <Button asChild variant="outline">
                <Link to="/add-facility/conformity-body">{t('associated.addCb')}</Link>
              </Button>
            )}
          </>
        }
      />
      <Box
        as="form"
        mb="4"
        onSubmit={(e: React.FormEvent) => {
          e.preventDefault();
          setPage(1);
          setQuery(draft);
        }}
      >
        <Flex gap="3" wrap="wrap" align="flex-end">
          <NativeSelect.Root width={{ base: 'full', md: '48' }}>
            <NativeSelect.Field aria-label={t('associated.searchBy')} value={draft.searchBy} onChange={(e) => setDraft({ ...draft, searchBy: e.target.value })}>
              {SEARCH_BY.map((v) => (
                <option key={v} value={v}>
                  {t(`searchBy.${v}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Input
            flex="1"
            minW="48"
            aria-label={t('associated.searchText')}
            placeholder={t('associated.searchText')}
            value={draft.searchText}
            onChange={(e) => setDraft({ ...draft, searchText: e.target.value })}
          />
          <NativeSelect.Root width={{ base: 'full', md: '56' }}>
            <NativeSelect.Field aria-label={t('fields.facilityType')} value={draft.facilityType} onChange={(e) => setDraft({ ...draft, facilityType: e.target.value })}>
              <option value="">{t('associated.allTypes')}</option>
              {TYPES.map((v) => (
                <option key={v} value={v}>
                  {t(`facilityType.${v}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <HStack>
            <Button type="submit" colorPalette="brand" variant="solid">
              {t('common:actions.search')}
            </Button>
          </HStack>
        </Flex>
      </Box>
      <DataTable
        caption={t('associated.title')}
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(f) => f.publicId}
        loading={list.isFetching && !list.data}
        emptyText={t('associated.empty')}
        paging={paging(list.data?.totalCount ?? 0)}
      />
    </PageContainer>
  );
}
