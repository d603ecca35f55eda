/**
 * System-user tokens the simulator issues (`POST /__sim/tokens`), as a business's system user gets
 * them in Business Manager: each names its system user and business, holds some permissions (scopes),
 * reaches some ad accounts (all of them unless told), and may expire on the simulated clock or be
 * revoked. A token shaped like Meta's (`EAA…`) must be one of these; any other string keeps working as
 * it always did (the product's `simulator-token`, a bench's `dev`): a user who reaches everything.
 *
 * What a registered token changes: `/me` is its system user, `/me/adaccounts` lists what it reaches,
 * an object of another account does not exist to it (code 100, subcode 33), a write needs
 * ads_management, a read ads_read or ads_management, lead retrieval leads_retrieval, and
 * `/debug_token` and `/{business_id}` answer what Meta's do.
 */
import { randomBytes } from 'node:crypto';
import { errorAnswer, notFound, type GraphAnswer, type Params } from './answers';
import type { World } from './world';

export const TOKEN_SCOPES = [
  'ads_management',
  'ads_read',
  'business_management',
  'leads_retrieval',
  'pages_read_engagement',
  'pages_show_list',
  'read_insights',
] as const;

const DEFAULT_SCOPES = ['ads_management', 'ads_read', 'business_management', 'leads_retrieval'];
const APP = { id: '880000000000001', name: 'Ad Rules Console (simulated app)' };
const DAY_MS = 24 * 3_600_000;

export interface SimToken {
  token: string;
  systemUser: { id: string; name: string };
  business: { id: string; name: string };
  scopes: string[];
  issuedAt: number;
  /** null: never expires. */
  expiresAt: number | null;
  /** Account digits it reaches; null: every account of the world. */
  accounts: Set<string> | null;
  revoked: boolean;
}

/** What `POST /__sim/tokens` takes. */
export interface TokenRequest {
  system_user?: string;
  business?: string;
  scopes?: string[];
  /** Days until it expires (Meta's choice: never, or 60 days); absent or 0: never. */
  expires_in_days?: number;
  /** Ad accounts it reaches (`act_…` or digits); absent: all. */
  accounts?: string[];
}

/** What `POST /__sim/tokens/{token}` changes: the reach (a business relationship ended), the expiry. */
export interface TokenChange {
  accounts?: string[] | null;
  expires_at?: string | null;
}

const seconds = (ms: number) => Math.floor(ms / 1000);
const digits = (id: string) => id.replace(/^act_/, '');
const looksLikeMetas = (token: string) => token.startsWith('EAA');

type AuthProblem = { message: string; subcode?: number };

const AUTH: {
  unparsable: AuthProblem;
  revoked: AuthProblem;
  expired: (expiredAt: number, now: number) => AuthProblem;
} = {
  unparsable: { message: 'Invalid OAuth access token - Cannot parse access token' },
  revoked: {
    message:
      'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
    subcode: 460,
  },
  expired: (expiredAt: number, now: number) => ({
    message: `Error validating access token: Session has expired on ${new Date(expiredAt).toUTCString()}. The current time is ${new Date(now).toUTCString()}.`,
    subcode: 463,
  }),
};

/** The account (digits) an object id belongs to, as far as the world knows it. */
function accountOfObject(world: World, id: string): string | undefined {
  if (id.startsWith('act_')) return digits(id);
  const object = world.campaigns.get(id) ?? world.adsets.get(id) ?? world.ads.get(id);
  if (object) return object.accountId;
  // A lead form's id is its ad set's behind '99' (leads.ts).
  return id.startsWith('99') ? world.adsets.get(id.slice(2))?.accountId : undefined;
}

export class TokenRegistry {
  private readonly tokens = new Map<string, SimToken>();
  private readonly businesses = new Map<string, { id: string; name: string }>();
  private issued = 0;

  constructor(
    private readonly world: World,
    /** Who an unregistered token is (`/me` of the simulated user). */
    private readonly defaultUserId: string,
  ) {}

