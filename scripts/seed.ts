/**
 * `npm run seed -- --folders 2000 [--rules-per-folder 10] [--accounts 100]`: fills the configured
 * database (DATA_DIR or DATABASE_URL, as `npm start` uses) with folders, rules and ad accounts, to
 * try the general view and measure list calls at scale. Adds to what is there; never deletes.
 */
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { folders, ruleItems, rules } from '../server/db/schema/index';
import { CAMPAIGN_NAME_OPTIONS, CLIENT_TYPES, PLANS } from '../src/domain/constants';
import { FILTER_NAMES, TASK_NAMES, defaultFilters, defaultTasks } from '../src/domain/rules';
import { defaultAlertDay, defaultWeek } from '../src/domain/schedule';

const ZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'America/Phoenix'];
const FIRMS = ['Harbor', 'Summit', 'Oak', 'Granite', 'Beacon', 'Cedar', 'Liberty', 'Pioneer', 'Keystone', 'Meridian'];
const KINDS = ['Wealth', 'Advisors', 'Financial', 'Retirement Partners', 'Planning Group'];

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index > 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
  return value;
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

async function main() {
  const folderCount = option('folders', 200);
  const rulesPerFolder = option('rules-per-folder', 10);
  const accountCount = Math.max(1, option('accounts', Math.min(100, Math.ceil(folderCount / 20))));
  const config = loadConfig();
  const dbh = await openDatabase(config);
  await dbh.migrate();
  const started = Date.now();
  const run = started.toString(36);

  const accountIds: string[] = [];
  for (let i = 0; i < accountCount; i += 1) {
    const id = `act_9${String(started % 1e9).padStart(9, '0')}${String(i).padStart(4, '0')}`;
    accountIds.push(id);
    const name = `${FIRMS[i % FIRMS.length]} ${KINDS[Math.floor(i / FIRMS.length) % KINDS.length]} ${i + 1}`;
    await dbh.sql.query(
      'insert into meta_ad_accounts (ad_account_id, account_name, timezone_name) values ($1, $2, $3) on conflict do nothing',
      [id, name, ZONES[i % ZONES.length]],
    );
  }

  let ruleTotal = 0;
  for (const batch of chunks(
    Array.from({ length: folderCount }, (_, i) => i),
    200,
  )) {
    const created = await dbh.db
      .insert(folders)
      .values(
        batch.map((i) => ({
          name: `${FIRMS[i % FIRMS.length]} ${KINDS[i % KINDS.length]} client ${run}-${i + 1}`,
          clientType: CLIENT_TYPES[i % CLIENT_TYPES.length]!,
          plan: PLANS[i % PLANS.length]!.value,
          adAccountId: accountIds[i % accountIds.length]!,
        })),
      )
      .returning({ id: folders.id, adAccountId: folders.adAccountId });
    const ruleRows = created.flatMap((folder, f) =>
      Array.from({ length: rulesPerFolder }, (_, r) => ({
        folderId: folder.id,
        name: `${CAMPAIGN_NAME_OPTIONS[(f + r) % CAMPAIGN_NAME_OPTIONS.length]}: Pause ad CPL > $${40 + r * 5}`,
        isActive: false,
        schedule: defaultWeek(),
        timezone: ZONES[(f + r) % ZONES.length]!,
        alertSchedule: defaultAlertDay(),
      })),
    );
    for (const ruleBatch of chunks(ruleRows, 500)) {
      const inserted = await dbh.db.insert(rules).values(ruleBatch).returning({ id: rules.id });
      const items = inserted.flatMap(({ id }) => [
        ...defaultFilters().map((item) => ({
          ruleId: id,
          type: item.type,
          name: item.name,
          values: item.values,
          isActive: item.is_active,
          position: FILTER_NAMES.indexOf(item.name),
        })),
        ...defaultTasks().map((item) => ({
          ruleId: id,
          type: item.type,
          name: item.name,
          values: item.values,
          isActive: item.is_active,
          position: TASK_NAMES.indexOf(item.name),
        })),
      ]);
      for (const itemBatch of chunks(items, 2000)) await dbh.db.insert(ruleItems).values(itemBatch);
      ruleTotal += inserted.length;
    }
    process.stdout.write(`\r${Math.min(batch[batch.length - 1]! + 1, folderCount)} / ${folderCount} folders`);
  }
  await dbh.sql.exec('analyze');
  console.log(
    `\nSeeded ${folderCount} folders, ${ruleTotal} rules and ${accountCount} ad accounts in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  await dbh.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
