/** Remove an added connection, after a confirmation; the built-in one has no such button. */
import { DeleteWithConfirmButton, useRecordContext } from 'react-admin';
import { useNotifyFailure, useNotifySuccess } from '../../layout/forms';
import type { MetaConnectionDto } from '../../../shared/metaConnections';

export function RemoveConnectionButton({ redirect = false }: { label?: string; redirect?: 'list' | false }) {
  const record = useRecordContext<MetaConnectionDto>();
  const notifySuccess = useNotifySuccess();
  const notifyFailure = useNotifyFailure();
  if (!record || record.source === 'environment') return null;
  return (
    <DeleteWithConfirmButton
      label="resources.meta_connections.remove"
      aria-label={`Remove ${record.name}`}
      mutationMode="pessimistic"
      redirect={redirect}
      confirmTitle="resources.meta_connections.delete_title"
      confirmContent="resources.meta_connections.delete_confirm"
      translateOptions={{ name: record.name }}
      mutationOptions={{
        onSuccess: () => notifySuccess('resources.meta_connections.notifications.deleted'),
        onError: notifyFailure,
      }}
    />
  );
}
