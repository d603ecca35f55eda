/** The trash link of docs/screens.md: enabled with delete_rules, otherwise disabled with a tooltip. */
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { Button, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { usePermission } from '../providers/usePermissions';

export function TrashLink() {
  const translate = useTranslate();
  const allowed = usePermission('delete_rules');
  const label = translate('app.trash.link');
  if (allowed) {
    return (
      <Button component={RouterLink} to="/trash/" startIcon={<DeleteOutline />}>
        {label}
      </Button>
    );
  }
  return (
    <Tooltip title={translate('app.trash.denied')}>
      {/* A disabled button fires no events, so the tooltip hangs on a wrapper. */}
      <span>
        <Button disabled startIcon={<DeleteOutline />}>
          {label}
        </Button>
      </span>
    </Tooltip>
  );
}
