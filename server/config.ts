/** Every server setting, read once from the environment. The README's settings table mirrors this file. */
import path from 'node:path';
import { DEFAULT_META_API_VERSION } from './adplatform/versions';

export type ServerRole = 'all' | 'api' | 'worker';
export type LogFormat = 'auto' | 'json' | 'pretty';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  /** Key for folder credentials at rest; a secret file in dataDir when unset. */
  credentialsKey: string | undefined;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** A session (one sign-in) ends this many days after it started, however often it is refreshed. */
  sessionMaxDays: number;
  adminEmail: string;
  adminPassword: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  alertEmails: string[];
  /** A Slack-compatible incoming webhook that receives every alert (unset: none). */
  alertWebhookUrl?: string;
  /** Hosts alert webhooks may be posted to (ALERT_WEBHOOK_HOSTS; empty: any public host on port 443). */
  alertWebhookHosts: string[];
  /** The most alert destinations for every folder (ALERT_MAX_DESTINATIONS, ALERT_WEBHOOK_URL included) and for one folder. */
  alertMaxDestinations: { global: number; perFolder: number };
  loginRateLimit: { max: number; windowMs: number };
  /** Backtests one person may start per LOGIN_RATE_WINDOW_SECONDS, counted across API processes (BACKTEST_RATE_LIMIT). */
  backtestRateLimit: number;
  /** Proxy hops in front of the server whose X-Forwarded-For is believed (TRUST_PROXY; 0: none). */
  trustProxy: number;
  /** Redis for the shared rate-limit counters; unset, they live in the database. */
  redisUrl: string | undefined;
  metaAccessToken: string | undefined;
  metaGraphUrl: string | undefined;
  metaApiVersion: string;
  /** The Meta app's secret, which signs every ads webhook delivery (META_APP_SECRET); with the verify token, changes are pushed. */
  metaAppSecret: string | undefined;
  /** What Meta's webhook handshake must send as hub.verify_token (META_WEBHOOK_VERIFY_TOKEN). */
  metaWebhookVerifyToken: string | undefined;
  /** Demio's API (DEMIO_API_URL); unset: the Demio simulator beside the Graph simulator, or Demio's own beside Meta's. */
  demioApiUrl: string | undefined;
  campaignSyncMinutes: number;
  /** How often the outcome sync reads leads, event dates and participants (OUTCOME_SYNC_MINUTES; a fraction for tests). */
  outcomeSyncMinutes: number;
  role: ServerRole;
  logLevel: string;
  /** `json`, `pretty`, or `auto` (pretty when stdout is a terminal, JSON otherwise). */
  logFormat: LogFormat;
  /** Bearer token that opens GET /metrics; unset, the endpoint does not exist. */
  metricsToken: string | undefined;
  /** After SIGTERM/SIGINT, how long the drain may take before the process is forced to exit. */
  shutdownTimeoutSeconds: number;
  /** Blast radius: a run that would turn off more than this share of an account's delivering ads is held. */
  engineMaxShare: number;
  /** Blast radius: a run that would turn off more than this many objects is held. */
  engineMaxActions: number;
  /** Run records (what each run read and decided) are kept this long. */
  runHistoryDays: number;
  /** Metric history (what the platform reported per ad, hourly) is kept this many days (HISTORY_DAYS). */
  historyDays: number;
  /** The log, rule log and campaign lists: above this many matching rows (planner's estimate) the total is estimated; at or below it, counted up to this many. */
  listCountCap: number;
  /** How long a signed-in user may be served from memory (AUTH_CACHE_SECONDS; 0: always read). */
  authCacheSeconds: number;
  /** How long a list page may be answered from memory (PAGE_CACHE_SECONDS; 0: always read). */
  pageCacheSeconds: number;
  /** The most memory those pages may hold, in MB (PAGE_CACHE_MB). */
  pageCacheMegabytes: number;
}

/** OWASP's recommendation for scrypt: N = 2^17 (with r = 8, p = 1). */
export const RECOMMENDED_PASSWORD_HASH_COST = 17;
const LOWEST_PASSWORD_HASH_COST = 10;

/**
 * PASSWORD_HASH_COST, read on its own because server/auth/passwords.ts hashes outside any app.
 * Only ever lowered below the recommendation, for a test suite that signs in thousands of times
 * (each hash at 2^17 takes 128 MiB and about half a second of a core).
 */