  issue(request: TokenRequest, now: number): SimToken {
    const unknownScope = (request.scopes ?? []).find((s) => !(TOKEN_SCOPES as readonly string[]).includes(s));
    if (unknownScope) throw new Error(`scopes: ${unknownScope} is not one of ${TOKEN_SCOPES.join(', ')}`);
    this.issued += 1;
    const businessName = request.business?.trim() || 'Simulated Business';
    let business = this.businesses.get(businessName);
    if (!business) {
      business = { id: `9100000000${String(this.businesses.size + 1).padStart(5, '0')}`, name: businessName };
      this.businesses.set(businessName, business);
    }
    const days = request.expires_in_days ?? 0;
    const token: SimToken = {
      token: `EAASim${randomBytes(32).toString('hex')}`,
      systemUser: {
        id: `6100000000${String(this.issued).padStart(5, '0')}`,
        name: request.system_user?.trim() || `System user ${this.issued}`,
      },
      business,
      scopes: [...new Set(request.scopes ?? DEFAULT_SCOPES)],
      issuedAt: now,
      expiresAt: days > 0 ? now + days * DAY_MS : null,
      accounts: this.reachOf(request.accounts),
      revoked: false,
    };
    this.tokens.set(token.token, token);
    return token;
  }

  list(): SimToken[] {
    return [...this.tokens.values()];
  }

  find(token: string): SimToken | undefined {
    return this.tokens.get(token);
  }

  revoke(token: string): SimToken | undefined {
    const found = this.tokens.get(token);
    if (found) found.revoked = true;
    return found;
  }

  change(token: string, change: TokenChange): SimToken | undefined {
    const found = this.tokens.get(token);
    if (!found) return undefined;
    if (change.accounts !== undefined) found.accounts = this.reachOf(change.accounts ?? undefined);
    if (change.expires_at !== undefined) {
      const at = change.expires_at === null ? null : Date.parse(change.expires_at);
      if (at !== null && Number.isNaN(at)) throw new Error('expires_at must be an ISO 8601 moment or null');
      found.expiresAt = at;
    }
    return found;
  }

  /** Why this token cannot be used now; undefined when it can (an unregistered plain string can). */
  problem(token: string, now: number): AuthProblem | undefined {
    const found = this.tokens.get(token);
    if (!found) return looksLikeMetas(token) ? AUTH.unparsable : undefined;
    if (found.revoked) return AUTH.revoked;
    if (found.expiresAt !== null && found.expiresAt <= now) return AUTH.expired(found.expiresAt, now);
    return undefined;
  }

  /** Graph's refusal of a call made with this token, before anything else is looked at. */
  refusal(token: string, now: number): GraphAnswer | undefined {
    const problem = this.problem(token, now);
    return problem && errorAnswer(400, 190, problem.message, problem.subcode ? { error_subcode: problem.subcode } : {});
  }

  /** Whether the token reaches the account (digits); an unregistered token reaches every one. */
  reaches(token: string | undefined, accountId: string): boolean {
    const accounts = token === undefined ? undefined : this.tokens.get(token)?.accounts;
    return !accounts || accounts.has(accountId);
  }

  /**
   * A registered token's refusal of a call on what it may not touch: an object of an account it does
   * not reach (as if it did not exist), or a call its permissions do not cover.
   */
  accessRefusal(token: string | undefined, method: string, path: string, params: Params): GraphAnswer | undefined {
    const found = token === undefined ? undefined : this.tokens.get(token);
    if (!found) return undefined;
    const [head = '', edge] = path.split('/').filter(Boolean);
    const ids = head === '' && params.ids !== undefined ? params.ids.split(',').map((id) => id.trim()) : [head];
    for (const id of ids) {
      const account = accountOfObject(this.world, id);
      if (account !== undefined && !this.reaches(token, account)) return notFound(id, method);
    }
    const has = (scope: string) => found.scopes.includes(scope);
    if (edge === 'leads' && !has('leads_retrieval'))
      return errorAnswer(403, 200, '(#200) Requires leads_retrieval permission to access this endpoint');
    if (head === 'me' || head === 'debug_token' || this.businessById(head)) return undefined;
    if (method !== 'GET' && !has('ads_management'))
      return errorAnswer(403, 200, '(#200) Requires ads_management permission to manage the object');
    if (method === 'GET' && !has('ads_management') && !has('ads_read'))
      return errorAnswer(403, 200, '(#200) Requires ads_read permission to read the object');
    return undefined;
  }

