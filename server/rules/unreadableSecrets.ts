/**
 * The stored secrets a key cannot read: folders' webinar credentials, Meta connections' tokens and
 * the secret fields of the resources defined in one file (an alert destination's webhook URL). A
 * restore reports them, so a database moved without its CREDENTIALS_KEY says at once what needs re-entry.
 */
import { getTableColumns } from 'drizzle-orm';
import type { SqlExecutor } from '../db/client';
import { definedResources } from '../resources/registry';
import { opens, type CredentialCipher } from './credentials';

export interface UnreadableSecrets {
  /** Secrets stored, of every kind. */
  stored: number;
  /** Those the key cannot read, by what they are ("folders (webinar credentials)": 2); kinds with none left out. */
  unreadable: Record<string, number>;
}

interface SecretColumn {
  what: string;
  table: string;
  column: string;
}

async function secretColumns(): Promise<SecretColumn[]> {
  const columns: SecretColumn[] = [
    { what: 'folders (webinar credentials)', table: 'folders', column: 'demio_credentials' },
    { what: 'Meta connections (tokens)', table: 'meta_connections', column: 'token' },
  ];
  for (const { spec, table } of await definedResources()) {
    const byKey = getTableColumns(table);
    for (const [name, field] of Object.entries(spec.fields))
      if (field.kind === 'secret')
        columns.push({
          what: `${spec.labels.many.toLowerCase()} (${field.label.toLowerCase()})`,
          table: spec.table,
          column: byKey[field.column ?? name]!.name,
        });
  }
  return columns;
}

/** Counts the stored secrets `cipher` cannot read (null: no key, none can be read). */
export async function unreadableSecrets(sql: SqlExecutor, cipher: CredentialCipher | null): Promise<UnreadableSecrets> {
  const result: UnreadableSecrets = { stored: 0, unreadable: {} };
  for (const { what, table, column } of await secretColumns()) {
    const { rows } = await sql.query<{ value: string }>(
      `select "${column}" as value from "${table}" where "${column}" is not null and "${column}" <> ''`,
    );
    result.stored += rows.length;
    const unreadable = rows.filter((row) => !opens(cipher, row.value)).length;
    if (unreadable) result.unreadable[what] = unreadable;
  }
  return result;
}
