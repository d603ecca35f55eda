/**
 * `npm run simulator`: the Graph API simulator on its own, for pointing one or more servers at it
 * (META_GRAPH_URL=http://127.0.0.1:8090, no META_ACCESS_TOKEN) or for exploring it with curl.
 * Settings: SIMULATOR_HOST, SIMULATOR_PORT (8090), SIMULATOR_SEED (1), SIMULATOR_SPEED (1),
 * SIMULATOR_SCENARIOS (comma list, default all), SIMULATOR_ACCESS_TOKEN (accept only this token),
 * SIMULATOR_LATENCY (0 or meta: Graph's pace).
 */
import { startSimulator } from './index';
import { simulatorSettings } from './settings';
import { newestLiveVersion } from '../versions';

async function main() {
  const settings = simulatorSettings(process.env);
  const simulator = await startSimulator({ ...settings, port: settings.port ?? 8090 });
  const scenarios = [...simulator.world.scenarios.keys()].join(', ') || 'none';
  console.log(
    `Graph API simulator on ${simulator.url} (seed ${settings.seed}, speed ${simulator.clock.speed}×, scenarios: ${scenarios})`,
  );
  const version = newestLiveVersion(simulator.clock.now());
  console.log(
    `  accounts: curl '${simulator.url}/${version}/me/adaccounts?access_token=dev&fields=name,timezone_name'`,
  );
  console.log(`  admin:    curl ${simulator.url}/__sim/state`);
  console.log(`  point a server at it: META_GRAPH_URL=${simulator.url} npm start`);
  const stop = () => simulator.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
