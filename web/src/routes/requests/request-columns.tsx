import { Badge, Link as ChakraLink } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { Ltr } from '../../components/Bidi';
import type { Column } from '../../components/DataTable';
import { formatDate } from '../../lib/dates';

/** What a request list row needs for the shared columns; the queue and the CB certificate's tabs both have it. */
export interface RequestColumnRow {
  id: string;
  number: string;
  status: { label: string };
  updatedAt: string;
}

/**
 * The columns every request list shows the same way: the number (a link to the request page), the status and the
 * last change in the reader's language. Keyed, so each table places them among its own columns.
 */
export function requestColumns(t: TFunction, lang: string): Record<'number' | 'status' | 'updated', Column<RequestColumnRow>> {
  return {
    number: {
      key: 'number',
      header: t('requests:list.number'),
      render: (r) => (
        <ChakraLink asChild colorPalette="brand" fontWeight="semibold">
          <Link to="/requests/$requestId" params={{ requestId: r.id }} data-testid="request-link">
            <Ltr>{r.number}</Ltr>
          </Link>
        </ChakraLink>
      ),
    },
    status: { key: 'status', header: t('requests:list.status'), render: (r) => <Badge data-testid="row-status">{r.status.label}</Badge> },
    updated: { key: 'updated', header: t('requests:list.updated'), render: (r) => formatDate(r.updatedAt, lang) },
  };
}
