/**
 * Run now's confirmation, from Preview's answer: what the run would do right now — "Turn off 3 ads"
 * (and campaigns, or budgets to change) of the account's delivering ads, the first of them by name —
 * and whether the blast-radius limit would hold it for approval, or the rule is notify only. When
 * Preview could not answer, it says so and what Run now does in general.
 */
import { Alert, Box, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { PreviewResult } from '../../../shared/ruleRuns';

/** Names shown before "… and N more". */
const NAMED = 5;

/** What the run would turn off: ads and campaigns counted apart. */
export function plannedTurnOffs(plan: PreviewResult) {
  const ads = plan.results.filter((r) => r.action === 'turn_off_ad').length;
  return { ads, campaigns: plan.results.length - ads };
}

function PlanHeadline({ plan }: { plan: PreviewResult }) {
  const translate = useTranslate();
  const { ads, campaigns } = plannedTurnOffs(plan);
  const budgets = plan.budget_changes?.length ?? 0;
  const parts = [
    ads ? translate('activity.run.plan_ads', { smart_count: ads }) : null,
    campaigns ? translate('activity.run.plan_campaigns', { smart_count: campaigns }) : null,
  ].filter(Boolean);
  const lines = [
    parts.length ? translate('activity.run.plan_off', { what: parts.join(translate('activity.run.plan_and')) }) : null,
    budgets ? translate('activity.run.plan_budgets', { smart_count: budgets, money: plan.money?.text ?? '' }) : null,
  ].filter(Boolean);
  if (!lines.length) return <Alert severity="success">{translate('activity.run.plan_nothing')}</Alert>;
  return (
    <Box>
      {lines.map((line) => (
        <Typography key={line} variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
          {line}
        </Typography>
      ))}
      {parts.length ? (
        <Typography variant="body2" color="text.secondary">
          {translate('activity.run.plan_share', {
            affected: plan.hold?.affected ?? ads,
            delivering: plan.delivering,
            account: plan.account.account_name,
          })}
        </Typography>
      ) : null}
    </Box>
  );
}

function PlanNames({ plan }: { plan: PreviewResult }) {
  const translate = useTranslate();
  if (!plan.results.length) return null;
  const named = plan.results.slice(0, NAMED);
  const more = plan.results.length - named.length;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5 }} aria-label={translate('activity.run.plan_list')}>
      {named.map((r) => (
        <Typography component="li" variant="body2" key={`${r.action}-${r.ad_id}`} sx={{ overflowWrap: 'anywhere' }}>
          {r.ad_name || r.ad_id}
          <Typography component="span" variant="caption" color="text.secondary">
            {' · '}
            {[r.action === 'turn_off_ad' ? r.campaign_name : null, r.ad_id].filter(Boolean).join(' · ')}
          </Typography>
        </Typography>
      ))}
      {more > 0 ? (
        <Typography component="li" variant="body2" color="text.secondary" sx={{ listStyle: 'none' }}>
          {translate('activity.run.plan_more', { smart_count: more })}
        </Typography>
      ) : null}
    </Box>
  );
}

export function RunPlan({ plan, problem }: { plan: PreviewResult | null; problem?: string }) {
  const translate = useTranslate();
  if (!plan) {
    return (
      <Stack spacing={1.5}>
        <Typography variant="body2">{translate('activity.run.content')}</Typography>
        {problem ? <Alert severity="warning">{translate('activity.run.plan_unknown', { problem })}</Alert> : null}
      </Stack>
    );
  }
  const acts = plan.results.length > 0 || Boolean(plan.budget_changes?.length);
  return (
    <Stack spacing={1.5} data-testid="run-plan">
      <PlanHeadline plan={plan} />
      <PlanNames plan={plan} />
      {plan.notify_only ? (
        <Alert severity="info">{translate('activity.run.plan_notify_only')}</Alert>
      ) : plan.hold?.held ? (
        <Alert severity="warning">{translate('activity.run.plan_held', { summary: plan.hold.summary })}</Alert>
      ) : acts ? (
        <Typography variant="body2">{translate('activity.run.plan_acts')}</Typography>
      ) : null}
      {plan.problems.length ? (
        <Alert severity="warning">
          {translate('activity.preview.problems', { problems: plan.problems.join('; ') })}
        </Alert>
      ) : null}
    </Stack>
  );
}
