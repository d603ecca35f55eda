/**
 * Answers of the team's list pages kept in memory for a short while, as the bytes that were sent,
 * so that a page asked for again (a whole team on the same Log or Campaigns page, a screen coming
 * back into focus, react-admin refetching) costs no query and no serialisation.
 *
 * The rules that keep it true are those of the signed-in users (server/auth/signedInUsers.ts):
 * - every change that could show on a list empties the whole cache (keptUntilChanged.ts): in this
 *   process any API call that may write, in every process a database trigger on the tables lists
 *   read (migration 0015), heard as `data_changed` when the change commits, whoever made it;
 * - while that notification cannot be heard, nothing is kept;
 * - an answer read before a change is never stored after it (the generation check);
 * - `ttlSeconds` bounds an entry's age anyway, `maxBytes` the memory the whole cache may hold
 *   (least recently used pages go first).
 */
import { LRUCache } from 'lru-cache';

export const DATA_CHANGED_CHANNEL = 'data_changed';

export interface PageCache {
  /** The answer kept for `key`, if any. */
  find(key: string): Buffer | undefined;
  /** Where a read starts: what it read may be kept only if nothing changed since. */
  readStarts(): number;
  /** Keeps `body` for `key` unless something changed since `startedAt` (readStarts) or nothing is heard. */
  keep(key: string, body: Buffer, startedAt: number): void;
  /** Forget every page (something the lists show has changed). */
  clear(): void;
  /** Keeping is on only while changes can be heard. */
  setListening(listening: boolean): void;
}

export function createPageCache(options: { ttlSeconds: number; maxBytes: number; now?: () => number }): PageCache {
  const ttlMs = options.ttlSeconds * 1000;
  const pages =
    ttlMs > 0 && options.maxBytes > 0
      ? new LRUCache<string, Buffer>({
          maxSize: options.maxBytes,
          sizeCalculation: (body, key) => body.length + key.length,
          ttl: ttlMs,
          ttlResolution: 0,
          ...(options.now ? { perf: { now: options.now } } : {}),
        })
      : undefined;
  let generation = 0;
  let listening = false;

  const clear = () => {
    generation += 1;
    pages?.clear();
  };
  return {
    find: (key) => (listening ? pages?.get(key) : undefined),
    readStarts: () => generation,
    keep(key, body, startedAt) {
      // A page bigger than the whole cache is not worth keeping (and LRUCache would refuse it).
      if (!pages || !listening || startedAt !== generation || body.length + key.length > options.maxBytes) return;
      pages.set(key, body);
    },
    clear,
    setListening(value) {
      clear();
      listening = value;
    },
  };
}
