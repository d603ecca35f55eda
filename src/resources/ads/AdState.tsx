/**
 * An ad's or campaign's state in words: On, or why not — "Turned off by rule {rule} at {time}" with a
 * link to the run record, "Paused by Meta" with Meta's words, "Paused by a person", "Its campaign is
 * off" with the campaign's reason, the platform's own status, or "Not read yet". The ads list and the
 * campaigns list's Status column show it.
 */
import { Link, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { ObjectStateDto } from '../../../shared/ads';
import { formatDateTime } from '../../layout/dateFormat';
import { usePermission } from '../../providers/usePermissions';

type Translate = ReturnType<typeof useTranslate>;

/** The state's one-line text; `campaign` words it as the campaign's (under its ad). */
export function stateText(state: ObjectStateDto, translate: Translate, campaign = false): string {
  const time = state.at ? formatDateTime(state.at) : '';
  const prefix = campaign ? 'ads.state.campaign_' : 'ads.state.';
  switch (state.reason) {
    case 'rule':
      return state.rule?.name
        ? translate(`${prefix}rule`, { rule: state.rule.name, time })
        : translate('ads.state.rule_gone', { time });
    case 'meta':
      return campaign ? translate('ads.state.campaign_meta') : translate('ads.state.meta_at', { time });
    case 'platform':
      return translate(`${prefix}platform`, { status: state.detail ?? '' });
    case 'person':
      return translate(`${prefix}person`);
    default:
      return translate(`ads.state.${state.reason}`);
  }
}

/** Where the run that turned the object off is explained: the rule editor's run record. */
export const runRecordPath = (state: ObjectStateDto) =>
  state.reason === 'rule' && state.rule?.id && state.run_id ? `/edit-rule/${state.rule.id}?run=${state.run_id}` : null;

const COLOR: Partial<Record<ObjectStateDto['reason'], string>> = {
  on: 'success.dark',
  rule: 'warning.dark',
  meta: 'error.main',
};

export function StateText({
  state,
  campaignState,
  dense = false,
}: {
  state: ObjectStateDto;
  /** An ad's campaign's state: what "Its campaign is off" is about. */
  campaignState?: ObjectStateDto | null;
  dense?: boolean;
}) {
  const translate = useTranslate();
  const canReadRules = usePermission('read_rules');
  const run = canReadRules ? runRecordPath(state) : null;
  const campaignRun = canReadRules && campaignState ? runRecordPath(campaignState) : null;
  const variant = dense ? 'caption' : 'body2';
  return (
    <Stack spacing={0.25} sx={{ minWidth: dense ? undefined : 150 }}>
      <Typography variant={variant} sx={{ color: COLOR[state.reason], fontWeight: state.on ? undefined : 500 }}>
        {stateText(state, translate)}
      </Typography>
      {state.reason === 'meta' && state.detail ? (
        <Typography variant="caption" color="text.secondary">
          {state.detail}
        </Typography>
      ) : null}
      {state.reason === 'campaign' && campaignState ? (
        <Typography variant="caption" color="text.secondary">
          {stateText(campaignState, translate, true)}
        </Typography>
      ) : null}
      {run || campaignRun ? (
        <Link component={RouterLink} to={(run ?? campaignRun)!} variant="caption" underline="always">
          {translate('ads.open_run')}
        </Link>
      ) : null}
    </Stack>
  );
}
