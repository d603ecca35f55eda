/**
 * Ads (/ads, docs/screens.md): every ad the rules read, whether it is on and, if not, why — turned
 * off by which rule and when (with its run record), paused by a person or by Meta, its campaign off
 * — with today's numbers and what the last run that judged it read. Off first. Filters from the
 * address as chips (?folder_id=, ?campaign_id=, ?rule_id=, ?run_id=, ?ad_id=: the folder row, the
 * campaign row and the run record link here), Show (all, on, off, turned off by a rule), search by
 * name or id, and Turn back on for the selected ads (create_update_rules), as Undo in Activity.
 */
import { Card, Link, MenuItem, TextField, Typography } from '@mui/material';
import { Datagrid, ListBase, useRecordContext, useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import type { AdDto } from '../../../shared/ads';
import { LOG_PAGE_SIZES } from '../../../shared/constants';
import { formatDateTime, formatTimeAt } from '../../layout/dateFormat';
import {
  AddressFilterChips,
  BackButton,
  CappedPagination,
  ListEmpty,
  ListErrors,
  listErrorsQueryOptions,
  ListSearchBox,
  StackedText,
  UnlessListFailed,
  useAddressFilterValues,
  type AddressFilter,
} from '../../layout/list';
import { tableToCardsSx } from '../../layout/list/HistoryList';
import { PageTitle } from '../../layout/pageTitle';
import { PageToolbar } from '../../layout/PageToolbar';
import { usePermission } from '../../providers/usePermissions';
import { formatMoney } from '../../layout/numberFormat';
import { StateText } from './AdState';
import { SelectAllBox, SelectCell, SelectedAdsBar } from './TurnBackOnButton';

export const AD_ADDRESS_FILTERS: readonly AddressFilter[] = [
  { param: 'folder_id', label: 'ads.chips.folder_id' },
  { param: 'campaign_id', label: 'ads.chips.campaign_id' },
  { param: 'rule_id', label: 'ads.chips.rule_id' },
  { param: 'run_id', label: 'ads.chips.run_id' },
  { param: 'ad_id', label: 'ads.chips.ad_id' },
];

/** The Show choices and the address parameters each sets. */
const SHOW: Record<string, Record<string, string>> = {
  all: {},
  on: { status: 'on' },
  off: { status: 'off' },
  rule: { reason: 'rule' },
};
const SHOW_FILTERS: readonly AddressFilter[] = [
  { param: 'status', label: '' },
  { param: 'reason', label: '' },
];

function ShowSelect() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const current =
    Object.entries(SHOW).find(
      ([, set]) =>
        Object.keys(set).length &&
        Object.entries(set).every(([key, value]) => params.get(key) === value) &&
        SHOW_FILTERS.every(({ param }) => param in set || !params.has(param)),
    )?.[0] ?? 'all';
  const choose = (choice: string) => {
    const next = new URLSearchParams(params);
    for (const { param } of SHOW_FILTERS) next.delete(param);
    for (const [key, value] of Object.entries(SHOW[choice] ?? {})) next.set(key, value);
    setParams(next);
  };
  return (
    <TextField
      select
      size="small"
      variant="outlined"
      fullWidth={false}
      label={translate('ads.show.label')}
      value={current}
      onChange={(event) => choose(event.target.value)}
      sx={{ minWidth: 200 }}
    >
      {Object.keys(SHOW).map((choice) => (
        <MenuItem key={choice} value={choice}>
          {translate(`ads.show.${choice}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}

interface CellProps {
  label?: string;
  source?: string;
  sortBy?: string;
  sortable?: boolean;
}

const useAd = () => useRecordContext<AdDto>();

/** A cell's heading where a phone shows each row as a card without the table's head. */
function PhoneLabel({ text }: { text: string }) {
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
      {text}
    </Typography>
  );
}

function NameCell(_: CellProps) {
  const translate = useTranslate();
  const ad = useAd();
  if (!ad) return null;
  return <StackedText primary={ad.name} secondary={translate('ads.ad_id', { id: ad.ad_id })} minWidth={150} />;
}

function CampaignCell(_: CellProps) {
  const ad = useAd();
  if (!ad) return null;
  return (
    <Typography variant="body2" sx={{ minWidth: 140, overflowWrap: 'anywhere' }}>
      {ad.campaign.name}
    </Typography>
  );
}

function FolderCell(_: CellProps) {
  const ad = useAd();
  if (!ad) return null;
  return <StackedText primary={ad.folder.name} secondary={ad.ad_account.name} minWidth={120} />;
}

function StatusCell(_: CellProps) {
  const ad = useAd();
  if (!ad) return null;
  return <StateText state={ad.state} campaignState={ad.campaign.state} />;
}

type Numbers = { spend: number; leads: number; cpl: number | null };

function NumbersText({ numbers, currency }: { numbers: Numbers; currency: string }) {
  const translate = useTranslate();
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {translate('ads.numbers', {
        spend: formatMoney(numbers.spend, currency),
        leads: translate('ads.leads', { smart_count: numbers.leads }),
        cpl: numbers.cpl === null ? '—' : formatMoney(numbers.cpl, currency),
      })}
    </Typography>
  );
}

function TodayCell(_: CellProps) {
  const translate = useTranslate();
  const ad = useAd();
  if (!ad) return null;
  return (
    <>
      <PhoneLabel text={translate('resources.ads.fields.today')} />
      {ad.today ? (
        <>
          <NumbersText numbers={ad.today} currency={ad.ad_account.currency} />
          <Typography variant="caption" color="text.secondary">
            {translate('ads.as_of', { time: formatTimeAt(ad.today.as_of) })}
          </Typography>
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {translate('ads.no_numbers')}
        </Typography>
      )}
    </>
  );
}

function LastJudgedCell(_: CellProps) {
  const translate = useTranslate();
  const canReadRules = usePermission('read_rules');
  const ad = useAd();
  if (!ad) return null;
  const judged = ad.last_judged;
  const by = judged
    ? translate('ads.judged_by', { rule: judged.rule.name, time: formatDateTime(judged.at) })
    : translate('ads.not_judged');
  return (
    <>
      <PhoneLabel text={translate('resources.ads.fields.last_judged')} />
      {judged ? <NumbersText numbers={judged} currency={ad.ad_account.currency} /> : null}
      {judged && canReadRules ? (
        <Link
          component={RouterLink}
          to={`/edit-rule/${judged.rule.id}?run=${judged.run_id}`}
          variant="caption"
          color="text.secondary"
          underline="always"
          sx={{ display: 'block', minWidth: 150 }}
        >
          {by}
        </Link>
      ) : (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', minWidth: 150 }}>
          {by}
        </Typography>
      )}
    </>
  );
}

export function AdList() {
  const translate = useTranslate();
  const canTurnOn = usePermission('create_update_rules');
  const filter = useAddressFilterValues([...AD_ADDRESS_FILTERS, ...SHOW_FILTERS]);
  return (
    <ListBase
      resource="ads"
      filter={filter}
      perPage={LOG_PAGE_SIZES[1]}
      sort={{ field: 'status', order: 'ASC' }}
      queryOptions={listErrorsQueryOptions}
      disableSyncWithLocation
    >
      <PageTitle title="ads.title" />
      <PageToolbar>
        <BackButton />
        <ListSearchBox />
        <ShowSelect />
        <AddressFilterChips filters={AD_ADDRESS_FILTERS} />
      </PageToolbar>
      <ListErrors />
      <UnlessListFailed>
        {canTurnOn ? <SelectedAdsBar /> : null}
        <Card variant="outlined" sx={tableToCardsSx}>
          <Datagrid
            bulkActionButtons={false}
            rowClick={false}
            empty={
              <ListEmpty
                message="ads.empty"
                detail={translate('ads.empty_detail')}
                filtered={Object.keys(filter).length > 0}
              />
            }
          >
            {canTurnOn ? <SelectCell source="select" label={<SelectAllBox />} sortable={false} /> : null}
            <NameCell source="name" sortBy="name" />
            <CampaignCell source="campaign" sortBy="campaign" />
            <FolderCell source="folder" sortBy="folder" />
            <StatusCell source="status" sortBy="status" />
            <TodayCell source="today" sortable={false} />
            <LastJudgedCell source="last_judged" sortable={false} />
          </Datagrid>
        </Card>
        <CappedPagination rowsPerPageOptions={[...LOG_PAGE_SIZES]} />
      </UnlessListFailed>
    </ListBase>
  );
}

export default AdList;
