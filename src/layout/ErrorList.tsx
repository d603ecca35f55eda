/** The shared error list of docs/screens.md: one list item per message, nothing when there are none. */
import { Alert, List, ListItem } from '@mui/material';
import { useCallback, useState } from 'react';
import { errorMessages } from '../providers/httpErrors';

export function ErrorList({ errors }: { errors: readonly string[] }) {
  if (!errors.length) return null;
  return (
    <Alert severity="error" icon={false} role="alert" sx={{ my: 1 }}>
      <List dense disablePadding>
        {keyedMessages(errors).map(({ key, message }) => (
          <ListItem key={key} disableGutters sx={{ py: 0 }}>
            {message}
          </ListItem>
        ))}
      </List>
    </Alert>
  );
}

/** Each message with a key that stays unique when the same message appears twice. */
function keyedMessages(messages: readonly string[]): { key: string; message: string }[] {
  const seen = new Map<string, number>();
  return messages.map((message) => {
    const count = (seen.get(message) ?? 0) + 1;
    seen.set(message, count);
    return { key: `${count}:${message}`, message };
  });
}

/**
 * Errors for a screen's ErrorList: `showError(error)` turns a failed call into lines (docs/screens.md#errors-and-messages),
 * `clearErrors()` empties the list.
 */
export function useErrorList() {
  const [errors, setErrors] = useState<string[]>([]);
  const showError = useCallback((error: unknown) => setErrors(errorMessages(error)), []);
  const clearErrors = useCallback(() => setErrors([]), []);
  return { errors, showError, clearErrors, setErrors };
}
