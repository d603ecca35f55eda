/**
 * The database engines the server tests run on: PGlite and PostgreSQL unless TEST_ENGINES names
 * fewer (`TEST_ENGINES=pglite` is the quick tier, `npm run test:quick`). Read by db.ts (which
 * engines `eachDatabase` runs a suite on), globalDb.ts (whether to prepare PostgreSQL at all) and
 * vitest.config.ts (the files that need PostgreSQL are left out when it is not among them).
 */
export type Engine = 'pglite' | 'postgres';

const ALL_ENGINES: readonly Engine[] = ['pglite', 'postgres'];

export function testEngines(setting = process.env.TEST_ENGINES): readonly Engine[] {
  const named = (setting ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!named.length) return ALL_ENGINES;
  const unknown = named.filter((name) => !ALL_ENGINES.includes(name as Engine));
  if (unknown.length)
    throw new Error(`TEST_ENGINES=${setting}: ${unknown.join(', ')} is no engine (pglite, postgres, or both)`);
  return ALL_ENGINES.filter((engine) => named.includes(engine));
}