export function passwordHashCost(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.PASSWORD_HASH_COST;
  if (value === undefined || value === '') return RECOMMENDED_PASSWORD_HASH_COST;
  const cost = Number(value);
  if (!Number.isInteger(cost) || cost < LOWEST_PASSWORD_HASH_COST || cost > RECOMMENDED_PASSWORD_HASH_COST)
    throw new Error(
      `PASSWORD_HASH_COST must be a whole number from ${LOWEST_PASSWORD_HASH_COST} to ${RECOMMENDED_PASSWORD_HASH_COST} (got ${value})`,
    );
  return cost;
}

function int(value: string | undefined, fallback: number): number {
  const parsed = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(parsed) ? parsed : fallback;
}

/** A share in (0, 1]; anything else is the fallback. */
function share(value: string | undefined, fallback: number): number {
  const parsed = int(value, fallback);
  return parsed > 0 && parsed <= 1 ? parsed : fallback;
}

/** A number above 0; anything else is the fallback. */
function positive(value: string | undefined, fallback: number): number {
  const parsed = int(value, fallback);
  return parsed > 0 ? parsed : fallback;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env.PORT, 8000);
  const role = (env.ROLE ?? 'all') as ServerRole;
  if (!['all', 'api', 'worker'].includes(role)) throw new Error(`ROLE must be all, api or worker (got ${role})`);
  const logFormat = (env.LOG_FORMAT || 'auto') as LogFormat;
  if (!['auto', 'json', 'pretty'].includes(logFormat))
    throw new Error(`LOG_FORMAT must be auto, json or pretty (got ${logFormat})`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    credentialsKey: env.CREDENTIALS_KEY || undefined,
    accessTokenSeconds: int(env.ACCESS_TOKEN_LIFETIME_SECONDS, 5 * 60),
    refreshTokenSeconds: int(env.REFRESH_TOKEN_LIFETIME_SECONDS, 24 * 60 * 60),
    sessionMaxDays: Math.max(int(env.SESSION_MAX_DAYS, 14), 0),
    adminEmail: (env.ADMIN_EMAIL ?? 'admin@example.com').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Ad Rules Console <no-reply@localhost>',
    alertEmails: list(env.ALERT_EMAILS),
    alertWebhookUrl: env.ALERT_WEBHOOK_URL || undefined,
    alertWebhookHosts: list(env.ALERT_WEBHOOK_HOSTS).map((host) => host.toLowerCase()),
    alertMaxDestinations: {
      global: Math.max(1, Math.floor(int(env.ALERT_MAX_DESTINATIONS, 5))),
      perFolder: Math.max(1, Math.floor(int(env.ALERT_MAX_FOLDER_DESTINATIONS, 5))),
    },
    loginRateLimit: { max: int(env.LOGIN_RATE_LIMIT, 10), windowMs: int(env.LOGIN_RATE_WINDOW_SECONDS, 60) * 1000 },
    backtestRateLimit: Math.max(1, Math.floor(int(env.BACKTEST_RATE_LIMIT, 10))),
    trustProxy: Math.max(0, Math.floor(int(env.TRUST_PROXY, 0))),
    redisUrl: env.REDIS_URL || undefined,
    metaAccessToken: env.META_ACCESS_TOKEN || undefined,
    metaGraphUrl: env.META_GRAPH_URL || undefined,
    metaApiVersion: env.META_API_VERSION ?? DEFAULT_META_API_VERSION,
    metaAppSecret: env.META_APP_SECRET || undefined,
    metaWebhookVerifyToken: env.META_WEBHOOK_VERIFY_TOKEN || undefined,
    demioApiUrl: env.DEMIO_API_URL || undefined,
    campaignSyncMinutes: int(env.CAMPAIGN_SYNC_MINUTES, 15),
    outcomeSyncMinutes: positive(env.OUTCOME_SYNC_MINUTES, 60),
    role,
    logLevel: env.LOG_LEVEL || 'info',
    logFormat,
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownTimeoutSeconds: int(env.SHUTDOWN_TIMEOUT_SECONDS, 30),
    engineMaxShare: share(env.ENGINE_MAX_SHARE, 0.5),
    engineMaxActions: Math.max(1, Math.floor(int(env.ENGINE_MAX_ACTIONS, 25))),
    runHistoryDays: Math.max(1, int(env.RUN_HISTORY_DAYS, 30)),
    historyDays: Math.max(1, Math.floor(int(env.HISTORY_DAYS, 35))),
    listCountCap: Math.max(1, Math.floor(int(env.LIST_COUNT_CAP, 1_000))),
    authCacheSeconds: Math.max(0, int(env.AUTH_CACHE_SECONDS, 30)),
    pageCacheSeconds: Math.max(0, int(env.PAGE_CACHE_SECONDS, 30)),
    pageCacheMegabytes: Math.max(0, int(env.PAGE_CACHE_MB, 32)),
    ...overrides,
  };
}
