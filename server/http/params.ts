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

/** The largest value of a bigint column (the ad platform's campaign ids). */
export const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** Whether this text is a non-negative integer that fits a bigint column (19 digits may not). */
export const fitsBigint = (text: string): boolean => /^\d{1,19}$/.test(text) && BigInt(text) <= MAX_BIGINT;
