/** The simulator's settings from the environment (used by `npm run simulator` and by `npm start`). */
import { parseLatencyProfile } from './latency';
import { isScenarioName, SCENARIO_NAMES, type ScenarioName } from './scenarios';
import type { SimulatorOptions } from './index';

const number = (value: string | undefined): number | undefined => {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

export function simulatorSettings(env: NodeJS.ProcessEnv): SimulatorOptions & { seed: number } {
  const scenarios = env.SIMULATOR_SCENARIOS?.trim();
  let chosen: ScenarioName[] = [...SCENARIO_NAMES];
  if (scenarios !== undefined) {
    const names =
      scenarios === 'none'
        ? []
        : scenarios
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
    const unknown = names.filter((n) => !isScenarioName(n));
    if (unknown.length)
      throw new Error(`SIMULATOR_SCENARIOS: unknown ${unknown.join(', ')} (known: ${SCENARIO_NAMES.join(', ')})`);
    chosen = names as ScenarioName[];
  }
  return {
    host: env.SIMULATOR_HOST || '127.0.0.1',
    port: number(env.SIMULATOR_PORT),
    seed: number(env.SIMULATOR_SEED) ?? 1,
    speed: number(env.SIMULATOR_SPEED) ?? 1,
    start: env.SIMULATOR_START || undefined,
    scenarios: chosen,
    accessToken: env.SIMULATOR_ACCESS_TOKEN || undefined,
    latency: parseLatencyProfile(env.SIMULATOR_LATENCY),
  };
}
