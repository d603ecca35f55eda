/**
 * The rule's Active switch in the editor's header. Unlike Notify only it saves the editor's
 * changes with it (RuleEditor's switchActive): switching a rule on is the last step of setting it
 * up, and the rule that runs must be the one on screen.
 */
import { FormControlLabel, Switch, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { usePermission } from '../../providers/usePermissions';

export function ActiveSwitch({
  active,
  busy,
  onChange,
}: {
  active: boolean;
  busy: boolean;
  onChange: (active: boolean) => void;
}) {
  const translate = useTranslate();
  const canChange = usePermission('create_update_rules');
  return (
    <Tooltip describeChild title={translate('rules.editor.active_help')}>
      <FormControlLabel
        sx={{ mr: 0, whiteSpace: 'nowrap' }}
        label={translate('rules.editor.active')}
        control={
          <Switch checked={active} disabled={!canChange || busy} onChange={(event) => onChange(event.target.checked)} />
        }
      />
    </Tooltip>
  );
}
