/**
 * react-query keys of the custom pages' data. Each starts with the resource name, as react-admin's
 * own keys do (`['rule', 'getOne', {id}]`), so invalidating `['rule']` reaches both.
 */
export const queryKeys = {
  folders: ['general_page'] as const,
  folderPages: (search: string) => ['general_page', 'pages', { search }] as const,
  trash: ['trash_page'] as const,
  trashPages: (search: string, ordering: string) => ['trash_page', 'pages', { search, ordering }] as const,
  rules: ['rule'] as const,
  timezones: ['rule', 'timezones'] as const,
  adAccounts: ['meta_ad_account', 'options'] as const,
  activity: ['activity'] as const,
  /** A rule's runs (the editor's Runs panel) and single runs, apart from `['rule']` so the editor's rule is not reloaded. */
  runs: ['rule_runs'] as const,
  runPages: (ruleId: number, offset: number) => ['rule_runs', 'list', ruleId, offset] as const,
  run: (runId: number) => ['rule_runs', 'one', runId] as const,
  exemptions: (ruleId: number) => ['rule_exemptions', ruleId] as const,
  pendingEmailChange: (userId: number) => ['team', 'email_change', userId] as const,
  /** The accesses a group can hold: fixed while the server runs. */
  availablePermissions: ['permissions', 'available_permissions'] as const,
  /** The platform's health (the health panel) and one account's (the editor's lead-lag hint). */
  platformHealth: ['platform_health'] as const,
  accountHealth: (adAccountId: string) => ['platform_health', adAccountId] as const,
  ruleConflicts: (ruleId: number) => ['rule', 'conflicts', ruleId] as const,
  /** A backtest job, asked again while it runs (Try on history). */
  backtest: (jobId: string) => ['backtests', jobId] as const,
  /** A page of a finished backtest's pauses. */
  backtestPauses: (jobId: string, offset: number) => ['backtests', jobId, 'pauses', offset] as const,
  /** A folder's CRM lead outcomes by stage and its key's state. */
  leadOutcomes: (folderId: number) => ['general_page', 'lead_outcomes', folderId] as const,
  /** A folder's outcomes summed over its ad account's campaigns (the folder row's figures). */
  folderOutcomes: (folderId: number) => ['general_page', 'outcomes', folderId] as const,
  /** A campaign's webinar dates and the Demio dates offered (the event date dialog). */
  campaignEventDates: (campaignId: string) => ['campaigns', 'event_dates', campaignId] as const,
  /** The agency overview (every live folder with what needs a person). */
  overview: ['overview'] as const,
  /** Screen state kept for the session, under no resource, so no invalidation reaches it. */
  generalView: ['view', 'general'] as const,
};
