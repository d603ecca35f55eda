/** A Datagrid header whose columns sort together (see multiSort.ts); pass as `<Datagrid header={MultiSortHeader}>`. */
import { TableCell, TableHead, TableRow, TableSortLabel } from '@mui/material';
import { Children, isValidElement, type ReactNode } from 'react';
import { FieldTitle, useListContext, useResourceContext } from 'react-admin';
import { formatSort, parseSort, toggleSort } from './multiSort';

interface FieldProps {
  source?: string;
  sortBy?: string;
  label?: string;
  sortable?: boolean;
}

export function MultiSortHeader({ children }: { children?: ReactNode }) {
  const { sort, setSort } = useListContext();
  const resource = useResourceContext();
  const terms = parseSort(sort);

  return (
    <TableHead>
      <TableRow>
        {Children.map(children, (field) => {
          if (!isValidElement<FieldProps>(field)) return null;
          const { source, sortBy, label, sortable = true } = field.props;
          const title = <FieldTitle label={label} source={source} resource={resource} />;
          const key = sortBy ?? source;
          if (!sortable || !key)
            return (
              <TableCell key={key ?? String(label)} sx={{ whiteSpace: 'nowrap' }}>
                {title}
              </TableCell>
            );
          const position = terms.findIndex((t) => t.field === key);
          const term = terms[position];
          return (
            <TableCell
              key={key}
              sortDirection={term ? (term.order === 'ASC' ? 'asc' : 'desc') : false}
              sx={{ whiteSpace: 'nowrap' }}
            >
              <TableSortLabel
                active={Boolean(term)}
                direction={term?.order === 'DESC' ? 'desc' : 'asc'}
                onClick={() => setSort(formatSort(toggleSort(terms, key)))}
              >
                {title}
                {term && terms.length > 1 ? <sup aria-hidden="true">{position + 1}</sup> : null}
              </TableSortLabel>
            </TableCell>
          );
        })}
      </TableRow>
    </TableHead>
  );
}
