/**
 * What a token is, as Graph says it: its system user (`GET /me`), its type, permissions and expiry
 * (`GET /debug_token`, with the business it may manage among its granular scopes), and that
 * business's name (`GET /{business_id}`). A token Graph refuses throws GraphAuthError.
 */
import { GraphApiError, GraphAuthError } from '../adplatform/errors';
import type { GraphClient } from '../adplatform/graphClient';

export interface TokenIdentity {
  systemUser: { id: string; name: string };
  business: { id: string; name: string } | null;
  /** SYSTEM_USER, USER …; null when debug_token could not be read. */
  tokenType: string | null;
  /** Empty when debug_token could not be read. */
  scopes: string[];
  /** null: never expires, or Graph did not say. */
  expiresAt: Date | null;
}

interface DebugToken {
  type?: string;
  is_valid?: boolean;
  expires_at?: number;
  scopes?: string[];
  granular_scopes?: { scope: string; target_ids?: string[] }[];
  error?: { code?: number; message?: string; subcode?: number };
}

/** debug_token, or null when Graph will not answer it for this token (then less is known, nothing is wrong). */
async function debugToken(client: GraphClient, token: string): Promise<DebugToken | null> {
  try {
    const answer = await client.request<{ data?: DebugToken }>('GET', 'debug_token', { input_token: token });
    return answer.data ?? null;
  } catch (error) {
    if (error instanceof GraphAuthError) throw error;
    if (error instanceof GraphApiError) return null;
    throw error;
  }
}

async function businessOf(client: GraphClient, debug: DebugToken | null) {
  const id = debug?.granular_scopes?.find((s) => s.scope === 'business_management')?.target_ids?.[0];
  if (!id) return null;
  try {
    return await client.request<{ id: string; name: string }>('GET', id, { fields: 'id,name' });
  } catch (error) {
    if (error instanceof GraphAuthError) throw error;
    return null;
  }
}

/** `client` calls Graph with `token`. */
export async function readIdentity(client: GraphClient, token: string): Promise<TokenIdentity> {
  const me = await client.request<{ id: string; name?: string }>('GET', 'me', { fields: 'id,name' });
  const debug = await debugToken(client, token);
  if (debug?.is_valid === false)
    throw new GraphAuthError(400, {
      code: debug.error?.code ?? 190,
      error_subcode: debug.error?.subcode,
      message: debug.error?.message ?? 'The access token is not valid',
    });
  return {
    systemUser: { id: me.id, name: me.name ?? me.id },
    business: await businessOf(client, debug),
    tokenType: debug?.type ?? null,
    scopes: debug?.scopes ?? [],
    expiresAt: debug?.expires_at ? new Date(debug.expires_at * 1000) : null,
  };
}
