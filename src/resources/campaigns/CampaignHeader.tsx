/**
 * The Campaigns table header: two rows, so Topic, Event Type, Event Date and Event Time sit under
 * one "Source Campaign Name" group (docs/screens.md). Pass as `<Datagrid header={CampaignHeader}>`; the
 * columns come from the Datagrid's children (their source, sortBy, label and sortable props).
 */
import { TableCell, TableHead, TableRow, TableSortLabel } from '@mui/material';
import { Children, isValidElement, type ReactNode } from 'react';
import { FieldTitle, useListContext, useTranslate } from 'react-admin';
import type { CellProps } from './CampaignFields';

/** Sort keys of the columns in the Source Campaign Name group. */
export const SOURCE_NAME_GROUP = ['topic', 'is_webinar', 'event_date', 'event_time'];

export function CampaignHeader({ children }: { children?: ReactNode }) {
  const translate = useTranslate();
  const { sort, setSort } = useListContext();
  const columns = Children.toArray(children)
    .filter(isValidElement<CellProps>)
    .map((child) => child.props);
  const keyOf = (c: CellProps) => c.sortBy ?? c.source ?? c.label ?? '';
  const inGroup = (c: CellProps) => SOURCE_NAME_GROUP.includes(keyOf(c));
  const firstGrouped = columns.findIndex(inGroup);

  const title = (column: CellProps) => {
    const key = keyOf(column);
    const text = <FieldTitle label={column.label} source={column.source} resource="campaigns" />;
    if (column.sortable === false) return text;
    const active = sort?.field === key;
    const direction = active && sort.order === 'DESC' ? 'desc' : 'asc';
    return (
      <TableSortLabel
        active={active}
        direction={direction}
        onClick={() => setSort({ field: key, order: active && sort.order === 'ASC' ? 'DESC' : 'ASC' })}
      >
        {text}
      </TableSortLabel>
    );
  };
  const sortDirection = (column: CellProps) =>
    sort?.field === keyOf(column) ? (sort.order === 'DESC' ? 'desc' : 'asc') : false;

  return (
    <TableHead>
      <TableRow>
        {columns.map((column, index) => {
          if (inGroup(column)) {
            return index === firstGrouped ? (
              <TableCell
                key="source-name-group"
                colSpan={columns.filter(inGroup).length}
                align="center"
                sx={{ borderBottom: 1, borderColor: 'divider' }}
              >
                {translate('campaigns.group.source_campaign_name')}
              </TableCell>
            ) : null;
          }
          return (
            <TableCell
              key={keyOf(column)}
              className={`column-${keyOf(column)}`}
              rowSpan={2}
              sortDirection={sortDirection(column)}
            >
              {title(column)}
            </TableCell>
          );
        })}
      </TableRow>
      <TableRow>
        {columns.filter(inGroup).map((column) => (
          <TableCell key={keyOf(column)} sortDirection={sortDirection(column)}>
            {title(column)}
          </TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}
