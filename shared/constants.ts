/** Business constants of docs/contract.md#constants. */
export const PRODUCT_NAME = 'Ad Rules Console';

export const FOLDER_PAGE_SIZE = 20;
export const TRASH_PAGE_SIZE = 10;
export const TEAM_PAGE_SIZES = [10, 25, 50, 100] as const;
export const AD_ACCOUNT_LIST_LIMIT = 400;
export const LOG_PAGE_SIZES = [10, 20, 30, 50, 100] as const;
export const CAMPAIGN_PAGE_SIZES = [10, 25, 50, 100, 250] as const;

export const SEARCH_DEBOUNCE_MS = 500;
export const LOAD_MORE_CHECK_MS = 400;
export const SCROLL_THRESHOLD_PX = 250;
export const SNACKBAR_TIMEOUT_MS = 5000;
export const RULE_ACTIVATION_SNACKBAR_MS = 10000;
/** A horizontal swipe longer than this closes the snackbar. */
export const SNACKBAR_SWIPE_CLOSE_PX = 50;
export const SIDE_PANEL_WIDTH = 400;
export const MIN_PASSWORD_LENGTH = 8;
/** OWASP ASVS 2.1.2: at least 64 allowed; more than this is refused rather than hashed. */
export const MAX_PASSWORD_LENGTH = 128;
/** Names (first, last, group) appear in mails: kept short so they cannot carry a paragraph. */
export const MAX_NAME_LENGTH = 100;
/** RFC 5321's limit on a forward path. */
export const MAX_EMAIL_LENGTH = 254;

export const CLIENT_TYPES = ['EDM', 'DLM'] as const;

export const PLANS = [
  { value: 'quick_start', label: 'Quick Start' },
  { value: 'solo', label: 'solo' },
  { value: 'team', label: 'team' },
  { value: 'elite', label: 'elite' },
] as const;
export type Plan = (typeof PLANS)[number]['value'];

export const CAMPAIGN_NAME_OPTIONS = [
  'EDM',
  'EP-S',
  'EP-W',
  'LTC-S',
  'LTC-W',
  'MED-S',
  'MED-W',
  'RP-S',
  'RP-W',
  'SS-S',
  'SS-W',
  'TIR-S',
  'TIR-W',
  'WW-S',
  'WW-W',
] as const;

export const TOPICS = [
  { code: 'EP', name: 'Estate Planning' },
  { code: 'TIR', name: 'Taxes In Retirement' },
  { code: 'RP', name: 'Retirement Planning' },
  { code: 'SS', name: 'Social Security' },
  { code: 'LTC', name: 'Long-Term Care' },
  { code: 'MED', name: 'Medicare' },
  { code: '401k', name: '401(k) Rollovers' },
  { code: 'SN', name: 'Special Needs' },
  { code: 'WW', name: "Women's Wealth" },
  { code: 'AP', name: 'Asset Protection' },
  { code: 'DV', name: 'Divorce' },
  { code: 'PB', name: 'Probate' },
  { code: 'PP', name: 'Prenup' },
] as const;

export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const HOURS_PER_DAY = 24;
export const DEFAULT_SCHEDULE_HOURS = [2, 7, 12, 17] as const;
export const DEFAULT_ALERT_HOUR = 7;
export const NEW_GROUP_NAME = 'New group';

export const THEME_COLORS = {
  primary: '#1867C0',
  secondary: '#48A9A6',
  error: '#B00020',
  info: '#2196F3',
  success: '#4CAF50',
  warning: '#FB8C00',
} as const;
