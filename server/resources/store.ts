/**
 * The data access of a resource defined in one file: list, find, create, update and delete over
 * its table, each change with its audit entry in the same transaction. Fields are read and written
 * as the definition says (resourceRows.ts): a secret is encrypted on the way in and masked on the
 * way out (a masked value sent back keeps the stored one), a reference must name a row that exists
 * and is not gone (rowValues.ts). The reads: resourceReads.ts (their query: listQuery.ts); the
 * writes: resourceWrites.ts.
 */
import type { Database } from '../db/client';
import type { CredentialCipher } from '../rules/credentials';
import type { DefinedResource } from './registry';
import { resourceReadsOf } from './resourceReads';
import { resourceRowsOf } from './resourceRows';
import { resourceWritesOf } from './resourceWrites';
import { rowValuesOf, type SavedCheck } from './rowValues';

export type { ResourceRecord } from './resourceRows';
export type { SavedCheck } from './rowValues';
export { openSecret, shownSecret } from './secrets';

export function createResourceStore(
  db: Database,
  { resource, cipher, check }: { resource: DefinedResource; cipher: CredentialCipher; check?: SavedCheck },
) {
  const rows = resourceRowsOf(resource, cipher);
  return {
    ...resourceReadsOf(db, rows),
    ...resourceWritesOf(db, rows, rowValuesOf(db, rows, check)),
  };
}

export type ResourceStore = ReturnType<typeof createResourceStore>;
