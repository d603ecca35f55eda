/**
 * A resource is one definition file: the ad accounts and the alert destinations are each served,
 * shown, labelled, put in the menu and guarded from their file in shared/resources/ alone —
 * no other file of the API, the database schema, the browser's resources, layout or translations
 * names them — plus, for a table of its own, the migration drizzle-kit generated.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { definedResources } from '../../../server/resources/registry';

const root = resolve(import.meta.dirname, '../../..');
const ELSEWHERE = [
  'server/routes.ts',
  'server/app.ts',
  'server/plugins',
  'server/resources',
  'server/db/schema',
  'src/App.tsx',
  'src/resources',
  'src/layout',
  'src/i18n',
  'src/providers',
];

const filesUnder = (path: string): string[] =>
  statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => filesUnder(join(path, name))) : [path];

describe('a resource in one definition file', () => {
  it('serves the ad accounts and the alert destinations from their own files', async () => {
    const resources = await definedResources();
    // Containing, not equal: the recipe of docs/adding-a-resource.md adds a third and runs this test.
    expect(resources.map((r) => [r.spec.name, r.file])).toEqual(
      expect.arrayContaining([
        ['ad_accounts', 'shared/resources/adAccounts.ts'],
        ['alert_destinations', 'shared/resources/alertDestinations.ts'],
      ]),
    );
  });

  it.each(['ad_accounts', 'alert_destinations'])('names %s nowhere else', async (name) => {
    const files = ELSEWHERE.flatMap((path) => filesUnder(join(root, path)));
    const naming = files.filter((file) => new RegExp(`\\b${name}\\b`).test(readFileSync(file, 'utf8')));
    expect(naming.map((file) => relative(root, file))).toEqual([]);
  });

  it('has the migration drizzle-kit generated for a table of its own', () => {
    const migrations = readdirSync(join(root, 'server/db/migrations')).filter((f) => f.endsWith('.sql'));
    const creating = migrations.filter((f) =>
      readFileSync(join(root, 'server/db/migrations', f), 'utf8').includes('CREATE TABLE "alert_destinations"'),
    );
    expect(creating).toHaveLength(1);
  });
});
