/**
 * The folder dialog's values as typed, what they send (FolderPayload) and the server's field
 * errors keyed by the dialog's field names.
 */
import type { BudgetLimits } from '../../../shared/budgetLimits';
import { splitEmails } from '../../../shared/alertEmails';
import type { FolderDto, FolderPayload } from '../../../shared/folders';

export interface FolderValues {
  client_type: string;
  plan: string;
  meta_ad_account_id: string;
  name: string;
  api_key: string;
  api_secret: string;
  /** The folder's own alert recipients as typed: addresses separated by commas. */
  alert_emails: string;
}

export const valuesOf = (folder: FolderDto | null): FolderValues => ({
  client_type: folder?.client_type ?? '',
  plan: folder?.plan ?? '',
  meta_ad_account_id: folder?.meta_ad_account?.ad_account_id ?? '',
  name: folder?.name ?? '',
  api_key: folder?.extension.external_credentials.demio?.api_key ?? '',
  api_secret: folder?.extension.external_credentials.demio?.api_secret ?? '',
  alert_emails: (folder?.alert_emails ?? []).join(', '),
});

export const payloadOf = (v: FolderValues): FolderPayload => ({
  client_type: v.client_type,
  plan: v.plan,
  meta_ad_account_id: v.meta_ad_account_id,
  name: v.name.trim(),
  extension: {
    external_credentials: {
      demio:
        v.api_key.trim() || v.api_secret.trim() ? { api_key: v.api_key.trim(), api_secret: v.api_secret.trim() } : null,
    },
  },
  // Only when there are any: an empty list is the default, and clearing a folder's own ones is submit's.
  ...(splitEmails(v.alert_emails).length ? { alert_emails: splitEmails(v.alert_emails) } : {}),
});

/** Field errors keyed by the dialog's field names ('extension.external_credentials.demio.api_key' → api_key). */
export function fieldErrorsOf(errors: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(errors)) {
    const field = key.split('.').pop()!;
    const text = Array.isArray(value) ? value.join(' ') : typeof value === 'string' ? value : '';
    if (text && field in valuesOf(null)) result[field] = text;
  }
  return result;
}

/** The folder's limits as answered (the defaults when the answer has none). */
export const storedLimitsOf = (folder: FolderDto | null) =>
  (folder as { budget_limits?: Partial<BudgetLimits> | null } | null)?.budget_limits;
