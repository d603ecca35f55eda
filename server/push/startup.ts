/**
 * Pushed changes in a server process: on when META_APP_SECRET and META_WEBHOOK_VERIFY_TOKEN are
 * both set. Every role queues what the receiver takes; the engine's roles work it (push/engine.ts).
 * With the Graph simulator in this process, the simulator stands in for Meta's App Dashboard: once
 * the server listens, it is given the callback (on loopback), verified by the same handshake.
 */
import type { AdPlatform } from '../adplatform/index';
import { graphSubscriptions } from '../adplatform/subscriptions';
import type { Config } from '../config';
import type { DbHandle } from '../db/client';
import { errorMessage } from '../errorMessage';
import type { PushOptions } from './engine';
import { createPushQueue } from './queue';

export const WEBHOOK_PATH = '/api/meta/webhooks/';

export interface PushServices {
  options: PushOptions;
  listening?(port: number): Promise<void>;
  stop(): Promise<void>;
}

export function startPushServices(
  config: Config,
  dbh: DbHandle,
  platform: AdPlatform,
  log: { info(message: string): void; warn(message: string): void; error(message: string): void },
): PushServices | undefined {
  const { metaAppSecret: appSecret, metaWebhookVerifyToken: verifyToken } = config;
  if (!appSecret || !verifyToken) return undefined;
  const queue = createPushQueue({ dbh, log });
  const simulator = platform.simulator;
  return {
    options: {
      queue,
      subscriptions: graphSubscriptions(platform.client),
      readStatuses: (ids) => platform.client.readStatuses(ids),
    },
    listening: simulator
      ? async (port) => {
          const callbackUrl = `http://127.0.0.1:${port}${WEBHOOK_PATH}`;
          await simulator.webhooks.configure({ callbackUrl, appSecret, verifyToken }).then(
            () => log.info(`push: the simulator delivers Meta's webhooks to ${callbackUrl}`),
            (error: unknown) => log.warn(`push: the simulator refused the callback: ${errorMessage(error)}`),
          );
        }
      : undefined,
    stop: () => queue.stop(),
  };
}
