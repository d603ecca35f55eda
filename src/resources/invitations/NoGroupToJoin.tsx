/**
 * An invitation's form when no permission group exists yet: everyone invited joins one, so the first
 * step is creating it — a link to the group Create view for those who may (which comes back to Team
 * once the group is saved), or whom to ask.
 */
import { Alert, Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { usePermission } from '../../providers/usePermissions';

/** The router state that sends the group Create view back to Team after saving. */
export const RETURN_TO_TEAM = { returnTo: '/team' };

export function NoGroupToJoin() {
  const translate = useTranslate();
  const mayCreate = usePermission({ resource: 'permissions', action: 'create' });
  return <Alert severity="info">{translate(mayCreate ? 'people.team.no_groups' : 'people.team.no_groups_ask')}</Alert>;
}

/** 'Create a permission group', for those who may; nothing for others. */
export function CreateGroupLink() {
  const translate = useTranslate();
  const mayCreate = usePermission({ resource: 'permissions', action: 'create' });
  if (!mayCreate) return null;
  return (
    <Button variant="contained" component={RouterLink} to="/permissions/create" state={RETURN_TO_TEAM}>
      {translate('people.team.create_group')}
    </Button>
  );
}
