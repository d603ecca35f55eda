/**
 * docs/screens.md, docs/screens.md#errors-and-messages on react-admin lists: a failed list call shows in the shared error list at the top of
 * the screen (not in a snackbar). Put `<ListErrors />` inside the ListBase, and pass
 * `queryOptions={listErrorsQueryOptions}` so react-admin does not also raise a snackbar.
 */
import type { ReactNode } from 'react';
import { useListContext } from 'react-admin';
import { ErrorList } from '../ErrorList';
import { errorMessages } from '../../providers/httpErrors';

/** The list's own error first, then any other failed call of the screen (`more`). */
export function ListErrors({ more = [] }: { more?: readonly string[] }) {
  const { error } = useListContext();
  return <ErrorList errors={[...(error ? errorMessages(error) : []), ...more]} />;
}

/** ListBase queryOptions: the failure shows in ListErrors instead of react-admin's snackbar. */
export const listErrorsQueryOptions = { onError: () => undefined };

/** The list's table and pagination, left out while its load has failed (no empty frame, no stale count). */
export function UnlessListFailed({ children }: { children: ReactNode }) {
  const { error } = useListContext();
  return error ? null : children;
}
