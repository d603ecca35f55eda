/**
 * `npm run bench -- --walk`: every combination of parameters the list screens can send — each sort
 * column both ways, each filter family, each page size, the first page and the 50th — against an
 * idle app at full size, each request reading the database; reports the slowest and how many took
 * longer than 200 ms. Writes bench/results/walk-latest.md and the "walk" section of latest.json.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type DbHandle } from '../server/db/client';
import { benchApp } from './app';
import { mergeLatestSection } from './latestJson';
import { median } from './load/drive';
import {
  ACTIVITY_SORTS,
  ACTIVITY_WORDS,
  CAMPAIGN_PAGE_SIZES,
  CAMPAIGN_SORTS,
  LOG_PAGE_SIZES,
  LOG_SORTS,
  TEAM_PAGE_SIZES,
  TEAM_SORTS,
} from './mixed/screens';
import { trafficFacts, type Family, type TrafficFacts } from './mixed/traffic';

export const WALK_USAGE = `npm run bench -- --walk [flags]
  --postgres-seeded URL  a PostgreSQL database filled by npm run seed (read only; one bench user is added)
  --pglite-seeded DIR    a DATA_DIR filled by npm run seed (copied first)
  --limit-ms N           the goal for one request (default 200)
  --only TEXT            only requests whose URL contains TEXT`;

const LIMIT_MS = 200;

/** The filters a history screen (Log, Activity) can send, from the seeded data. */
function historyFilters(facts: TrafficFacts, activity: boolean): string[] {
  const enc = encodeURIComponent;
  const folder = facts.liveFolders[Math.floor(facts.liveFolders.length / 2)]!;
  const searches = [folder.name, folder.name.split(' ')[0]!, facts.actorNames[0]!.split(' ')[0]!, facts.ruleNames[0]!];
  if (activity) searches.push(...ACTIVITY_WORDS);
  return [
    '',
    ...searches.map((s) => `&search=${enc(s)}`),
    `&rule_id_in=${facts.ruleIds.slice(100, 103).join(',')}`,
    `&folder_id_in=${facts.liveFolders
      .slice(50, 53)
      .map((f) => f.id)
      .join(',')}`,
    ...(activity ? [`&ad_id_in=${facts.adIds.slice(0, 3).join(',')}`] : []),
  ];
}

function campaignFilters(facts: TrafficFacts): string[] {
  const enc = encodeURIComponent;
  const surname = facts.liveFolders[Math.floor(facts.liveFolders.length / 2)]!.name.split(' ')[0]!;
  return [
    '',
    '&campaign_name=TIR-W',
    `&campaign_name=${enc(surname)}`,
    `&meta_ad_account=${facts.adAccountIds[500]}`,
    `&meta_ad_account=${enc(surname)}`,
    `&campaign_id__in=${facts.campaignIds.slice(0, 3).join(',')}`,
    `&event_type__in=${enc(facts.topics.slice(0, 2).join(','))}`,
    '&is_webinar=true',
    '&is_webinar=false',
    '&event_date_after=2025-03-01&event_date_before=2025-03-31',
    '&end_date_after=2025-03-01&end_date_before=2025-03-31',
    '&spend_range_min=100&spend_range_max=150',
    '&cpl_annotation_min=20&cpl_annotation_max=40',
    '&ctr_annotation_min=1&ctr_annotation_max=2',
    '&cpc_annotation_min=1&cpc_annotation_max=2',
  ];
}

const both = (keys: string[]) => keys.flatMap((k) => [k, `-${k}`]);

/** The date column (the first of `sorts`) with each other column, either first, in every direction. */
const twoColumnSorts = ([date, ...others]: string[]) =>
  both(others).flatMap((other) => both([date!]).flatMap((d) => [`${d},${other}`, `${other},${d}`]));

/** Every request of the parameter space, by family. */
export function parameterSpace(facts: TrafficFacts): { family: Family; url: string }[] {
  const out: { family: Family; url: string }[] = [];
  const enc = encodeURIComponent;
  const add = (family: Family, url: string) => out.push({ family, url });
  const folder = facts.liveFolders[Math.floor(facts.liveFolders.length / 2)]!;
  for (const search of ['', folder.name, folder.name.split(' ')[0]!, 'zzz-nothing'])
    for (const offset of [0, Math.min(49 * 20, Math.floor((facts.liveFolderCount - 1) / 20) * 20)])
      add('general_page', `/api/general_page/?limit=20&offset=${offset}${search ? `&search=${enc(search)}` : ''}`);
  const trashed = facts.trashedFolders[0]!.name;
  for (const search of ['', trashed, trashed.split(' ')[0]!])
    for (const offset of [0, Math.min(490, Math.floor((facts.trashedFolderCount - 1) / 10) * 10)])
      add(
        'trash_page',
        `/api/trash_page/?limit=10&offset=${offset}&ordering=-trashed_at${search ? `&search=${enc(search)}` : ''}`,
      );
  const history = (family: Family, base: string, sorts: string[], activity: boolean) => {
    for (const ordering of both(sorts))
      for (const filter of historyFilters(facts, activity))
        for (const limit of LOG_PAGE_SIZES)
          for (const page of [0, 49])
            add(family, `${base}?limit=${limit}&offset=${page * limit}&ordering=${ordering}${filter}`);
    // Sorted by two columns (the screens' header adds a clicked column after the date they start
    // sorted by, or before it once the date's sort is clicked away), at the largest page size.
    const limit = LOG_PAGE_SIZES.at(-1)!;
    for (const ordering of twoColumnSorts(sorts))
      for (const filter of historyFilters(facts, activity))
        for (const page of [0, 49])
          add(family, `${base}?limit=${limit}&offset=${page * limit}&ordering=${ordering}${filter}`);
  };
  history('log', '/api/log/', LOG_SORTS, false);
  history('activity', '/api/rule_log/', ACTIVITY_SORTS, true);
  for (const ordering of both(CAMPAIGN_SORTS))
    for (const filter of campaignFilters(facts))
      for (const limit of CAMPAIGN_PAGE_SIZES)
        for (const page of [0, 49])
          add('campaigns', `/api/campaigns/?limit=${limit}&offset=${page * limit}&ordering=${ordering}${filter}`);
  for (const ordering of both(TEAM_SORTS))
    for (const limit of TEAM_PAGE_SIZES)
      for (const search of ['', facts.actorNames[0]!.split(' ')[0]!])
        add('team', `/api/user/?limit=${limit}&offset=0&ordering=${ordering}${search ? `&search=${enc(search)}` : ''}`);
  return out;
}

