/**
 * The fleet bench's history: many ad accounts, one folder and one saved rule each, every account
 * with its own number of ads (4 to 20) and `days + 3` days of hourly readings written through the
 * history's own bulk writer. Each ad is a steady spender — most bring leads at their own cost, some
 * never do — its rate and cost shifted by the account, so thresholds cut differently account by account.
 */
import type { Database } from '../../server/db/client';
import { folders, metaAdAccounts, rules } from '../../server/db/schema/index';
import { DAY_MS } from '../../server/history/reading';
import { writeNames, writeSettledDays, type AdNaming, type SettledDay } from '../../server/history/store';
import { CARRIED_OVER_JUDGING } from '../../shared/judging';
import { cplOf, steadySpenderDays, steadySpenderName } from './history';

/** Ads of the account at this index: 4 to 20, about 12 on average. */
export const adsOfAccount = (account: number) => 4 + ((account * 7) % 17);

export interface SeededFleet {
  folders: { folderId: number; ruleId: number; adAccountId: string }[];
  ads: number;
  adDays: number;
}

const INSERT_CHUNK = 500;

export async function seedFleetHistory(
  db: Database,
  accounts: number,
  days: number,
  now: Date,
  schedule: boolean[][],
  onProgress?: (done: number) => void,
): Promise<SeededFleet> {
  const accountIds = Array.from({ length: accounts }, (_, a) => `act_fleet_${a}`);
  const made: SeededFleet['folders'] = [];
  for (let from = 0; from < accounts; from += INSERT_CHUNK) {
    const ids = accountIds.slice(from, from + INSERT_CHUNK);
    await db
      .insert(metaAdAccounts)
      .values(
        ids.map((adAccountId, i) => ({ adAccountId, accountName: `Fleet client ${from + i}`, timezoneName: 'UTC' })),
      );
    const madeFolders = await db
      .insert(folders)
      .values(
        ids.map((adAccountId, i) => ({ name: `Fleet ${from + i}`, clientType: 'EDM', plan: 'solo', adAccountId })),
      )
      .returning({ id: folders.id, adAccountId: folders.adAccountId });
    const madeRules = await db
      .insert(rules)
      .values(
        madeFolders.map((f) => ({
          folderId: f.id,
          name: 'Fleet rule',
          isActive: true,
          schedule,
          judging: CARRIED_OVER_JUDGING,
          alertSchedule: Array(24).fill(false),
          timezone: 'UTC',
        })),
      )
      .returning({ id: rules.id, folderId: rules.folderId });
    for (const [i, f] of madeFolders.entries())
      made.push({ folderId: f.id, ruleId: madeRules[i]!.id, adAccountId: f.adAccountId });
  }
  const firstDay = Math.floor(now.getTime() / DAY_MS) - days - 2;
  let ads = 0;
  let adDays = 0;
  for (const [a, adAccountId] of accountIds.entries()) {
    const rows: SettledDay[] = [];
    const names: AdNaming[] = [];
    for (let i = 0; i < adsOfAccount(a); i += 1) {
      const adId = `f${a}_ad${i}`;
      const campaignId = `f${a}_c${Math.floor(i / 6)}`;
      names.push(steadySpenderName(adId, i, campaignId));
      rows.push(
        ...steadySpenderDays({
          adId,
          campaignId,
          spendPerHour: 1 + ((i + a) % 5),
          cpl: cplOf(i * 3 + a),
          firstDay,
          days,
        }),
      );
    }
    await writeSettledDays(db, adAccountId, rows);
    await writeNames(db, adAccountId, names, now);
    ads += names.length;
    adDays += rows.length;
    if ((a + 1) % 100 === 0) onProgress?.(a + 1);
  }
  return { folders: made, ads, adDays };
}
