/**
 * The rule editor's Exemptions: the ads and campaigns the rule leaves alone since someone undid its
 * turn-off, each with Remove (create_update_rules) so the rule may act on it again.
 */
import ReplayIcon from '@mui/icons-material/Replay';
import { Alert, Button, LinearProgress, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';
import { usePermission } from '../../providers/usePermissions';
import { formatDateTime } from '../../layout/dateFormat';

export function ExemptionsList({ ruleId }: { ruleId: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const canChange = usePermission('create_update_rules');
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const exemptions = useQuery({
    queryKey: queryKeys.exemptions(ruleId),
    queryFn: ({ signal }) => dataProvider.getRuleExemptions(ruleId, signal),
    retry: false,
  });
  const remove = useMutation({
    mutationFn: (objectId: string) => dataProvider.removeRuleExemption(ruleId, objectId),
    onSuccess: async (_answer, objectId) => {
      notify(translate('rules.editor.exemptions.removed', { id: objectId }), {
        type: 'success',
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
      });
      // The undo entries in Activity show "Let the rule act again" only while the exemption holds.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.exemptions(ruleId) }),
        queryClient.invalidateQueries({ queryKey: ['activity'] }),
      ]);
    },
    onError: (error) => {
      const text = errorMessages(error).join(' ');
      notify(text, { type: 'error', autoHideDuration: SNACKBAR_TIMEOUT_MS, messageArgs: { _: text } });
    },
  });

  if (exemptions.error) return <Alert severity="error">{errorMessages(exemptions.error).join(' ')}</Alert>;
  if (!exemptions.data) return <LinearProgress />;
  if (!exemptions.data.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('rules.editor.exemptions.empty')}
      </Typography>
    );
  }
  return (
    <List dense disablePadding aria-label={translate('rules.editor.exemptions.title')}>
      {exemptions.data.map((exemption) => (
        <ListItem
          key={exemption.object_id}
          divider
          secondaryAction={
            canChange ? (
              <Button
                size="small"
                startIcon={<ReplayIcon />}
                aria-label={translate('rules.editor.exemptions.remove_label', { id: exemption.object_id })}
                disabled={remove.isPending}
                onClick={() => remove.mutate(exemption.object_id)}
              >
                {translate('rules.editor.exemptions.remove')}
              </Button>
            ) : null
          }
        >
          <ListItemText
            primary={exemption.object_id}
            secondary={translate('rules.editor.exemptions.since', {
              date: formatDateTime(exemption.created_at),
            })}
          />
        </ListItem>
      ))}
    </List>
  );
}
