/**
 * The collapsible filter panel of the Campaigns screen (docs/screens.md): Show/Hide Filters, Clear Filters,
 * and every filter. Values live in the list's filter (so in the address, bookmarkable); typing is
 * kept in a draft and applied after the list's 500 ms debounce. Number fields accept numbers only.
 */
import FilterListIcon from '@mui/icons-material/FilterList';
import FilterListOffIcon from '@mui/icons-material/FilterListOff';
import { Autocomplete, Box, Button, Card, CardContent, Collapse, MenuItem, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useMemo, useRef, useState, type ReactNode } from 'react';
import { useDataProvider, useListContext, useStore, useTranslate } from 'react-admin';
import { TOPICS } from '../../../shared/constants';
import { PageToolbar } from '../../layout/PageToolbar';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import type { AdAccountOption } from '../../providers/ruleMethods';
import { isCompleteNumber, isIdListText, isNumberText } from './format';
import type { CampaignFilters } from './types';

type Draft = Required<{ [K in keyof CampaignFilters]: K extends 'event_type__in' ? string[] : string }>;

const EMPTY: Draft = {
  campaign_name: '',
  meta_ad_account: '',
  is_webinar: '',
  event_type__in: [],
  campaign_id__in: '',
  event_date_after: '',
  event_date_before: '',
  end_date_after: '',
  end_date_before: '',
  spend_range_min: '',
  spend_range_max: '',
  cpl_annotation_min: '',
  cpl_annotation_max: '',
  ctr_annotation_min: '',
  ctr_annotation_max: '',
  cpc_annotation_min: '',
  cpc_annotation_max: '',
  show_up_rate_min: '',
  show_up_rate_max: '',
  cost_per_attendee_min: '',
  cost_per_attendee_max: '',
} as Draft;

const NUMBER_FIELDS = [
  ['spend_range_min', 'min_spend'],
  ['spend_range_max', 'max_spend'],
  ['cpl_annotation_min', 'min_cpl'],
  ['cpl_annotation_max', 'max_cpl'],
  ['ctr_annotation_min', 'min_ctr'],
  ['ctr_annotation_max', 'max_ctr'],
  ['cpc_annotation_min', 'min_cpc'],
  ['cpc_annotation_max', 'max_cpc'],
  ['show_up_rate_min', 'min_show_up_rate'],
  ['show_up_rate_max', 'max_show_up_rate'],
  ['cost_per_attendee_min', 'min_cost_per_attendee'],
  ['cost_per_attendee_max', 'max_cost_per_attendee'],
] as const;

const DATE_FIELDS = [
  ['event_date_after', 'event_date_from'],
  ['event_date_before', 'event_date_to'],
  ['end_date_after', 'end_date_from'],
  ['end_date_before', 'end_date_to'],
] as const;

function toDraft(values: Record<string, unknown>): Draft {
  const draft = { ...EMPTY };
  for (const key of Object.keys(EMPTY) as (keyof Draft)[]) {
    const value = values[key];
    if (key === 'event_type__in')
      draft.event_type__in = Array.isArray(value)
        ? value.map(String)
        : typeof value === 'string' && value
          ? value.split(',')
          : [];
    else if (value !== undefined && value !== null) (draft as Record<string, unknown>)[key] = String(value);
  }
  return draft;
}

/** The filter the list sends: empty values dropped, incomplete numbers and ID lists held back. */
function toFilter(draft: Draft): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft)) {
    if (Array.isArray(value) ? value.length === 0 : value.trim() === '') continue;
    if (NUMBER_FIELDS.some(([name]) => name === key) && !isCompleteNumber(String(value).trim())) continue;
    filter[key] = Array.isArray(value) ? value : key === 'campaign_id__in' ? value.replace(/\s+/g, '') : value.trim();
  }
  return filter;
}

/** One string per distinct filter, whatever the order or empty values. */
const filterKey = (values: Record<string, unknown>) =>
  JSON.stringify(Object.entries(toFilter(toDraft(values))).sort(([a], [b]) => a.localeCompare(b)));

/** docs/contract.md#constants: date pickers reach 100 years back and 52 years ahead. */
function yearBounds() {
  const year = new Date().getFullYear();
  return { min: `${year - 100}-01-01`, max: `${year + 52}-12-31` };
}

/** The ad accounts to filter by (the folder dialog's list, so one load serves both); none while it fails. */
function useAdAccounts(): AdAccountOption[] {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data = [] } = useQuery({
    queryKey: queryKeys.adAccounts,
    queryFn: ({ signal }) => dataProvider.getAdAccounts(signal),
  });
  return data;
}

