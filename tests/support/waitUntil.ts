type Truthy<T> = Exclude<T, null | undefined | false | 0 | ''>;
interface Pace {
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Waits for what a test cannot be told about, only see: another process ready, a row another worker
 * writes, a job that ends. Asks `read` every `intervalMs` until `until` holds for its answer (by
 * default: the answer is truthy) and resolves with that answer. After `timeoutMs` it fails naming
 * what it waited for and the last answer; an error thrown by `read` ends the wait at once.
 */
export function waitUntil<T>(
  read: () => T | Promise<T>,
  what: string,
  options: Pace & { until: (value: T) => boolean },
): Promise<T>;
export function waitUntil<T>(read: () => T | Promise<T>, what: string, options?: Pace): Promise<Truthy<T>>;
export async function waitUntil<T>(
  read: () => T | Promise<T>,
  what: string,
  { until = Boolean, timeoutMs = 60_000, intervalMs = 100 }: Pace & { until?: (value: T) => boolean } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
