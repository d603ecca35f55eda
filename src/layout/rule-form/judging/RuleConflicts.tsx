/**
 * The rule's conflicts (server/judgement/conflicts.ts), above its judging settings: with the folder's
 * other active rules, and with the active rules of other folders on the same ad account, each of
 * those named with its folder and linked to its editor.
 */
import { Alert, AlertTitle, Box, Link } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { RuleConflictDto } from '../../../../shared/judging';
import type { AppDataProvider } from '../../../providers/dataProvider';
import { queryKeys } from '../../../providers/queryKeys';

const detailKey = (c: RuleConflictDto) => `${c.other_rule_id}-${c.kind}-${c.detail}`;

/** The conflicts with rules of other folders, grouped by the other rule (first seen first). */
function byOtherRule(conflicts: RuleConflictDto[]): RuleConflictDto[][] {
  const groups = new Map<number, RuleConflictDto[]>();
  for (const c of conflicts) groups.set(c.other_rule_id, [...(groups.get(c.other_rule_id) ?? []), c]);
  return [...groups.values()];
}

export function RuleConflicts({ ruleId }: { ruleId: number }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const conflicts = useQuery({
    queryKey: queryKeys.ruleConflicts(ruleId),
    queryFn: ({ signal }) => dataProvider.getRuleConflicts(ruleId, signal),
    retry: false,
  });
  if (!conflicts.data?.length) return null;
  const own = conflicts.data.filter((c) => c.other_folder_id === c.folder_id);
  const otherRules = byOtherRule(conflicts.data.filter((c) => c.other_folder_id !== c.folder_id));
  return (
    <>
      {own.length ? (
        <Alert severity="warning" sx={{ mb: 2 }} role="alert">
          <AlertTitle>{translate('judging.conflicts_title', { smart_count: own.length })}</AlertTitle>
          {own.map((c) => (
            <div key={detailKey(c)}>{c.detail}</div>
          ))}
        </Alert>
      ) : null}
      {otherRules.length ? (
        <Alert severity="warning" sx={{ mb: 2, overflowWrap: 'anywhere' }} role="alert">
          <AlertTitle>{translate('conflicts.other_folders_title', { smart_count: otherRules.length })}</AlertTitle>
          {otherRules.map((group) => {
            const other = group[0]!;
            return (
              <Box key={other.other_rule_id} sx={{ '& + &': { mt: 1 } }}>
                <Link component={RouterLink} to={`/edit-rule/${other.other_rule_id}`} color="inherit" fontWeight={500}>
                  {translate('conflicts.with_rule_in_folder', {
                    rule: other.other_rule_name,
                    folder: other.other_folder_name,
                  })}
                </Link>
                {group.map((c) => (
                  <div key={detailKey(c)}>{c.detail}</div>
                ))}
              </Box>
            );
          })}
        </Alert>
      ) : null}
    </>
  );
}
