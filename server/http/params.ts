/** Ids taken from request paths before validation (guards that run first); routes read `idParams`. */

/** The largest value of the database's integer id columns. */
export const MAX_ID = 2_147_483_647;

/** '12' → 12; anything that is not a positive integer that fits an id column → undefined. */
export function parseId(raw: unknown): number | undefined {
  const text = String(raw ?? '');
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id > 0 && id <= MAX_ID ? id : undefined;
}
