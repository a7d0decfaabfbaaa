import { useEffect, useId, useState } from 'react';
import { Badge, Field, Link as ChakraLink, NativeSelect, Stack, Text, Wrap } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';
import { DataTable, usePaging, type Column } from '../../components/DataTable';
import { ListSearch } from '../../components/ListSearch';
import { CertificateStatusBadge } from '../../components/public/CertificateStatusBadge';
import { PublicPage } from '../../components/public/PublicPage';
import { useHijriFormatter, useLocalized } from '../../components/public/localized';
import { formatDate } from '../../lib/dates';

type AccreditedCb = ApiResponse<'/api/public/conformity-bodies'>['items'][number];
type PublicStatus = AccreditedCb['certificate']['status'];

const STATUSES: PublicStatus[] = ['active', 'expiringSoon', 'expired', 'suspended'];

/** Accredited conformity bodies (spec 02: CB list, search by name, country and category) with certificate status. */
export function AccreditedCbPage() {
  const { t, i18n } = useTranslation('public');
  const l = useLocalized();
  const hijri = useHijriFormatter();
  const ids = { country: useId(), category: useId(), status: useId() };
  const [name, setName] = useState('');
  const [debouncedName, setDebouncedName] = useState('');
  const [country, setCountry] = useState('');
  const [category, setCategory] = useState('');
  const [status, setStatus] = useState('');
  const { page, pageSize, setPage, paging } = usePaging();
  useEffect(() => {
    const timer = setTimeout(() => setDebouncedName(name.trim()), 300);
    return () => clearTimeout(timer);
  }, [name]);
  useEffect(() => {
    setPage(1);
  }, [debouncedName, country, category, status]);

  const { data: filters } = useApi(apiQuery('/api/public/conformity-bodies/filters'));
  const { data, isFetching: loading } = useApi(
    apiQuery('/api/public/conformity-bodies', {
      params: {
        query: { name: debouncedName || undefined, country: country || undefined, category: category || undefined, status: (status || undefined) as PublicStatus | undefined, pageNumber: page, pageSize },
      },
    }),
  );

  const columns: Column<AccreditedCb>[] = [
    {
      key: 'name',
      header: t('cb.name'),
      render: (c) => (
        <Stack gap="0">
          <Text fontWeight="semibold">{l(c.nameAr, c.nameEn)}</Text>
          {c.city && (
            <Text fontSize="xs" color="fg.muted">
              {c.city}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'country', header: t('cb.country'), render: (c) => l(c.countryNameAr, c.countryNameEn) },
    {
      key: 'categories',
      header: t('cb.categories'),
      render: (c) => (
        <Wrap gap="1">
          {c.certificate.categories.map((k) => (
            <Badge key={k} variant="subtle" title={t(`cbCategory.${k}`, { defaultValue: k })}>
              {k}
            </Badge>
          ))}
        </Wrap>
      ),
    },
    {
      key: 'certificate',
      header: t('cb.certificate'),
      render: (c) => (
        <ChakraLink asChild color="brand.fg" fontFamily="mono" dir="ltr">
          <Link to="/verify/$code" params={{ code: c.certificate.verificationCode }} aria-label={t('cb.verify', { number: c.certificate.number })}>
            {c.certificate.number}
          </Link>
        </ChakraLink>
      ),
    },
    { key: 'status', header: t('cb.status'), render: (c) => <CertificateStatusBadge status={c.certificate.status} size="sm" /> },
    {
      key: 'validUntil',
      header: t('cb.validUntil'),
      render: (c) => (
        <Stack gap="0" fontSize="sm">
          <time dateTime={c.certificate.expiresAt.gregorian}>{formatDate(c.certificate.expiresAt.gregorian, i18n.language, 'long')}</time>
          <Text color="fg.muted">{hijri(c.certificate.expiresAt)}</Text>
        </Stack>
      ),
    },
  ];

  return (
    <PublicPage pageKey="accredited-cb" fallbackTitle={t('nav.accreditedCb')}>
      <Stack gap="4">
        <ListSearch
          value={name}
          onValueChange={setName}
          name={t('nav.accreditedCb')}
          label={t('cb.name')}
          placeholder={t('cb.namePlaceholder')}
          testId="cb-name"
          inputProps={{ type: 'search', maxLength: 100, bg: 'bg' }}
          gap="4"
        >
          <Field.Root flex="1" minW="44">
            <Field.Label htmlFor={ids.country}>{t('cb.country')}</Field.Label>
            <NativeSelect.Root bg="bg">
              <NativeSelect.Field id={ids.country} value={country} onChange={(e) => setCountry(e.target.value)} data-testid="cb-country">
                <option value="">{t('cb.all')}</option>
                {(filters?.countries ?? []).map((c) => (
                  <option key={c.code} value={c.code}>
                    {l(c.countryNameAr, c.countryNameEn)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root flex="1" minW="44">
            <Field.Label htmlFor={ids.category}>{t('cb.category')}</Field.Label>
            <NativeSelect.Root bg="bg">
              <NativeSelect.Field id={ids.category} value={category} onChange={(e) => setCategory(e.target.value)} data-testid="cb-category">
                <option value="">{t('cb.all')}</option>
                {(filters?.categories ?? []).map((k) => (
                  <option key={k} value={k}>
                    {t(`cbCategory.${k}`, { defaultValue: k })}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root flex="1" minW="44">
            <Field.Label htmlFor={ids.status}>{t('cb.status')}</Field.Label>
            <NativeSelect.Root bg="bg">
              <NativeSelect.Field id={ids.status} value={status} onChange={(e) => setStatus(e.target.value)} data-testid="cb-status">
                <option value="">{t('cb.all')}</option>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {t(`status.${s}`)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </ListSearch>
        <Text fontWeight="semibold" aria-live="polite" data-testid="cb-count" data-count={data?.totalCount ?? ''}>
          {data ? t('cb.count', { count: data.totalCount }) : '\u00a0'}
        </Text>
        <DataTable
          caption={t('nav.accreditedCb')}
          columns={columns}
          rows={data?.items ?? []}
          rowKey={(c) => c.publicId}
          loading={loading && !data}
          paging={paging(data?.totalCount ?? 0)}
        />
      </Stack>
    </PublicPage>
  );
}
