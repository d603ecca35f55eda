/**
 * The receiver's store: a delivery's changes kept once each (a redelivery or a duplicate adds
 * nothing), then the push worker queued for the accounts with something new. Nothing is judged
 * here: Meta is answered as soon as the rows are in. Should the queueing fail, the rows wait as
 * `new` and the engine's next scan queues them.
 */
import { metaNotifications } from '../db/schema/index';
import type { Database } from '../db/client';
import { errorMessage } from '../errorMessage';
import type { PushedChange } from './payload';
import type { PushQueue } from './queue';

export interface Received {
  received: number;
  new: number;
}

/** `queue`: the push worker's (none: the engine's next scan queues the rows); `warn`: where a failed queueing is told. */
export function createPushStore(db: Database, { queue, warn }: { queue?: PushQueue; warn: (message: string) => void }) {
  return {
    async receive(changes: PushedChange[]): Promise<Received> {
      if (!changes.length) return { received: 0, new: 0 };
      const added = await db
        .insert(metaNotifications)
        .values(
          changes.map((c) => ({
            deliveryKey: c.deliveryKey,
            adAccountId: c.adAccountId,
            objectId: c.objectId,
            objectType: c.objectType,
            kind: c.kind,
            event: c.event,
            subscriptionId: c.subscriptionId,
            eventAt: c.eventAt,
          })),
        )
        .onConflictDoNothing()
        .returning({ adAccountId: metaNotifications.adAccountId });
      if (added.length && queue)
        await queue
          .enqueue([...new Set(added.map((row) => row.adAccountId))])
          .catch((error: unknown) => warn(`push: could not queue the notifications: ${errorMessage(error)}`));
      return { received: changes.length, new: added.length };
    },
  };
}

export type PushStore = ReturnType<typeof createPushStore>;
