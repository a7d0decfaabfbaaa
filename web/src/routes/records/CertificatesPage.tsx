import { useState } from 'react';
import { Badge, Field, Input, Link as ChakraLink, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { CERTIFICATE_STATUS_FILTERS, MARK_STATUS_FILTERS } from '../../../../machines/forms/records';
import { apiQuery, useApi, type ApiResponse, type GetInit } from '../../api/query';
import { Ltr } from '../../components/Bidi';
import { DataTable, type Column } from '../../components/DataTable';
import { ListSearch } from '../../components/ListSearch';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { useSession } from '../../session';
import { useUrlFilters } from './url-filters';
import { statusPalette } from './status-palette';
import { listSeparator } from '../../i18n';
import { formatDate } from '../../lib/dates';

const FILTERS = ['number', 'product', 'brand', 'status'] as const;
/** The fields besides the number box (ListSearch keeps that one's draft). */
type Draft = Record<'product' | 'brand' | 'status', string>;
const NO_DRAFT: Draft = { product: '', brand: '', status: '' };
const PAGE_SIZE = 10;

type CertificateSummaryJson = ApiResponse<'/api/certificates'>['items'][number];
type CertificatesQuery = NonNullable<NonNullable<GetInit<'/api/certificates'>['params']>['query']>;


/** halal-marks: the same list for the facility's issued Halal marks (staff: every mark), searched by number, product, status. */
export function HalalMarksPage() {
  return <CertificatesPage marks />;
}

/**
 * certificates: the certificates of the user's facilities (as holder, or as the issuing CB); Halal-center staff see
 * every facility's. Search by number (or the old system's number), product, brand and status; the filters live in
 * the URL. Each number opens the certificate page. With `marks`, the Halal marks (kind=halalMark) instead: each row
 * names the mark's product, and the page it opens offers the mark package, its history and cancellation.
 */
export function CertificatesPage({ marks = false }: { marks?: boolean }) {
  const { t, i18n } = useTranslation(['records', 'payments', 'shell']);
  const session = useSession();
  const { values, page, set } = useUrlFilters(FILTERS);
  const [draft, setDraft] = useState<Draft>({ product: values.product, brand: values.brand, status: values.status });
  const ar = i18n.language === 'ar';
  const texts = marks ? 'records:marks' : 'records:certificates';
  const query = {
    ...Object.fromEntries(FILTERS.filter((k) => values[k]).map((k) => [k, values[k]])),
    ...(marks ? { kind: 'halalMark' } : {}),
    pageNumber: page,
    pageSize: PAGE_SIZE,
  };
  // The status filter holds one of the listed statuses (the URL may say otherwise: the server answers 400 as before).
  const list = useApi(apiQuery('/api/certificates', { params: { query: query as CertificatesQuery } }));
  const all: Column<CertificateSummaryJson>[] = [
    {
      key: 'number',
      header: t(marks ? 'records:marks.number' : 'records:certificates.number'),
      render: (c) => (
        <Stack gap="0">
          <ChakraLink asChild colorPalette="brand" fontWeight="semibold">
            <Link to="/certificates/$certificateId" params={{ certificateId: c.id }} data-testid="certificate-row-link">
              <Ltr>{c.number}</Ltr>
            </Link>
          </ChakraLink>
          {c.legacyNumber && (
            <Text fontSize="xs" color="fg.muted">
              {t('records:certificates.legacy', { number: '' })}
              <Ltr>{c.legacyNumber}</Ltr>
            </Text>
          )}
        </Stack>
      ),
    },
    ...(marks
      ? [{ key: 'product', header: t('records:certificates.product'), render: (c: CertificateSummaryJson) => (c.product ? (ar ? c.product.nameAr : c.product.nameEn) : '—') }]
      : [{ key: 'kind', header: t('records:certificates.kind'), render: (c: CertificateSummaryJson) => c.kindLabel }]),
    { key: 'holder', header: t('records:certificates.holder'), render: (c) => (ar ? c.holder.nameAr : c.holder.nameEn) },
    {
      key: 'products',
      header: t('records:certificates.products'),
      render: (c) => (
        <Text as="span">
          <Ltr>{c.productCount}</Ltr>
          {c.brands.length > 0 && ` — ${c.brands.map((b) => (ar ? b.ar : b.en)).join(listSeparator())}`}
        </Text>
      ),
    },
    { key: 'expires', header: t('records:certificates.expiresAt'), render: (c) => formatDate(c.expiresAt, i18n.language) },
    {
      key: 'status',
      header: t('records:certificates.status'),
      render: (c) => (
        <Badge colorPalette={statusPalette(c.status.public)} data-testid="certificate-row-status">
          {c.status.label}
        </Badge>
      ),
    },
  ];
  const columns = all.filter((c) => !(marks && c.key === 'products'));
  return (
    <PageContainer>
      <PageHeader
        title={t(`${texts}.title`)}
        description={t(session?.isStaff ? `${texts}.staffDescription` : `${texts}.description`)}
        breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: t(`${texts}.title`) }]}
      />
      <Stack gap="4">
        <ListSearch
          filters={{ values, set }}
          param="number"
          also={() => ({ product: draft.product.trim(), brand: draft.brand.trim(), status: draft.status })}
          onClear={() => setDraft(NO_DRAFT)}
          label={t(marks ? 'records:marks.number' : 'records:certificates.number')}
          testId="filter-number"
        >
          {(marks ? (['product'] as const) : (['product', 'brand'] as const)).map((k) => (
            <Field.Root key={k} flex="1" minW="44">
              <Field.Label>{t(`records:certificates.${k}`)}</Field.Label>
              <Input value={draft[k]} onChange={(e) => setDraft({ ...draft, [k]: e.target.value })} data-testid={`filter-${k}`} />
            </Field.Root>
          ))}
          <Field.Root minW="40" w="auto">
            <Field.Label>{t('records:certificates.status')}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })} data-testid="filter-status">
                <option value="">{t('records:certificates.anyStatus')}</option>
                {(marks ? MARK_STATUS_FILTERS : CERTIFICATE_STATUS_FILTERS).map((s) => (
                  <option key={s} value={s}>
                    {t(`payments:certificate.status.${s}`)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </ListSearch>
        <DataTable
          caption={t(`${texts}.title`)}
          columns={columns}
          rows={list.data?.items ?? []}
          rowKey={(c) => c.id}
          loading={list.isFetching && !list.data}
          emptyText={t(`${texts}.empty`)}
          paging={{ page, pageSize: PAGE_SIZE, total: list.data?.totalCount ?? 0, onPageChange: (p) => set({ page: p }) }}
        />
      </Stack>
    </PageContainer>
  );
}
