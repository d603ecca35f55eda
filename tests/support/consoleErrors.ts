/**
 * For browser tests that make the server refuse on purpose: outside production, react-admin logs
 * every failed data provider call with console.error (ra-core's useDataProvider). The test takes
 * those logs for itself, so a passing run stays quiet, and asserts on them, so it still proves
 * the call failed the way it meant to.
 */
import { type MockInstance, onTestFinished, vi } from 'vitest';

export type ConsoleErrors = MockInstance<typeof console.error>;

/** Captures console.error until the current test finishes. */
export function captureConsoleErrors(): ConsoleErrors {
  const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  onTestFinished(() => spy.mockRestore());
  return spy;
}

/** The HTTP status of each error logged, in order (`null` for anything that is not an HTTP error). */
export function loggedHttpStatuses(consoleErrors: ConsoleErrors): (number | null)[] {
  return consoleErrors.mock.calls.map(([logged]) => {
    const status = (logged as { status?: unknown } | null)?.status;
    return typeof status === 'number' ? status : null;
  });
}
