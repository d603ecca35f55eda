/** The Campaigns filters chosen from a list: the ad account, the event type (webinar or seminar) and the topics. */
import { Autocomplete, MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { TOPICS } from '../../../shared/constants';
import type { AdAccountOption } from '../../providers/ruleMethods';
import type { FilterDraft } from './campaignFilterDraft';
import { useFilterLabel } from './useFilterLabel';

export function AdAccountFilter({
  accounts,
  value,
  onChange,
}: {
  accounts: AdAccountOption[];
  /** The chosen account's id, or '' for any. */
  value: string;
  onChange: (adAccountId: string) => void;
}) {
  const label = useFilterLabel();
  return (
    <Autocomplete
      size="small"
      options={accounts}
      value={accounts.find((a) => a.ad_account_id === value) ?? null}
      getOptionLabel={(option) => option.account_name}
      isOptionEqualToValue={(option, chosen) => option.ad_account_id === chosen.ad_account_id}
      onChange={(_event, chosen) => onChange(chosen?.ad_account_id ?? '')}
      renderInput={(params) => <TextField {...params} label={label('ad_account')} />}
    />
  );
}

type Webinar = FilterDraft['is_webinar'];

export function EventTypeFilter({ value, onChange }: { value: Webinar; onChange: (isWebinar: Webinar) => void }) {
  const translate = useTranslate();
  const label = useFilterLabel();
  return (
    <TextField
      select
      size="small"
      label={label('event_type')}
      value={value}
      onChange={(e) => onChange(e.target.value as Webinar)}
    >
      <MenuItem value="">{label('any')}</MenuItem>
      <MenuItem value="true">{translate('campaigns.event_type.webinar')}</MenuItem>
      <MenuItem value="false">{translate('campaigns.event_type.seminar')}</MenuItem>
    </TextField>
  );
}

export function TopicFilter({ value, onChange }: { value: string[]; onChange: (codes: string[]) => void }) {
  const label = useFilterLabel();
  return (
    <Autocomplete
      multiple
      size="small"
      options={[...TOPICS]}
      value={TOPICS.filter((t) => value.includes(t.code))}
      getOptionLabel={(option) => `${option.code} — ${option.name}`}
      isOptionEqualToValue={(option, chosen) => option.code === chosen.code}
      onChange={(_event, chosen) => onChange(chosen.map((t) => t.code))}
      renderInput={(params) => <TextField {...params} label={label('topic')} />}
    />
  );
}