  /**
   * The answers that depend on the token rather than the world: `/debug_token`, `/me` of a system
   * user, and `/{business_id}`. Undefined: the world answers (graph.ts).
   */
  answer(
    token: string | undefined,
    method: string,
    path: string,
    params: Params,
    now: number,
  ): GraphAnswer | undefined {
    if (method !== 'GET') return undefined;
    if (path === 'debug_token') return { status: 200, body: { data: this.debug(params.input_token ?? '', now) } };
    const found = token === undefined ? undefined : this.tokens.get(token);
    if (path === 'me' && found) return pick(found.systemUser, params.fields, 'User');
    const business = this.businessById(path);
    if (business) {
      if (!found?.scopes.includes('business_management') || found.business.id !== business.id)
        return errorAnswer(403, 200, '(#200) Requires business_management permission to manage the object');
      return pick(business, params.fields, 'Business');
    }
    return undefined;
  }

  private debug(input: string, now: number): Record<string, unknown> {
    const found = this.tokens.get(input);
    const problem = input ? this.problem(input, now) : AUTH.unparsable;
    const common = { app_id: APP.id, application: APP.name, data_access_expires_at: 0 };
    if (!found) {
      if (problem) return { ...common, is_valid: false, scopes: [], error: { code: 190, message: problem.message } };
      return {
        ...common,
        type: 'USER',
        expires_at: 0,
        is_valid: true,
        scopes: DEFAULT_SCOPES,
        user_id: this.defaultUserId,
      };
    }
    return {
      ...common,
      type: 'SYSTEM_USER',
      expires_at: found.expiresAt === null ? 0 : seconds(found.expiresAt),
      is_valid: !problem,
      issued_at: seconds(found.issuedAt),
      scopes: found.scopes,
      granular_scopes: found.scopes.map((scope) =>
        scope === 'business_management'
          ? { scope, target_ids: [found.business.id] }
          : scope === 'ads_management' || scope === 'ads_read'
            ? { scope, target_ids: this.reachedIds(found) }
            : { scope },
      ),
      user_id: found.systemUser.id,
      ...(problem ? { error: { code: 190, message: problem.message, subcode: problem.subcode } } : {}),
    };
  }

  private reachedIds(token: SimToken): string[] {
    return this.world.accounts.map((a) => a.accountId).filter((id) => !token.accounts || token.accounts.has(id));
  }

  private businessById(id: string) {
    return [...this.businesses.values()].find((b) => b.id === id);
  }

  private reachOf(accounts: string[] | undefined): Set<string> | null {
    if (!accounts) return null;
    const known = new Set(this.world.accounts.map((a) => a.accountId));
    const unknown = accounts.find((id) => !known.has(digits(id)));
    if (unknown) throw new Error(`accounts: the world has no ad account ${unknown}`);
    return new Set(accounts.map(digits));
  }
}

/** `{id, name}` in the fields asked for (default both); a field the node does not have is refused. */
function pick(node: { id: string; name: string }, fields: string | undefined, type: string): GraphAnswer {
  const wanted = (fields ?? 'id,name')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = wanted.find((f) => f !== 'id' && f !== 'name');
  if (unknown)
    return errorAnswer(
      400,
      100,
      `(#100) The simulator answers only id and name on node type (${type}), not ${unknown}`,
    );
  return { status: 200, body: Object.fromEntries(wanted.map((f) => [f, node[f as 'id' | 'name']])) };
}

/** A token as the admin API shows it. */
export const tokenView = (token: SimToken) => ({
  token: token.token,
  system_user: token.systemUser,
  business: token.business,
  scopes: token.scopes,
  issued_at: new Date(token.issuedAt).toISOString(),
  expires_at: token.expiresAt === null ? null : new Date(token.expiresAt).toISOString(),
  accounts: token.accounts ? [...token.accounts].map((id) => `act_${id}`) : null,
  revoked: token.revoked,
});
