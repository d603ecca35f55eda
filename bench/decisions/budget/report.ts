/** The budget section's goals and its markdown report (docs/bench.md). */
import os from 'node:os';
import type { BudgetOptions } from './drive';
import type { BudgetCounts } from './tally';

/** What a run did beside the counts: the runs, and how long it took. */
export interface BudgetRunFacts {
  runs: number;
  runs_failed: number;
  runs_held: number;
  seconds: number;
}

export interface BudgetDatabaseResult {
  database: 'pglite' | 'postgres';
  naive: BudgetCounts;
  safe: BudgetCounts;
  facts: { naive: BudgetRunFacts; safe: BudgetRunFacts };
}

export interface BudgetGoal {
  /** The safe run's value, or its ratio to the naive run's (null: the naive run had none). */
  value: number | null;
  goal: string;
  met: boolean;
}

const ratio = (safe: number, naive: number) => (naive > 0 ? Math.round((safe / naive) * 1000) / 1000 : null);

export function budgetGoals(r: Pick<BudgetDatabaseResult, 'naive' | 'safe'>): Record<string, BudgetGoal> {
  const spendRatio = ratio(r.safe.spend_over_target, r.naive.spend_over_target);
  const leadsRatio = ratio(r.safe.leads_at_target, r.naive.leads_at_target);
  return {
    limit_errors: { value: r.safe.limit_errors, goal: 'safe = 0', met: r.safe.limit_errors === 0 },
    max_growth_24h: { value: r.safe.max_growth_24h, goal: 'safe ≤ 0.5', met: r.safe.max_growth_24h <= 0.5 },
    spend_over_target: {
      value: spendRatio,
      goal: 'safe ≤ 0.3 × naive',
      met: spendRatio === null ? r.safe.spend_over_target === 0 : spendRatio <= 0.3,
    },
    leads_at_target: {
      value: leadsRatio,
      goal: 'safe ≥ 0.9 × naive',
      met: leadsRatio === null ? true : leadsRatio >= 0.9,
    },
  };
}

const money = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
const whole = (n: number) => n.toLocaleString('en-US');
const pct = (n: number) => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(1)} %`;

function table(r: BudgetDatabaseResult): string[] {
  const row = (label: string, f: (c: BudgetCounts) => string) => `| ${label} | ${f(r.naive)} | ${f(r.safe)} |`;
  const fact = (label: string, f: (c: BudgetRunFacts) => string) =>
    `| ${label} | ${f(r.facts.naive)} | ${f(r.facts.safe)} |`;
  return [
    `| ${r.database} | naive | safe |`,
    '|---|---:|---:|',
    row('budget changes', (c) => whole(c.changes)),
    row('Meta limit errors (613)', (c) => whole(c.limit_errors)),
    row('largest growth of a daily budget in 24 h', (c) => pct(c.max_growth_24h)),
    row('raises rolled back', (c) => whole(c.rolled_back)),
    row('leads at or under target', (c) => whole(c.leads_at_target)),
    row('spend added on ad sets over target', (c) => money(c.spend_over_target)),
    fact('runs (failed, held)', (f) => `${whole(f.runs)} (${f.runs_failed}, ${f.runs_held})`),
    fact('seconds', (f) => String(f.seconds)),
  ];
}

export function renderBudget(results: BudgetDatabaseResult[], o: BudgetOptions, startedAt: Date): string {
  const cpus = os.cpus();
  const goals = budgetGoals(results[0]!);
  const adsets = o.accounts * o.campaignsPerAccount * o.adsetsPerCampaign;
  const met = (g: BudgetGoal) => (g.met ? 'pass' : '**fail**');
  const shown = (g: BudgetGoal) => (g.value === null ? '—' : String(g.value));
  return [
    `# Decisions bench: budget rules — ${startedAt.toISOString()}`,
    '',
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, Node ${process.versions.node}; ran on ${results.map((r) => r.database).join(' and ')}. ` +
      `${o.accounts} ad accounts × ${o.campaignsPerAccount} campaigns × ${o.adsetsPerCampaign} ad sets = ${whole(adsets)} ad sets ($30–$80 a day; a few campaign and lifetime budgets), ` +
      `half on website leads (late), true CPL drawn around the $${o.target} target; ${o.days} simulated days, the rules every ${o.everyHours} h (seed ${o.seed}). ` +
      `Per folder: raise ${o.percent} % at CPL (last 3 days) < $${o.target} with ≥ 3 leads, lower ${o.percent} % at CPL (last 3 days) > $${o.target}. ` +
      `naive: no ceilings, no maturity, no lag allowance, no roll-back; safe: the folder's default budget limits, 24 h / 1,000 impressions, lag allowance ${o.lagHours} h, roll-back on. ` +
      'How to read this: docs/bench.md.',
    '',
    ...results.flatMap((r) => [...table(r), '']),
    '| goal | value | met |',
    '|---|---:|---|',
    ...Object.entries(goals).map(([name, g]) => `| ${name}: ${g.goal} | ${shown(g)} | ${met(g)} |`),
    '',
  ].join('\n');
}
