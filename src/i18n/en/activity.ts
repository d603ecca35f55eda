/** Messages of: Activity (rule log), Run now, Preview, Undo. Namespace `activity` (resource labels go under `resources.<name>`). */
import { TASKS } from '../../../shared/ruleCatalog';

export default {
  activity: {
    /** Task names as the task cards word them (docs/contract.md#constants), for the preview's Task column. */
    // A rule's conditions and action judge like a task: a run record names them as one.
    tasks: { ...Object.fromEntries(TASKS.map((t) => [t.name, t.wording])), conditions: 'Conditions and action' },
    undone: 'undone',
    system: 'Rule engine',
    undo: {
      button: 'Undo',
      label: 'Undo: turn %{name} back on',
      title: 'Turn %{name} back on?',
      content:
        'The %{object} %{what} is turned back on in the ad platform, and rule "%{rule}" of %{folder} leaves it alone from now on, so the two do not flap it off and on. The exemption can be removed later from the undo entry.',
      done: 'Turned back on. The rule leaves it alone until the exemption is removed.',
      confirm: 'Turn back on',
    },
    exemption: {
      button: 'Let the rule act again',
      label: 'Remove the exemption of %{id} from rule "%{rule}"',
      done: 'Exemption removed: the rule can turn it off again.',
    },
    preview: {
      button: 'Preview',
      label: 'Preview what %{name} would turn off',
      label_changes: 'Preview what %{name} would change',
      title: 'Preview: %{name}',
      total: 'Would turn off %{count} of %{delivering} delivering ads',
      intro: 'What the rule would turn off right now in %{account}, and why. Nothing is changed.',
      intro_budget: 'What the rule would change right now in %{account}, and why. Nothing is changed.',
      loading: 'Asking the ad platform…',
      nothing: 'Nothing crosses the thresholds right now: the rule would turn nothing off.',
      exempt: 'Left alone because a user undid the rule’s turn-off: %{ids}',
      problems: 'Not checked: %{problems}',
      columns: { action: 'Action', id: 'Ad or campaign', task: 'Task', info: 'Info' },
      /** The phone's cards in place of the table: the list's name, and the task's line on a card. */
      cards: 'What the rule would do',
      card_task: 'Task: %{task}',
    },
    /** Action column wording where underscores alone would not read clearly. */
    actions: {
      would_turn_off_ad: 'Would turn off ad',
      would_turn_off_campaign: 'Would turn off campaign',
      run_held: 'Run held for approval',
      run_held_approved: 'Held run, approved',
      run_held_dismissed: 'Held run, dismissed',
      paused_by_meta: 'Paused by Meta',
      raise_budget: 'Budget raised',
      lower_budget: 'Budget lowered',
      restore_budget: 'Budget rolled back',
      rule_turn_on_ad: 'Turned on ad',
      rule_turn_on_campaign: 'Turned on campaign',
    },
    /** What a decided held run's planned turn-offs became (replaces "waiting for approval"). */
    planned_decided: {
      approved: 'approved',
      dismissed: 'dismissed: nothing turned off',
    },
    /** What a decided held run's budget changes became (replaces "waiting for approval"). */
    budgets_decided: {
      approved: 'approved',
      dismissed: 'dismissed: no budget changed',
    },
    notify_only: 'Notify only',
    open_run: 'Open the run',
    open_run_label: 'Open run %{id} in the rule editor',
    held: {
      approve: 'Approve',
      dismiss: 'Dismiss',
      approve_label: 'Approve the held changes of run %{id}',
      dismiss_label: 'Dismiss the held changes of run %{id}',
      approve_title: 'Carry out the held changes?',
      approve_content:
        'Every planned turn-off whose ad or campaign is still delivering (and not exempt), and every planned budget change whose budget has not moved since, is carried out now, once.',
      approved: 'Approved',
      dismissed: 'Dismissed',
      pending: 'Waiting for approval',
      decided_by: '%{decision} by %{name}',
      approve_done: 'Approved: %{smart_count} turned off |||| Approved: %{smart_count} turned off',
      approve_done_budgets:
        'Approved: %{smart_count} turned off; budget changes made: %{budgets} |||| Approved: %{smart_count} turned off; budget changes made: %{budgets}',
      dismiss_done: 'Dismissed: nothing is turned off.',
    },
    run: {
      button: 'Run now',
      label: 'Run now: %{name}',
      title: 'Run "%{name}" now?',
      done_title: 'Ran "%{name}"',
      content:
        'The rule checks its ad account now and turns off every ad or campaign that crosses its thresholds, outside its schedule.',
      checking: 'Checking what the run would do…',
      plan_ads: '%{smart_count} ad |||| %{smart_count} ads',
      plan_campaigns: '%{smart_count} campaign |||| %{smart_count} campaigns',
      plan_and: ' and ',
      plan_off: 'Turn off %{what}',
      plan_budgets: 'Change %{smart_count} budget: %{money} |||| Change %{smart_count} budgets: %{money}',
      plan_share: '%{affected} of %{delivering} delivering ads in %{account}, as the numbers stand now.',
      plan_list: 'What the run would turn off',
      plan_more: '… and %{smart_count} more',
      plan_nothing: 'Nothing crosses the thresholds right now: the run would turn nothing off.',
      plan_acts: 'The run acts at once, outside the rule’s schedule.',
      plan_held:
        'Over the blast-radius limit: the run will be held for approval and change nothing until someone approves it. It %{summary}.',
      plan_notify_only: 'The rule is notify only: the run turns nothing off, and Activity lists what it would have.',
      plan_unknown: 'What the run would do could not be checked first: %{problem}',
      confirm: 'Run now',
      running: 'Running the rule…',
      result: '%{smart_count} turned off |||| %{smart_count} turned off',
      result_failed: '%{smart_count} could not be turned off |||| %{smart_count} could not be turned off',
      nothing: 'Nothing crossed the thresholds: nothing was turned off.',
      busy: 'This rule is already running.',
      notify_only: 'The rule is notify only: nothing was turned off. Activity lists what it would have turned off.',
      held: 'Nothing was changed: the run is held for approval. Approve or dismiss it in Activity or in the rule’s Runs panel.',
      open_activity: 'Open Activity',
      /** The phone's cards of what the run did, in place of the table. */
      cards: 'What the run did',
    },
    close: 'Close',
    cancel: 'Cancel',
  },
};
