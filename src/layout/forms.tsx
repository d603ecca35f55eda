/**
 * What every people form shares (account, change password, invite, join, password reset):
 * The split (docs/screens.md#errors-and-messages) of a failed call into field messages and list lines, a submit button that is
 * enabled only for a valid form and no running request, and the success snackbar.
 */
import { Button, type ButtonProps } from '@mui/material';
import { useCallback } from 'react';
import { useNotify } from 'react-admin';
import { useErrorList } from './ErrorList';
import { useFormState } from 'react-hook-form';
import { SNACKBAR_TIMEOUT_MS } from '../../shared/constants';
import { errorMessages } from '../providers/httpErrors';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const linesOf = (value: unknown): string[] =>
  value == null
    ? []
    : Array.isArray(value)
      ? value.flatMap(linesOf)
      : isRecord(value)
        ? Object.values(value).flatMap(linesOf)
        : [String(value)];

export interface SplitErrors {
  /** Messages for the form's own fields, as react-admin's Form `onSubmit` returns them. */
  fields: Record<string, string>;
  /** Everything else, as lines for the ErrorList ('Key: message', or the detail itself). */
  others: string[];
}

/** A failed call → messages under the named fields, and the rest for the screen's error list. */
export function splitServerErrors(error: unknown, fieldNames: readonly string[]): SplitErrors {
  const body = (error as { body?: unknown } | null)?.body;
  if (!isRecord(body)) return { fields: {}, others: errorMessages(error) };
  const fields: Record<string, string> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'errors') continue; // the http client's copy for react-admin forms
    if (fieldNames.includes(key)) fields[key] = linesOf(value).join(' ');
    else rest[key] = value;
  }
  const others = Object.keys(rest).length ? errorMessages({ body: rest }) : [];
  if (!Object.keys(fields).length && !others.length) return { fields, others: errorMessages(error) };
  return { fields, others };
}

/**
 * A react-admin Form's `onSubmit` around one call: messages for the named fields go back to the
 * form, everything else into the screen's error list (`errors`), which each new try clears.
 */
export function useServerFormSubmit<Values = Record<string, unknown>>(
  fieldNames: readonly string[],
  action: (values: Values) => Promise<void>,
) {
  const { errors, setErrors, clearErrors } = useErrorList();
  const onSubmit = async (values: Record<string, unknown>) => {
    clearErrors();
    try {
      // The form's validate (its zod schema) passed: the values have the request's shape.
      await action(values as Values);
      return undefined;
    } catch (error) {
      const { fields, others } = splitServerErrors(error, fieldNames);
      setErrors(others);
      return fields;
    }
  };
  return { onSubmit, errors };
}

/**
 * Submit for a react-admin Form, disabled while its request runs; with `whenValid` also until the
 * form is valid, with `whenChanged` until something was changed (docs/screens.md Account, Confirm
 * password reset). Without `whenValid` a click on an invalid form shows every field's message.
 */
export function SubmitButton({
  whenValid = false,
  whenChanged = false,
  children,
  ...props
}: ButtonProps & { whenValid?: boolean; whenChanged?: boolean }) {
  const { isValid, isSubmitting, isDirty } = useFormState();
  const disabled = isSubmitting || (whenValid && !isValid) || (whenChanged && !isDirty) || Boolean(props.disabled);
  return (
    <Button type="submit" variant="contained" {...props} disabled={disabled} loading={isSubmitting}>
      {children}
    </Button>
  );
}

/** The snackbar for a success message of docs/screens.md#errors-and-messages (5 s). */
export function useNotifySuccess() {
  const notify = useNotify();
  return useCallback(
    (message: string) => notify(message, { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS }),
    [notify],
  );
}

/** The snackbar for a failed call that has no form to show it in. */
export function useNotifyFailure() {
  const notify = useNotify();
  return useCallback(
    (error: unknown) => {
      const lines = errorMessages(error);
      if (lines.length) notify(lines.join(' '), { type: 'error', autoHideDuration: SNACKBAR_TIMEOUT_MS });
    },
    [notify],
  );
}
