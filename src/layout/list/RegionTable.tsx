import { Table, TableContainer } from '@mui/material';
import type { ReactNode } from 'react';
import { tableToCardsSx } from './HistoryList';

/**
 * A small table that is a named region of its own: it scrolls inside its box (a keyboard reaches
 * it), keeps its heading in view, and turns into cards on a phone (tableToCardsSx).
 */
export function RegionTable({ label, maxHeight, children }: { label: string; maxHeight: number; children: ReactNode }) {
  return (
    <TableContainer
      sx={[tableToCardsSx, { maxHeight: { sm: maxHeight } }]}
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      <Table size="small" stickyHeader aria-label={label}>
        {children}
      </Table>
    </TableContainer>
  );
}
