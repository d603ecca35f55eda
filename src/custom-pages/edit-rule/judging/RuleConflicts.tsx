/** The rule's conflicts with the folder's other active rules (server/engine/conflicts.ts), above its judging settings. */
import { Alert, AlertTitle } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../../../providers/dataProvider';
import { queryKeys } from '../../../providers/queryKeys';

export function RuleConflicts({ ruleId }: { ruleId: number }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const conflicts = useQuery({
    queryKey: queryKeys.ruleConflicts(ruleId),
    queryFn: ({ signal }) => dataProvider.getRuleConflicts(ruleId, signal),
    retry: false,
  });
  if (!conflicts.data?.length) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} role="alert">
      <AlertTitle>{translate('judging.conflicts_title', { smart_count: conflicts.data.length })}</AlertTitle>
      {conflicts.data.map((c) => (
        <div key={`${c.other_rule_id}-${c.kind}-${c.detail}`}>{c.detail}</div>
      ))}
    </Alert>
  );
}
