/**
 * A held run's decision (docs/api.md, "Approval queue"): Approve (asks first, then carries out the
 * planned turn-offs once) and Dismiss while it is pending, for people who may change rules; once
 * decided, who decided what. Shown on the run_held Activity row and in the rule editor's Runs panel.
 * A run with budget changes puts the money it would move (`stake`) in the approval's question. A run
 * over the person's approval limit (`refusal`, from the approval queue) keeps Approve disabled and says why.
 */
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Box, Button, Chip, Stack, Tooltip, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';
import { usePermission } from '../../providers/usePermissions';

type Decision = 'pending' | 'approved' | 'dismissed';

/** "Approved by Ada Lovelace", or just "Dismissed" when the decider is unknown (deleted user). */
export function DecisionText({ decision, by }: { decision: Exclude<Decision, 'pending'>; by?: string | null }) {
  const translate = useTranslate();
  const word = translate(`activity.held.${decision}`);
  return (
    <Chip
      size="small"
      variant="outlined"
      color={decision === 'approved' ? 'success' : 'default'}
      label={by ? translate('activity.held.decided_by', { decision: word, name: by }) : word}
    />
  );
}

export function HeldRunDecision({
  runId,
  decision,
  decidedBy,
  stake = [],
  refusal = null,
}: {
  runId: number;
  decision: Decision;
  decidedBy?: string | null;
  /** "Money at stake: +$1,240.00/day across 14 ad sets", the daily budget added against the limit. */
  stake?: string[];
  /** Why this person may not approve it (over their approval limit): Approve is disabled and says so. */
  refusal?: string | null;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const allowed = usePermission('create_update_rules');
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);

  // A decision changes the run, the Activity rows (the held entry, the turn-offs) and the Runs panel.
  const refreshAll = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.runs }),
      queryClient.invalidateQueries({ queryKey: queryKeys.activity }),
      queryClient.invalidateQueries({ queryKey: ['activity'] }),
      // The approval queue (src/resources/approvals/): the decided run leaves it.
      queryClient.invalidateQueries({ queryKey: ['approvals'] }),
    ]);
  const showError = (error: unknown) => {
    const text = errorMessages(error).join(' ');
    notify(text, { type: 'error', autoHideDuration: SNACKBAR_TIMEOUT_MS, messageArgs: { _: text } });
    // A 409 means someone else decided first: show what they decided.
    void refreshAll();
  };
  const approve = useMutation({
    mutationFn: () => dataProvider.approveHeldRun(runId),
    onSuccess: async (result) => {
      // A budget run's approval says what it changed besides turn-offs.
      const budgets = (result.run?.budget_changes ?? []).filter((c) => c.daily_delta !== 0).length;
      const message = budgets
        ? translate('activity.held.approve_done_budgets', { smart_count: result.turned_off, budgets })
        : translate('activity.held.approve_done', { smart_count: result.turned_off });
      notify(message, {
        type: 'success',
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
      });
      await refreshAll();
    },
    onError: showError,
  });
  const dismiss = useMutation({
    mutationFn: () => dataProvider.dismissHeldRun(runId),
    onSuccess: async () => {
      notify(translate('activity.held.dismiss_done'), { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS });
      await refreshAll();
    },
    onError: showError,
  });

  if (decision !== 'pending') return <DecisionText decision={decision} by={decidedBy} />;
  if (!allowed) {
    return (
      <Typography variant="caption" color="text.secondary">
        {translate('activity.held.pending')}
      </Typography>
    );
  }
  const busy = approve.isPending || dismiss.isPending;
  const approveButton = (
    <Button
      size="small"
      variant="contained"
      startIcon={<CheckIcon />}
      aria-label={translate('activity.held.approve_label', { id: runId })}
      aria-describedby={refusal ? `approve-refusal-${runId}` : undefined}
      disabled={busy || Boolean(refusal)}
      loading={approve.isPending}
      onClick={() => setConfirming(true)}
    >
      {translate('activity.held.approve')}
    </Button>
  );
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap onClick={(e) => e.stopPropagation()}>
      {refusal ? (
        // A disabled button gets no pointer events: the tooltip hangs on its wrapper.
        <Tooltip title={refusal}>
          <Box component="span" sx={{ display: 'inline-flex' }}>
            {approveButton}
          </Box>
        </Tooltip>
      ) : (
        approveButton
      )}
      <Button
        size="small"
        startIcon={<CloseIcon />}
        aria-label={translate('activity.held.dismiss_label', { id: runId })}
        disabled={busy}
        loading={dismiss.isPending}
        onClick={() => dismiss.mutate()}
      >
        {translate('activity.held.dismiss')}
      </Button>
      {refusal ? (
        <Typography
          id={`approve-refusal-${runId}`}
          variant="caption"
          color="text.secondary"
          sx={{ flexBasis: '100%', maxWidth: 360 }}
        >
          {refusal}
        </Typography>
      ) : null}
      <Confirm
        isOpen={confirming}
        loading={approve.isPending}
        title={translate('activity.held.approve_title')}
        content={[...stake, translate('activity.held.approve_content')].join(' ')}
        confirm={translate('activity.held.approve')}
        cancel={translate('activity.cancel')}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          approve.mutate();
        }}
      />
    </Stack>
  );
}
