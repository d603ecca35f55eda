/** Messages of: Activity (rule log), Run now, Preview, Undo. Namespace `activity` (resource labels go under `resources.<name>`). */
import { TASKS } from '../../domain/rules';

export default {
  activity: {
    /** Task names as the task cards word them (SPEC §9), for the preview's Task column. */
    tasks: Object.fromEntries(TASKS.map((t) => [t.name, t.wording])),
    undone: 'undone',
    system: 'Rule engine',
    undo: {
      button: 'Undo',
      label: 'Undo: turn %{id} back on',
      title: 'Turn %{id} back on?',
      content:
        'The %{object} is turned back on in the ad platform, and rule "%{rule}" leaves it alone from now on, so the two do not flap it off and on. The exemption can be removed later from the undo entry.',
      done: 'Turned back on. The rule leaves it alone until the exemption is removed.',
      confirm: 'Turn back on',
    },
    exemption: {
      button: 'Let the rule act again',
      label: 'Remove the exemption of %{id} from rule "%{rule}"',
      done: 'Exemption removed: the rule can turn it off again.',
    },
    run: {
      button: 'Run now',
      label: 'Run %{name} now',
      title: 'Run "%{name}" now?',
      done_title: 'Ran "%{name}"',
      content:
        'The rule checks its ad account now and turns off every ad or campaign that crosses its thresholds, outside its schedule.',
      confirm: 'Run now',
      running: 'Running the rule…',
      result: '%{smart_count} turned off |||| %{smart_count} turned off',
      result_failed: '%{smart_count} could not be turned off |||| %{smart_count} could not be turned off',
      nothing: 'Nothing crossed the thresholds: nothing was turned off.',
      busy: 'This rule is already running.',
      open_activity: 'Open Activity',
    },
    preview: {
      button: 'Preview',
      label: 'Preview what %{name} would turn off',
      title: 'Preview: %{name}',
      intro: 'What the rule would turn off right now in %{account}, and why. Nothing is changed.',
      loading: 'Asking the ad platform…',
      nothing: 'Nothing crosses the thresholds right now: the rule would turn nothing off.',
      exempt: 'Left alone because a user undid the rule’s turn-off: %{ids}',
      problems: 'Not checked: %{problems}',
      columns: { action: 'Action', id: 'ID', task: 'Task', info: 'Info' },
    },
    close: 'Close',
    cancel: 'Cancel',
  },
};
