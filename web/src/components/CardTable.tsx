import { Box, Table, Text } from '@chakra-ui/react';

/*
 * A table whose rows are cards below 768 px: every cell a line of its column's name and its value, the header row
 * hidden. As a table, a phone showed the first two columns and left the rest (an amount, a status, a product's HS
 * code) to a sideways swipe inside it. One DOM for both widths (the painted public lists and the tests read the same
 * rows); the roles are spelled out because a browser may drop a table's semantics once its rows are no longer
 * displayed as table rows.
 */

/** Props of `Table.Root`. */
export const cardTable = { role: 'table', display: { base: 'block', md: 'table' } } as const;
/** Props of `Table.Body`. */
export const cardBody = { role: 'rowgroup', display: { base: 'block', md: 'table-row-group' } } as const;
/** Props of every row of `Table.Body`. */
export const cardRow = {
  role: 'row',
  display: { base: 'block', md: 'table-row' },
  py: { base: '2', md: '0' },
  borderBottomWidth: { base: '1px', md: '0' },
  _last: { borderBottomWidth: '0' },
} as const;
/** Props of a `Table.Cell` that spans the columns (a list's "nothing to show"). */
export const cardWideCell = { role: 'cell', display: { base: 'block', md: 'table-cell' }, borderBottomWidth: '0' } as const;

export interface CardColumn {
  key: string;
  /** The column's name: its header from 768 px, the start of each of its cells' lines below. */
  label: React.ReactNode;
  width?: string;
  textAlign?: 'start' | 'center' | 'end';
}

/** The header row: hidden on a phone, where each cell names its column. */
export function CardHeader({ columns, bg }: { columns: readonly CardColumn[]; bg?: string }) {
  return (
    <Table.Header role="rowgroup" hideBelow="md">
      <Table.Row role="row" bg={bg}>
        {columns.map((c) => (
          <Table.ColumnHeader key={c.key} role="columnheader" width={c.width} textAlign={c.textAlign}>
            {c.label}
          </Table.ColumnHeader>
        ))}
      </Table.Row>
    </Table.Header>
  );
}

/**
 * A cell: on a phone its column's name, then its value beside it from a third of the line on (not at the line's end,
 * where the chat button floats); a nameless column (buttons) takes the whole line.
 */
export function CardCell({ label, textAlign, children }: { label: React.ReactNode; textAlign?: 'start' | 'center' | 'end'; children: React.ReactNode }) {
  return (
    <Table.Cell
      role="cell"
      textAlign={textAlign}
      display={{ base: 'grid', md: 'table-cell' }}
      gridTemplateColumns="minmax(6rem, 35%) 1fr"
      alignItems="baseline"
      columnGap="3"
      borderBottomWidth={{ base: '0', md: '1px' }}
      py={{ base: '1', md: undefined }}
    >
      {label !== '' && (
        // A table cell does not wrap its text: a long name ("بدون ضريبة القيمة المضافة") wraps inside its column
        // instead of running over the value beside it.
        <Text as="span" hideFrom="md" color="fg.muted" whiteSpace="normal" data-testid="cell-label">
          {label}
        </Text>
      )}
      <Box
        minW="0"
        gridColumn={label === '' ? '1 / -1' : undefined}
        textAlign={{ base: 'start', md: 'inherit' }}
        whiteSpace={{ base: 'normal', md: 'inherit' }}
        overflowWrap={{ base: 'anywhere', md: 'normal' }}
      >
        {children}
      </Box>
    </Table.Cell>
  );
}