async function openSeeded(argv: string[]): Promise<{ dbh: DbHandle; label: string; dispose(): Promise<void> }> {
  const flag = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const url = flag('postgres-seeded');
  if (url) return { dbh: await openPostgres(url, 2), label: 'postgres', dispose: async () => undefined };
  const dir = flag('pglite-seeded');
  if (!dir) throw new Error(`--walk needs a seeded database\n\n${WALK_USAGE}`);
  const copy = await mkdtemp(path.join(os.tmpdir(), 'ad-rules-walk-'));
  await cp(path.join(dir, 'pgdata'), path.join(copy, 'pgdata'), { recursive: true });
  return {
    dbh: await openPglite(path.join(copy, 'pgdata')),
    label: 'pglite',
    dispose: () => rm(copy, { recursive: true, force: true }),
  };
}

export async function runWalk(argv: string[], log: (line: string) => void): Promise<void> {
  if (argv.includes('--help')) return void console.log(WALK_USAGE);
  const limitIndex = argv.indexOf('--limit-ms');
  const limitMs = limitIndex >= 0 ? Number(argv[limitIndex + 1]) : LIMIT_MS;
  const onlyIndex = argv.indexOf('--only');
  const only = onlyIndex >= 0 ? argv[onlyIndex + 1] : undefined;
  const seeded = await openSeeded(argv);
  const loadBefore = os.loadavg()[0]!;
  try {
    await seeded.dbh.migrate();
    const facts = await trafficFacts(seeded.dbh);
    const requests = parameterSpace(facts).filter((r) => !only || r.url.includes(only));
    const app = await benchApp(seeded.dbh);
    const timed: { family: Family; url: string; ms: number }[] = [];
    const started = performance.now();
    try {
      log(`${seeded.label}: ${requests.length} requests, each once untimed, then timed`);
      for (const [index, request] of requests.entries()) {
        await app.get(request.url);
        const once = async () => {
          const t = performance.now();
          await app.get(request.url);
          return performance.now() - t;
        };
        let ms = await once();
        // A slow one is timed twice more: its median is what counts, not a moment of load.
        if (ms > limitMs * 0.75) ms = median([ms, await once(), await once()]);
        timed.push({ ...request, ms });
        if (ms > limitMs) log(`  ${ms.toFixed(0)} ms ${request.url}`);
        if ((index + 1) % 250 === 0) log(`  ${index + 1} / ${requests.length}`);
      }
    } finally {
      await app.close();
    }
    timed.sort((a, b) => b.ms - a.ms);
    const over = timed.filter((t) => t.ms > limitMs);
    const byFamily = Object.fromEntries(
      [...new Set(timed.map((t) => t.family))].map((family) => {
        const mine = timed.filter((t) => t.family === family);
        return [
          family,
          {
            requests: mine.length,
            slowest_ms: Number(mine[0]!.ms.toFixed(1)),
            over_limit: mine.filter((t) => t.ms > limitMs).length,
          },
        ];
      }),
    );
    const markdown = [
      `# Parameter walk — ${new Date().toISOString()} (${seeded.label})`,
      '',
      `${timed.length} requests (every sort both ways × filter family × page size × first and 50th page; Log and Activity ` +
        `also sorted by the date and another column, either first, at 100 a page), each reading ` +
        `the database on an idle in-process app, in ${Math.round((performance.now() - started) / 1000)} s; load average ` +
        `${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after. Goal: every one within ${limitMs} ms.`,
      '',
      `**Slowest: ${timed[0]?.ms.toFixed(1)} ms** (${timed[0]?.url}); **${over.length} over ${limitMs} ms**.`,
      '',
      '| Family | Requests | Slowest ms | Over the goal |',
      '| --- | ---: | ---: | ---: |',
      ...Object.entries(byFamily).map(([f, s]) => `| ${f} | ${s.requests} | ${s.slowest_ms} | ${s.over_limit} |`),
      '',
      'The 25 slowest:',
      '',
      '| ms | Request |',
      '| ---: | --- |',
      ...timed.slice(0, 25).map((t) => `| ${t.ms.toFixed(1)} | \`${t.url}\` |`),
      '',
    ].join('\n');
    await mkdir('bench/results', { recursive: true });
    await writeFile(path.join('bench/results', `walk-${seeded.label}-latest.md`), markdown);
    await mergeLatestSection(path.join('bench/results', 'latest.json'), 'walk', {
      [seeded.label]: {
        requests: timed.length,
        slowest_ms: Number(timed[0]!.ms.toFixed(1)),
        slowest_url: timed[0]!.url,
        over_limit: over.length,
        limit_ms: limitMs,
        families: byFamily,
      },
    });
    console.log(markdown);
  } finally {
    await seeded.dbh.close();
    await seeded.dispose();
  }
}
