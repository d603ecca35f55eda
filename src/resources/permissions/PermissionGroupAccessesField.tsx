/**
 * The group's accesses: one checkbox per permission the server offers, labelled with underscores
 * shown as spaces (docs/screens.md). Toggling saves at once (update_permissions).
 */
import { Box, Checkbox, FormControlLabel } from '@mui/material';
import { useRecordContext, useTranslate, useUpdate } from 'react-admin';
import { PEOPLE_ACCESS, permissionLabel } from '../../../shared/permissions';
import { usePermission } from '../../providers/usePermissions';
import { useNotifyFailure } from '../../layout/forms';
import type { PermissionGroup } from './types';
import { useAvailablePermissions } from './useAvailablePermissions';

export function PermissionGroupAccessesField(_props: { label?: string }) {
  const record = useRecordContext<PermissionGroup>();
  const translate = useTranslate();
  const available = useAvailablePermissions();
  const mayChange = usePermission(PEOPLE_ACCESS.changeGroups);
  const notifyFailure = useNotifyFailure();
  const [update] = useUpdate<PermissionGroup>();
  if (!record) return null;
  const accesses = record.group_access.accesses;

  const toggle = (name: string, on: boolean) => {
    const next = on ? [...accesses, name] : accesses.filter((a) => a !== name);
    update(
      'permissions',
      { id: record.id, data: { group_access: { accesses: next } }, previousData: record },
      // Optimistic: the box follows the click at once, and goes back if the server refuses.
      { mutationMode: 'optimistic', onError: notifyFailure },
    );
  };

  return (
    <Box
      role="group"
      aria-label={translate('people.permissions.accesses_of', { name: record.name })}
      sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))', columnGap: 1 }}
    >
      {available.map((name) => (
        <FormControlLabel
          key={name}
          label={permissionLabel(name)}
          disabled={!mayChange}
          slotProps={{ typography: { variant: 'body2' } }}
          control={
            <Checkbox
              size="small"
              checked={accesses.includes(name)}
              onChange={(event) => toggle(name, event.target.checked)}
            />
          }
        />
      ))}
    </Box>
  );
}
