import { useTranslation } from 'react-i18next';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';
import { DataTable, usePaging, type Column } from '../../components/DataTable';
import { PublicPage } from '../../components/public/PublicPage';
import { useLocalized } from '../../components/public/localized';

type Customer = ApiResponse<'/api/public/customers'>['items'][number];

/** Our customers: the facilities that hold a valid Halal certificate. */
export function OurCustomersPage() {
  const { t } = useTranslation('public');
  const l = useLocalized();
  const { page, pageSize, paging } = usePaging();
  const { data, isFetching: loading } = useApi(apiQuery('/api/public/customers', { params: { query: { pageNumber: page, pageSize } } }));
  const columns: Column<Customer>[] = [
    { key: 'name', header: t('customers.name'), render: (c) => l(c.nameAr, c.nameEn) },
    { key: 'type', header: t('customers.type'), render: (c) => t(`customers.types.${c.type}`, { defaultValue: c.type }) },
    { key: 'country', header: t('customers.country'), render: (c) => l(c.countryNameAr, c.countryNameEn) },
    { key: 'city', header: t('customers.city'), render: (c) => c.city ?? '' },
  ];
  return (
    <PublicPage pageKey="our-customers" fallbackTitle={t('nav.ourCustomers')}>
      <DataTable
        caption={t('nav.ourCustomers')}
        columns={columns}
        rows={data?.items ?? []}
        rowKey={(c) => c.publicId}
        loading={loading && !data}
        paging={paging(data?.totalCount ?? 0)}
      />
    </PublicPage>
  );
}
