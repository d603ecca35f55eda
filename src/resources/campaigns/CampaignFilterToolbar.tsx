/** The Campaigns toolbar: the screen's heading, Show/Hide Filters and Clear Filters. */
import FilterListIcon from '@mui/icons-material/FilterList';
import FilterListOffIcon from '@mui/icons-material/FilterListOff';
import { Button } from '@mui/material';
import type { ReactNode } from 'react';
import { PageToolbar } from '../../layout/PageToolbar';
import { useFilterLabel } from './useFilterLabel';

export function CampaignFilterToolbar({
  heading,
  open,
  onToggle,
  canClear,
  onClear,
}: {
  heading?: ReactNode;
  /** The filters are shown. */
  open: boolean;
  onToggle: () => void;
  canClear: boolean;
  onClear: () => void;
}) {
  const label = useFilterLabel();
  return (
    <PageToolbar>
      {heading}
      <Button
        variant="outlined"
        startIcon={open ? <FilterListOffIcon /> : <FilterListIcon />}
        onClick={onToggle}
        aria-expanded={open}
        aria-controls="campaign-filters"
      >
        {label(open ? 'hide' : 'show')}
      </Button>
      <Button onClick={onClear} disabled={!canClear}>
        {label('clear')}
      </Button>
    </PageToolbar>
  );
}
