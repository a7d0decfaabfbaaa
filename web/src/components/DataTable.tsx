import { useState } from 'react';
import { Box, Flex, HStack, IconButton, NativeSelect, Skeleton, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { CardCell, CardHeader, cardBody, cardRow, cardTable, cardWideCell } from './CardTable';
import { ChevronEndIcon, ChevronStartIcon, ChevronsEndIcon, ChevronsStartIcon } from './icons';

export interface Column<T> {
  key: string;
  header: React.ReactNode;
  /** Cell content; defaults to `row[key]` as text. */
  render?: (row: T) => React.ReactNode;
  width?: string;
  align?: 'start' | 'center' | 'end';
}

/** Paging of spec 01 section 3 (pageNumber, pageSize, first and last page); `page` counts from 1. */
export interface Paging {
  page: number;
  pageSize: number;
  total: number;
  /** The list has more rows than `total`: the server counted only so far ahead (the request lists count 1,000 rows). */
  totalCapped?: boolean;
  onPageChange: (page: number) => void;
  onPageSizeChange?: (pageSize: number) => void;
  pageSizes?: number[];
}

export interface DataTableProps<T> {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** Shows skeleton rows instead of the data. */
  loading?: boolean;
  /** Text when there are no rows (default: "No records to show"). */
  emptyText?: string;
  paging?: Paging;
  /** Accessible name of the table. */
  caption?: string;
  onRowClick?: (row: T) => void;
}

/** Page state of a paged list (page counts from 1); changing the page size goes back to the first page. */
export function usePaging(initialPageSize = 10) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(initialPageSize);
  /** The DataTable `paging` prop for a list of `total` rows. */
  const paging = (total: number): Paging => ({
    page,
    pageSize,
    total,
    onPageChange: setPage,
    onPageSizeChange: (size) => {
      setPageSize(size);
      setPage(1);
    },
  });
  return { page, pageSize, setPage, paging };
}

export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / Math.max(1, pageSize)));

/** The pager's two texts; a capped total reads "more than N", and its last page is the last one counted so far. */
export function pagerTexts(t: TFunction, { page, pageSize, total, totalCapped }: Pick<Paging, 'page' | 'pageSize' | 'total' | 'totalCapped'>) {
  const pages = pageCount(total, pageSize);
  return totalCapped
    ? { total: t('common:paging.moreThan', { count: total }), pageOf: t('common:paging.pageOfAtLeast', { page, pages }) }
    : { total: t('common:paging.total', { count: total }), pageOf: t('common:paging.pageOf', { page, pages }) };
}

/** A list with columns and first / previous / next / last paging, the way every portal list looks. */
export function DataTable<T>({ columns, rows, rowKey, loading, emptyText, paging, caption, onRowClick }: DataTableProps<T>) {
  const { t } = useTranslation('common');
  const alignOf = (a?: Column<T>['align']) => (a === 'center' ? 'center' : a === 'end' ? 'end' : 'start');
  const cell = (c: Column<T>, content: React.ReactNode) => (
    <CardCell key={c.key} label={c.header} textAlign={alignOf(c.align)}>
      {content}
    </CardCell>
  );
  return (
    <Box borderWidth="1px" borderRadius="md" bg="bg" overflow="hidden" data-testid="data-table">
      <Table.ScrollArea>
        <Table.Root size="sm" interactive={!!onRowClick} stickyHeader {...cardTable}>
          {caption && <Table.Caption srOnly>{caption}</Table.Caption>}
          <CardHeader bg="bg.muted" columns={columns.map((c) => ({ key: c.key, label: c.header, width: c.width, textAlign: alignOf(c.align) }))} />
          <Table.Body {...cardBody}>
            {loading &&
              Array.from({ length: Math.min(paging?.pageSize ?? 5, 10) }, (_, i) => (
                <Table.Row key={`loading-${i}`} {...cardRow}>
                  {columns.map((c) => cell(c, <Skeleton height="4" minW="16" />))}
                </Table.Row>
              ))}
            {!loading && rows.length === 0 && (
              <Table.Row {...cardRow}>
                <Table.Cell {...cardWideCell} colSpan={columns.length} textAlign="center" py="8" color="fg.muted">
                  {emptyText ?? t('table.empty')}
                </Table.Cell>
              </Table.Row>
            )}
            {!loading &&
              rows.map((row) => (
                <Table.Row key={rowKey(row)} {...cardRow} onClick={onRowClick ? () => onRowClick(row) : undefined} cursor={onRowClick ? 'pointer' : undefined}>
                  {columns.map((c) => cell(c, c.render ? c.render(row) : String((row as Record<string, unknown>)[c.key] ?? '')))}
                </Table.Row>
              ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      {paging && <Pager paging={paging} />}
    </Box>
  );
}

function Pager({ paging }: { paging: Paging }) {
  const { t } = useTranslation('common');
  const { page, pageSize, total, onPageChange, onPageSizeChange, pageSizes = [10, 25, 50] } = paging;
  const pages = pageCount(total, pageSize);
  const texts = pagerTexts(t, paging);
  const atFirst = page <= 1;
  const atLast = page >= pages;
  return (
    <Flex px="3" py="2" borderTopWidth="1px" align="center" justify="space-between" gap="3" wrap="wrap" data-testid="pager">
      <Text fontSize="sm" color="fg.muted">
        {texts.total}
      </Text>
      <HStack gap="1">
        <IconButton size="xs" variant="ghost" aria-label={t('paging.first')} disabled={atFirst} onClick={() => onPageChange(1)}>
          <ChevronsStartIcon className="flip-rtl" />
        </IconButton>
        <IconButton size="xs" variant="ghost" aria-label={t('paging.previous')} disabled={atFirst} onClick={() => onPageChange(page - 1)}>
          <ChevronStartIcon className="flip-rtl" />
        </IconButton>
        <Text fontSize="sm" px="2" aria-live="polite">
          {texts.pageOf}
        </Text>
        <IconButton size="xs" variant="ghost" aria-label={t('paging.next')} disabled={atLast} onClick={() => onPageChange(page + 1)}>
          <ChevronEndIcon className="flip-rtl" />
        </IconButton>
        <IconButton size="xs" variant="ghost" aria-label={t('paging.last')} disabled={atLast} onClick={() => onPageChange(pages)}>
          <ChevronsEndIcon className="flip-rtl" />
        </IconButton>
      </HStack>
      {onPageSizeChange && (
        <NativeSelect.Root size="xs" width="auto">
          <NativeSelect.Field aria-label={t('paging.pageSize')} value={pageSize} onChange={(e) => onPageSizeChange(Number(e.target.value))}>
            {pageSizes.map((s) => (
              <option key={s} value={s}>
                {t('paging.perPage', { count: s })}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      )}
    </Flex>
  );
}