/** `heading`: what the screen's toolbar shows before the Show/Hide and Clear buttons. */
export function CampaignFilterPanel({ heading }: { heading?: ReactNode }) {
  const translate = useTranslate();
  const { filterValues, displayedFilters, setFilters } = useListContext();
  const hasFilters = Object.keys(toFilter(toDraft(filterValues))).length > 0;
  const [open, setOpen] = useStore<boolean>('campaigns.filterPanel.open', hasFilters);
  const [draft, setDraft] = useState<Draft>(() => toDraft(filterValues));
  const accounts = useAdAccounts();
  const bounds = useMemo(yearBounds, []);

  // Filters this panel sent that the list has not applied yet (it applies them after its debounce).
  const pending = useRef<string[]>([]);
  const appliedKey = filterKey(filterValues);
  const showAppliedFilters = useEffectEvent(() => setDraft(toDraft(filterValues)));
  useEffect(() => {
    const ours = pending.current.indexOf(appliedKey);
    if (ours >= 0) {
      pending.current = pending.current.slice(ours + 1);
      return;
    }
    // A change that did not come from this panel (a bookmark, the back button): show it.
    pending.current = [];
    showAppliedFilters();
  }, [appliedKey]);

  const send = (filter: Record<string, unknown>, debounce = true) => {
    const key = filterKey(filter);
    if (key === (pending.current.at(-1) ?? appliedKey)) return;
    pending.current.push(key);
    setFilters(filter, debounce ? displayedFilters : {}, debounce);
  };

  const change = (patch: Partial<Draft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    send(toFilter(next));
  };

  const clear = () => {
    setDraft(EMPTY);
    send({}, false);
  };

  const label = (key: string) => translate(`campaigns.filters.${key}`);
  const numberError = (value: string) =>
    value.trim() !== '' && !isCompleteNumber(value.trim()) ? label('numbers_only') : undefined;
  const account = accounts.find((a) => a.ad_account_id === draft.meta_ad_account) ?? null;
  const topics = TOPICS.filter((t) => draft.event_type__in.includes(t.code));

  return (
    <Box>
      <PageToolbar>
        {heading}
        <Button
          variant="outlined"
          startIcon={open ? <FilterListOffIcon /> : <FilterListIcon />}
          onClick={() => setOpen(!open)}
          aria-expanded={open}
          aria-controls="campaign-filters"
        >
          {label(open ? 'hide' : 'show')}
        </Button>
        <Button onClick={clear} disabled={!hasFilters && Object.keys(toFilter(draft)).length === 0}>
          {label('clear')}
        </Button>
      </PageToolbar>
      <Collapse in={open} unmountOnExit>
        <Card variant="outlined" id="campaign-filters" role="region" aria-label={label('title')} sx={{ mb: 1.5 }}>
          <CardContent>
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' },
              }}
            >
              <TextField
                size="small"
                label={label('campaign_name')}
                value={draft.campaign_name}
                onChange={(e) => change({ campaign_name: e.target.value })}
              />
              <Autocomplete
                size="small"
                options={accounts}
                value={account}
                getOptionLabel={(option) => option.account_name}
                isOptionEqualToValue={(option, value) => option.ad_account_id === value.ad_account_id}
                onChange={(_event, value) => change({ meta_ad_account: value?.ad_account_id ?? '' })}
                renderInput={(params) => <TextField {...params} label={label('ad_account')} />}
              />
              <TextField
                select
                size="small"
                label={label('event_type')}
                value={draft.is_webinar}
                onChange={(e) => change({ is_webinar: e.target.value as Draft['is_webinar'] })}
              >
                <MenuItem value="">{label('any')}</MenuItem>
                <MenuItem value="true">{translate('campaigns.event_type.webinar')}</MenuItem>
                <MenuItem value="false">{translate('campaigns.event_type.seminar')}</MenuItem>
              </TextField>
              <Autocomplete
                multiple
                size="small"
                options={[...TOPICS]}
                value={topics}
                getOptionLabel={(option) => `${option.code} — ${option.name}`}
                isOptionEqualToValue={(option, value) => option.code === value.code}
                onChange={(_event, value) => change({ event_type__in: value.map((t) => t.code) })}
                renderInput={(params) => <TextField {...params} label={label('topic')} />}
              />
              <TextField
                size="small"
                label={label('campaign_ids')}
                helperText={label('campaign_ids_help')}
                value={draft.campaign_id__in}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                onChange={(e) => isIdListText(e.target.value) && change({ campaign_id__in: e.target.value })}
              />
              {DATE_FIELDS.map(([name, key]) => (
                <TextField
                  key={name}
                  size="small"
                  type="date"
                  label={label(key)}
                  value={draft[name]}
                  onChange={(e) => change({ [name]: e.target.value })}
                  slotProps={{ inputLabel: { shrink: true }, htmlInput: bounds }}
                />
              ))}
              {NUMBER_FIELDS.map(([name, key]) => (
                <TextField
                  key={name}
                  size="small"
                  label={label(key)}
                  value={draft[name]}
                  error={Boolean(numberError(draft[name]))}
                  helperText={numberError(draft[name])}
                  slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                  onChange={(e) => isNumberText(e.target.value.trim()) && change({ [name]: e.target.value })}
                />
              ))}
            </Box>
          </CardContent>
        </Card>
      </Collapse>
    </Box>
  );
}
