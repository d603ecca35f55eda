/**
 * Writes to campaigns, ad sets and ads: `name`, `status`, and on campaigns and ad sets
 * `daily_budget` / `lifetime_budget` (budgets.ts checks them as Graph does; each is kept in the
 * object's budget log, budgetLog.ts, and counted against Meta's 4 budget changes an hour,
 * writeLimits.ts). A write takes effect
 * at once, also on an object that has not started delivering. A parameter the simulator does not
 * write is refused by name — including the read-only fields an SDK object read through a cursor
 * sends back on `update()` — so nothing a client sends is silently dropped. `DELETE /{ad}` deletes
 * an ad; campaigns and ad sets are not deleted in the simulator.
 */
import { edgeParams, enumValues } from '../graphSpec';
import { errorAnswer, type GraphAnswer, type Params } from './answers';
import { budgetBefore, recordBudget } from './budgetLog';
import { budgetWrite } from './budgets';
import { refuseParams } from './params';
import type { SimAd, SimAdSet, SimCampaign, SimStatus, World } from './world';

export interface WriteRecord {
  id: string;
  /** The status written, when the write set one. */
  status?: string;
  /** Every parameter the write set (name, status, daily_budget, lifetime_budget). */
  changed: Record<string, string>;
  /** Simulated moment of the write. */
  at: string;
  /** Real moment the simulator took it (ms precision): Meta's per-second limits count these. */
  receivedAt: string;
}

export type FoundObject =
  | { kind: 'Campaign'; value: SimCampaign }
  | { kind: 'AdSet'; value: SimAdSet }
  | { kind: 'Ad'; value: SimAd };

/** The statuses a write may set (Campaign_status, AdSet_status and Ad_status are the same four). */
const WRITABLE_STATUSES = enumValues('Campaign_status')!;
const WRITTEN: Record<FoundObject['kind'], readonly string[]> = {
  Campaign: ['name', 'status', 'daily_budget', 'lifetime_budget'],
  AdSet: ['name', 'status', 'daily_budget', 'lifetime_budget'],
  Ad: ['name', 'status'],
};
const MAX_NAME_LENGTH = 400;

export function writeObject(world: World, object: FoundObject, params: Params, now: number, log: WriteRecord[]) {
  const { id, ...changes } = params;
  delete changes.access_token;
  if (id !== undefined && id !== object.value.id)
    return errorAnswer(400, 100, `(#100) Param id (${id}) is not the id of the object written (${object.value.id})`);
  const refusal = refuseParams(
    changes,
    `a write to ${object.kind}`,
    WRITTEN[object.kind],
    edgeParams(object.kind, 'POST', '#update'),
  );
  if (refusal) return refusal;
  if (!Object.keys(changes).length)
    return errorAnswer(400, 100, `(#100) Nothing to write: set one of ${WRITTEN[object.kind].join(', ')}`);

  const status = changes.status;
  if (status !== undefined) {
    const refused = statusRefusal(object, status);
    if (refused) return refused;
  }
  const name = changes.name;
  if (name !== undefined && (!name.trim() || name.length > MAX_NAME_LENGTH))
    return errorAnswer(400, 100, `(#100) Param name must be between 1 and ${MAX_NAME_LENGTH} characters`);
  const budget =
    object.kind === 'Ad'
      ? undefined
      : budgetWrite(object.value, changes, (adset) => world.campaigns.get(adset.campaignId)!);
  if (budget && 'status' in budget) return budget;
  if (budget) {
    const refused = world.limits.budgetRefusal(object.value.id, now);
    if (refused) return refused;
  }

  if (name !== undefined) object.value.name = name.trim();
  if (budget && object.kind !== 'Ad') {
    const previous = budgetBefore(object.value);
    if (budget.daily !== undefined) object.value.dailyBudgetCents = budget.daily;
    if (budget.lifetime !== undefined) object.value.lifetimeBudgetCents = budget.lifetime;
    recordBudget(object.value, previous, now);
    world.limits.budgetChanged(object.value.id, now);
  }
  if (name !== undefined || budget) object.value.editedAt = now;
  if (status !== undefined) setStatus(object, status as SimStatus | 'DELETED', now);
  log.push({ id: object.value.id, ...(status ? { status } : {}), changed: changes, ...moments(now) });
  return { status: 200, body: { success: true }, wrote: true };
}

/** `DELETE /{id}`: an ad is deleted (Graph then answers as if it did not exist); nothing else is. */
export function deleteObject(object: FoundObject, params: Params, now: number, log: WriteRecord[]): GraphAnswer {
  const refusal = refuseParams(params, `a delete of ${object.kind}`, []);
  if (refusal) return refusal;
  const refused = statusRefusal(object, 'DELETED');
  if (refused) return refused;
  setStatus(object, 'DELETED', now);
  log.push({ id: object.value.id, status: 'DELETED', changed: { status: 'DELETED' }, ...moments(now) });
  return { status: 200, body: { success: true }, wrote: true };
}

const moments = (now: number) => ({ at: new Date(now).toISOString(), receivedAt: new Date().toISOString() });

function statusRefusal(object: FoundObject, status: string): GraphAnswer | undefined {
  if (!WRITABLE_STATUSES.includes(status))
    return errorAnswer(400, 100, `(#100) Param status must be one of {${WRITABLE_STATUSES.join(', ')}}`, {
      error_subcode: 1815154,
    });
  if (status === 'DELETED' && object.kind !== 'Ad')
    return errorAnswer(400, 100, `(#100) The simulator deletes ads only, not a ${object.kind}`);
  return undefined;
}

function setStatus(object: FoundObject, status: SimStatus | 'DELETED', now: number): void {
  if (status === 'DELETED') {
    (object.value as SimAd).deleted = true;
    return;
  }
  const log = object.value.statusLog;
  while (log.length > 1 && log.at(-1)!.at > now) log.pop();
  log.push({ at: Math.max(now, log.at(-1)!.at), status });
}
