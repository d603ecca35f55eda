/**
 * Answers of the team's list pages kept in memory for a short while, as the bytes that were sent,
 * so that a page asked for again (a whole team on the same Log or Campaigns page, a screen coming
 * back into focus, react-admin refetching) costs no query and no serialisation.
 *
 * The rules that keep it true:
 * - each list names the tables it reads; a change to one of them, heard from the database as a
 *   `data_changed` notification carrying the table's name (migration 0015's triggers, whoever made
 *   the change, in every process), empties the pages of the lists that read it and no others;
 * - a page is the same for whoever may see it (the route's guard decides who may: a cached list's
 *   answer depends on its URL and the tables it reads, never on who asks), so colleagues share it;
 * - a user's own write through the API is seen by their next request even if the notification has
 *   not arrived yet: a page read before that write is not given to them (it still is to others,
 *   until the notification empties it, as for anybody else's change);
 * - while that notification cannot be heard, nothing is kept;
 * - an answer read before a change is never stored after it (the generation check);
 * - `ttlSeconds` bounds an entry's age anyway, `maxBytes` the memory the whole cache may hold
 *   (least recently used pages go first).
 */
import { LRUCache } from 'lru-cache';

export const DATA_CHANGED_CHANNEL = 'data_changed';

/** Where a page comes from: its list (route) and its URL. */
export interface PageKey {
  list: string;
  url: string;
}

/**
 * What had been changed when a read started (readStarts): a page may be kept only if nothing it
 * depends on has been since, and is given only to users whose last write came before it.
 */
export type ReadMark = readonly [everything: number, list: number, writes: number];

export interface PageCache {
  /** Names the tables `list`'s pages read: only their changes empty them. */
  listReads(list: string, tables: readonly string[]): void;
  /** The answer kept for `key`, if any was read after `reader`'s last write. */
  find(key: PageKey, reader: number): Buffer | undefined;
  /** Where a read starts: what it read may be kept only if nothing it depends on changed since. */
  readStarts(key: PageKey): ReadMark;
  /** Keeps `body` for `key` unless something it depends on changed since `mark` or nothing is heard. */
  keep(key: PageKey, body: Buffer, mark: ReadMark): void;
  /** `table` changed: forget the pages of every list that reads it (no table named: every page). */
  tableChanged(table: string): void;
  /** `user` changed something: pages read before now are no longer theirs, whatever the notification is doing. */
  userWrote(user: number): void;
  /** Forget every page. */
  clear(): void;
  /** Keeping is on only while changes can be heard. */
  setListening(listening: boolean): void;
}

interface KeptPage {
  body: Buffer;
  /** The count of users' writes when its read started. */
  readAfterWrite: number;
}

export function createPageCache(options: { ttlSeconds: number; maxBytes: number; now?: () => number }): PageCache {
  const ttlMs = options.ttlSeconds * 1000;
  // One store per list, sharing the memory budget: a change empties a list's store at once.
  const stores = new Map<string, LRUCache<string, KeptPage>>();
  /** table → the lists that read it */
  const readers = new Map<string, Set<string>>();
  const lists = new Set<string>();
  let everything = 0;
  const listGenerations = new Map<string, number>();
  /** Users' writes so far, and where each user's last one falls in that count. */
  let writes = 0;
  const lastWriteOf = new Map<number, number>();
  let listening = false;
  const enabled = ttlMs > 0 && options.maxBytes > 0;
  /** Each list's share of maxBytes: the lists named so far split it evenly. */
  const storeOf = (list: string) => {
    let store = stores.get(list);
    if (!store && enabled) {
      store = new LRUCache<string, KeptPage>({
        maxSize: Math.max(1, Math.floor(options.maxBytes / Math.max(1, lists.size))),
        sizeCalculation: (page, url) => page.body.length + url.length,
        ttl: ttlMs,
        ttlResolution: 0,
        ...(options.now ? { perf: { now: options.now } } : {}),
      });
      stores.set(list, store);
    }
    return store;
  };
  const forgetList = (list: string) => {
    listGenerations.set(list, (listGenerations.get(list) ?? 0) + 1);
    stores.get(list)?.clear();
  };
  const clear = () => {
    everything += 1;
    for (const store of stores.values()) store.clear();
  };
  return {
    listReads(list, tables) {
      lists.add(list);
      for (const table of tables) readers.set(table, (readers.get(table) ?? new Set<string>()).add(list));
      // Stores made before every list was named are remade with the final share.
      stores.clear();
    },
    find(key, reader) {
      const page = listening ? stores.get(key.list)?.get(key.url) : undefined;
      return page && page.readAfterWrite >= (lastWriteOf.get(reader) ?? 0) ? page.body : undefined;
    },
    readStarts: (key) => [everything, listGenerations.get(key.list) ?? 0, writes],
    keep(key, body, [atEverything, atList, atWrites]) {
      if (!listening || atEverything !== everything || atList !== (listGenerations.get(key.list) ?? 0)) return;
      const store = storeOf(key.list);
      // A page bigger than the list's share is not worth keeping (and LRUCache would refuse it).
      if (!store || body.length + key.url.length > store.maxSize) return;
      store.set(key.url, { body, readAfterWrite: atWrites });
    },
    tableChanged(table) {
      if (!table) return clear();
      for (const list of readers.get(table) ?? []) forgetList(list);
    },
    userWrote(user) {
      writes += 1;
      lastWriteOf.set(user, writes);
    },
    clear,
    setListening(value) {
      clear();
      listening = value;
    },
  };
}
