/**
 * Every API path the browser app calls (docs/contract.md#calls, docs/contract.md#conventions), in one module, so the app can point
 * at another backend of the same contract by editing only this file.
 */
type Id = string | number;

/** The API host; empty means the same origin that served the app. */
export const API_URL: string = import.meta.env.VITE_API_URL ?? '';

const api = (path: string) => `${API_URL}/api/${path}`;

export const paths = {
  // session
  token: api('token/'),
  tokenRefresh: api('token/refresh/'),
  tokenLogout: api('token/logout/'),
  me: api('user/me/'),

  // people
  users: api('user/'),
  user: (id: Id) => api(`user/${id}/`),
  userSetGroup: (id: Id, groupId: Id) => api(`user/${id}/set_group/${groupId}/`),
  changePassword: api('user/change_password/'),
  passwordResetRequest: api('user/send_password_reset/'),
  passwordResetConfirm: api('user/set_password_reset/'),
  emailChangeConfirm: api('user/confirm_email_change/'),
  /** The account's e-mail change waiting for confirmation: GET it, DELETE withdraws it. */
  emailChangePending: (id: Id) => api(`user/${id}/email_change/`),
  groups: api('groups/'),
  group: (id: Id) => api(`groups/${id}/`),
  availablePermissions: api('groups/available_permissions/'),
  inviteSend: api('user_invite/send_invite_code/'),
  inviteConfirm: api('user_invite/'),
  invitationsPending: api('user_invite/'),
  invitationResend: (id: Id) => api(`user_invite/${id}/resend/`),
  invitation: (id: Id) => api(`user_invite/${id}/`),

  // folders and rules
  generalPage: api('general_page/'),
  generalPageFolder: (id: Id) => api(`general_page/${id}/`),
  folderMoveToTrash: (id: Id) => api(`folders/${id}/move_to_trash/`),
  folderRestore: (id: Id) => api(`folders/${id}/restore/`),
  rule: (id: Id) => api(`rule/${id}/`),
  ruleCreate: api('rule/'),
  ruleTimezones: api('rule/get_timezones/'),
  ruleDuplicate: (id: Id) => api(`rules/${id}/duplicate_rule/`),
  ruleMoveToTrash: (id: Id) => api(`rules/${id}/move_to_trash/`),
  ruleRestore: (id: Id) => api(`rules/${id}/restore/`),
  ruleDelete: (id: Id) => api(`rules/${id}/`),
  trash: api('trash_page/'),
  trashFolder: (id: Id) => api(`trash_page/${id}/`),
  /** A folder's CRM lead outcomes: the summary, the CSV upload, its key (POST makes or rotates, DELETE revokes), the key's call. */
  folderLeadOutcomes: (id: Id) => api(`folders/${id}/lead_outcomes/`),
  folderLeadOutcomesUpload: (id: Id) => api(`folders/${id}/lead_outcomes/upload/`),
  folderOutcomeKey: (id: Id) => api(`folders/${id}/outcome_key/`),
  /** A folder's webinar and CRM outcomes summed over its ad account's campaigns. */
  folderOutcomes: (id: Id) => api(`folders/${id}/outcomes/`),
  leadOutcomes: api('lead_outcomes/'),

  // ad platform
  metaAdAccounts: api('meta_ad_account/'),
  metaAdAccountsRefresh: api('meta_ad_account/refresh/'),
  campaigns: api('campaigns/'),
  campaignUpdate: (campaignId: Id) => api(`campaigns/${campaignId}/update_campaign/`),
  /** Sync every campaign now (the Campaigns empty state's Refresh; an addition to docs/contract.md#calls). */
  campaignsSync: api('campaigns/sync/'),
  /** A campaign's webinar dates and the Demio dates to choose from; POST …/event_date/ chooses one. */
  campaignEventDates: (campaignId: Id) => api(`campaigns/${campaignId}/event_dates/`),
  campaignEventDate: (campaignId: Id) => api(`campaigns/${campaignId}/event_date/`),
  /** Turn back on the ads rules turned off, as Undo (the ads list's bulk action). */
  adsTurnOn: api('ads/turn_on/'),

  // history
  log: api('log/'),
  ruleLog: api('rule_log/'),
  // rule engine (additions to docs/contract.md#calls, docs/api.md)
  ruleRunNow: (id: Id) => api(`rules/${id}/run_now/`),
  rulePreview: (id: Id) => api(`rules/${id}/preview/`),
  ruleLogUndo: (id: Id) => api(`rule_log/${id}/undo/`),
  ruleExemptions: (id: Id) => api(`rules/${id}/exemptions/`),
  ruleExemption: (id: Id, objectId: Id) => api(`rules/${id}/exemptions/${objectId}/`),
  ruleRuns: (id: Id) => api(`rule/${id}/runs/`),
  ruleRun: (id: Id) => api(`rule_runs/${id}/`),
  ruleRunApprove: (id: Id) => api(`rule_runs/${id}/approve/`),
  // metric history, backtests and the impact report (docs/api.md)
  history: api('history/'),
  historyFill: api('history/fill/'),
  backtests: api('backtests/'),
  backtest: (id: Id) => api(`backtests/${id}/`),
  backtestPauses: (id: Id) => api(`backtests/${id}/pauses/`),
  impact: api('impact/'),
  impactExport: api('impact/export/'),
  ruleRunDismiss: (id: Id) => api(`rule_runs/${id}/dismiss/`),
  ruleConflicts: (id: Id) => api(`rules/${id}/conflicts/`),
  platformHealth: api('platform_health/'),
  accountHealth: (adAccountId: Id) => api(`platform_health/${adAccountId}/`),
  /** The agency overview: every live folder, those that need a person first (docs/api.md). */
  overview: api('overview/'),
  // rule templates (docs/api.md, "Templates")
  templates: api('templates/'),
  template: (id: Id) => api(`templates/${id}/`),
  templatePreview: (id: Id) => api(`templates/${id}/preview/`),
  templateFolders: (id: Id) => api(`templates/${id}/folders/`),
  templateLink: (id: Id) => api(`templates/${id}/link/`),
  ruleLeaveTemplate: (id: Id) => api(`rules/${id}/leave_template/`),
  ruleResetOverride: (id: Id) => api(`rules/${id}/reset_override/`),
} as const;

/** A list endpoint path relative to /api/ (as resources declare it) → its full URL. */
export const apiUrl = (relativePath: string) => api(relativePath.replace(/^\/+/, '').replace(/^api\//, ''));
