/**
 * The group's name, renamed in place (update_permissions): a pencil opens a one-field form in the
 * row. `inPlace={false}`: the name alone.
 */
import Check from '@mui/icons-material/Check';
import Close from '@mui/icons-material/Close';
import Edit from '@mui/icons-material/Edit';
import { IconButton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Form, TextInput, useRecordContext, useTranslate, useUpdate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { formValidator } from '../../../shared/validation';
import { groupUpdateSchema } from '../../../shared/people';
import { PEOPLE_ACCESS } from '../../../shared/permissions';
import { usePermission } from '../../providers/usePermissions';
import { splitServerErrors, useNotifyFailure, useNotifySuccess } from '../../layout/forms';
import type { PermissionGroup } from './types';

const validate = formValidator(groupUpdateSchema);

export function PermissionGroupNameField({ inPlace = true }: { label?: string; source?: string; inPlace?: boolean }) {
  const record = useRecordContext<PermissionGroup>();
  const translate = useTranslate();
  const mayRename = usePermission(PEOPLE_ACCESS.changeGroups);
  const [editing, setEditing] = useState(false);
  if (!record) return null;
  if (editing) return <RenameForm group={record} onDone={() => setEditing(false)} />;
  return (
    <Stack direction="row" alignItems="center" spacing={0.5}>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {record.name}
      </Typography>
      {mayRename && inPlace ? (
        <IconButton
          size="small"
          aria-label={translate('people.permissions.rename', { name: record.name })}
          onClick={() => setEditing(true)}
        >
          <Edit fontSize="small" />
        </IconButton>
      ) : null}
    </Stack>
  );
}

function RenameForm({ group, onDone }: { group: PermissionGroup; onDone: () => void }) {
  const translate = useTranslate();
  const notifySuccess = useNotifySuccess();
  const notifyFailure = useNotifyFailure();
  const [update] = useUpdate<PermissionGroup>();

  const save = async (values: Record<string, unknown>) => {
    if (values.name === group.name) return onDone();
    try {
      await update(
        'permissions',
        { id: group.id, data: { name: String(values.name) }, previousData: group },
        { mutationMode: 'pessimistic', returnPromise: true },
      );
      notifySuccess('people.permissions.renamed');
      onDone();
      return undefined;
    } catch (error) {
      const { fields, others } = splitServerErrors(error, ['name']);
      if (others.length) notifyFailure(error);
      return fields;
    }
  };

  return (
    <Form record={{ name: group.name }} onSubmit={save} validate={validate} mode="onChange" noValidate>
      <Stack direction="row" alignItems="flex-start" spacing={0.5}>
        <TextInput
          source="name"
          label="resources.permissions.fields.name"
          size="small"
          autoFocus
          helperText={false}
          onKeyDown={(event) => event.key === 'Escape' && onDone()}
          sx={{ minWidth: 200, my: 0 }}
        />
        <SaveIcon label={translate('people.permissions.save_name')} />
        <IconButton size="small" aria-label={translate('people.permissions.cancel')} onClick={onDone} sx={{ mt: 1 }}>
          <Close fontSize="small" />
        </IconButton>
      </Stack>
    </Form>
  );
}

function SaveIcon({ label }: { label: string }) {
  const { isValid, isSubmitting } = useFormState();
  return (
    <IconButton
      type="submit"
      size="small"
      color="primary"
      aria-label={label}
      disabled={!isValid || isSubmitting}
      sx={{ mt: 1 }}
    >
      <Check fontSize="small" />
    </IconButton>
  );
}
