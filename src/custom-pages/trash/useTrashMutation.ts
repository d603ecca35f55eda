/**
 * How the trash runs a restore or delete: it clears the screen's errors, calls the dataProvider, then
 * says it is done or shows why not. A restore or delete changes the trash and the General view: both
 * load again when shown.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import { queryKeys } from '../../providers/queryKeys';

/** What a finished change says: a message's key, or its key and arguments from the answer. */
type DoneMessage<T> = string | ((answer: T) => [key: string, args: object]);

export function useTrashMutation({
  clearErrors,
  showError,
}: {
  clearErrors: () => void;
  showError: (error: unknown) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (call: () => Promise<unknown>) => call(),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.trash }),
        queryClient.invalidateQueries({ queryKey: queryKeys.folders }),
        queryClient.invalidateQueries({ queryKey: queryKeys.rules }),
      ]),
  });

  return async <T>(call: () => Promise<T>, done: DoneMessage<T>) => {
    clearErrors();
    try {
      const answer = (await change.mutateAsync(call)) as T;
      const [key, args] = typeof done === 'string' ? [done, {}] : done(answer);
      notify(translate(key, args), { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS });
    } catch (error) {
      showError(error);
    }
  };
}
