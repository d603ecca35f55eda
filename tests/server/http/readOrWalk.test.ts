/** Whether a list reads its matches and sorts them or walks the sort's index (server/http/readOrWalk.ts). */
import { describe, expect, it } from 'vitest';
import { readAndSort } from '../../../server/http/readOrWalk';

describe('readAndSort', () => {
  // is_webinar=true on the full-size campaigns: 60,000 of 100,000, page 50 of 250 a page.
  const broadDeep = { matches: 60_000, tableRows: 100_000, rowsWanted: 12_501, spread: true };

  it('reads a broad filter when a walked row costs four read matches (tables larger than memory)', () => {
    expect(readAndSort(broadDeep)).toBe(true);
  });

  it('walks it when a walked row costs a third of a read match (a table in memory)', () => {
    expect(readAndSort({ ...broadDeep, walkRowCost: 1 / 3 })).toBe(false);
  });

  it('still reads a narrow filter whose walk would test many rows for each match', () => {
    expect(readAndSort({ matches: 3, tableRows: 100_000, rowsWanted: 11, spread: true, walkRowCost: 1 / 3 })).toBe(
      true,
    );
  });

  it('reads matches that may sit together whatever a walked row costs', () => {
    expect(readAndSort({ ...broadDeep, spread: false, walkRowCost: 1 / 3 })).toBe(true);
  });
});
