/** Messages of: folders' budget limits, budget changes and the money they move (Preview, runs, held runs). Namespace `budgets`. */
export default {
  budgets: {
    limits: {
      title: 'Budget limits',
      help: 'Whatever its rules say, several rules together included, no daily budget in this folder grows faster than this.',
      growth_24h_pct: 'Growth in 24 hours',
      growth_7d_pct: 'Growth in 7 days',
      significant_pct: 'Significant change',
      significant_help: 'A change this large sends an ad set back into learning',
      settle_hours: 'Hours to settle',
      settle_help: 'No second significant raise within these hours',
      daily_increase_limit: 'Daily increase limit',
      daily_increase_help: 'A run adding more daily budget (with the last 24 hours of raises) waits for approval',
      daily_increase_on: 'Hold runs that add more than this',
      summary:
        'Whatever the rules say: at most +%{growth_24h}% in 24 h, +%{growth_7d}% in 7 days; no second change of %{significant}% or more while learning or within %{settle} h; never a %{meta}th change in an hour (Meta’s limit); %{approval} — change these in the folder’s settings',
      approval: 'a run adding more than %{amount}/day waits for approval',
      no_approval: 'no run waits for approval whatever it adds',
    },
    changes: {
      title: 'Budget changes',
      object: 'Ad set or campaign',
      budget: 'Daily budget',
      asked: 'Asked',
      cut: 'Cut by',
      delta: 'A day',
      not_cut: '—',
      actions: {
        raise_budget: 'Raise',
        lower_budget: 'Lower',
        restore_budget: 'Roll back',
      },
    },
    conditions: {
      title: 'Conditions as judged',
      object: 'Object',
      values: 'Conditions',
      holds: 'holds',
      fails: 'does not hold',
      no_data: 'no data',
    },
    held: {
      money: 'Money at stake: %{money}',
      added: 'Adds %{added}/day with the folder’s raises of the last 24 hours, over its limit of %{limit}/day.',
      added_no_limit: 'Adds %{added}/day with the folder’s raises of the last 24 hours.',
    },
  },
};
