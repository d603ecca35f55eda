export const i18n = {
  resources: {
    approvals: {
      name: 'Approval |||| Approvals',
      page: 'Approvals',
      empty: 'Nothing is waiting for your approval.',
      about:
        'A run that would change more than the engine’s limits allow is held here until someone approves or dismisses it. You see the held runs of the folders you may edit rules in.',
      money: '%{amount}/day at stake',
      spend_stopped: 'Stops %{amount}/day of spend',
      spend_stopped_estimated: 'Stops about %{amount}/day of spend (estimated: less than a day of readings)',
      budget_added: 'Adds %{amount}/day of budget',
      objects: '%{smart_count} object |||| %{smart_count} objects',
      more_objects: '… and %{smart_count} more',
      held_because: 'Held: %{reason}',
      waited: 'Waiting %{time}',
      open_run: 'Open run %{id} of %{rule} in the rule editor',
      fields: {
        money: 'Money at stake',
        rule: 'Rule / Folder',
        objects: 'What it would change',
        waited: 'Waiting',
        decision: 'Decision',
      },
      changes: {
        turn_off_ad: 'turn off ad',
        turn_off_campaign: 'turn off campaign',
        raise_budget: 'raise budget',
        lower_budget: 'lower budget',
        restore_budget: 'restore budget',
      },
    },
  },
};
