/**
 * The collapsible filter panel of the Campaigns screen (docs/screens.md): Show/Hide Filters, Clear Filters,
 * and every filter. Values live in the list's filter (so in the address, bookmarkable); typing is
 * kept in a draft and applied after the list's 500 ms debounce. Number fields accept numbers only.
 */
import { Box, Collapse } from '@mui/material';
import { useMemo, type ReactNode } from 'react';
import { useStore } from 'react-admin';
import { CampaignFilterFields } from './CampaignFilterFields';
import { CampaignFilterToolbar } from './CampaignFilterToolbar';
import { yearBounds } from './CampaignRangeFilters';
import { useAdAccountOptions } from './useAdAccountOptions';
import { useCampaignFilterDraft } from './useCampaignFilterDraft';

/** `heading`: what the screen's toolbar shows before the Show/Hide and Clear buttons. */
export function CampaignFilterPanel({ heading }: { heading?: ReactNode }) {
  const filters = useCampaignFilterDraft();
  const [open, setOpen] = useStore<boolean>('campaigns.filterPanel.open', filters.hasFilters);
  // Loaded while the panel is closed too, so the accounts are there when it opens.
  const accounts = useAdAccountOptions();
  const dateBounds = useMemo(yearBounds, []);
  return (
    <Box>
      <CampaignFilterToolbar
        heading={heading}
        open={open}
        onToggle={() => setOpen(!open)}
        canClear={filters.canClear}
        onClear={filters.clear}
      />
      <Collapse in={open} unmountOnExit>
        <CampaignFilterFields
          draft={filters.draft}
          accounts={accounts}
          dateBounds={dateBounds}
          onChange={filters.change}
        />
      </Collapse>
    </Box>
  );
}
