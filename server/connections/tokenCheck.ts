/**
 * A token about to be added, asked of Graph: who it is (identity.ts), that it may turn ads off,
 * and which ad accounts it reaches. Graph's refusal becomes the form's `{token: ["Meta refused
 * this token: …"]}`; Graph out of reach, a 502. Quick: an admin is waiting on the answer.
 */
import { AdPlatformError, GraphApiError } from '../adplatform/errors';
import { GraphClient, type GraphClientOptions } from '../adplatform/graphClient';
import type { AdAccount } from '../adplatform/types';
import { errorMessage } from '../errorMessage';
import { ApiError, ValidationError } from '../http/errors';
import { CONNECTION_MESSAGES, REQUIRED_SCOPE } from '../../shared/metaConnections';
import { readIdentity, type TokenIdentity } from './identity';

/** Where Graph is and how to call it: the product's base URL, API version and event log. */
export type GraphAddress = Pick<GraphClientOptions, 'baseUrl' | 'apiVersion' | 'onEvent' | 'fetch'>;

export interface CheckedToken {
  identity: TokenIdentity;
  accounts: AdAccount[];
}

export interface TokenChecker {
  check(token: string): Promise<CheckedToken>;
}

export const graphClientFor = (address: GraphAddress, token: string, options: Partial<GraphClientOptions> = {}) =>
  new GraphClient({ ...address, accessToken: token, ...options });

function failure(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof GraphApiError && !error.transient)
    return new ValidationError({ token: [CONNECTION_MESSAGES.refused(error.message)] });
  if (error instanceof AdPlatformError)
    return new ApiError(502, { detail: CONNECTION_MESSAGES.unreachable(errorMessage(error)) });
  return error;
}

export function createTokenChecker(address: GraphAddress): TokenChecker {
  return {
    async check(token) {
      const client = graphClientFor(address, token, { timeoutMs: 15_000, maxAttempts: 2, maxWaitMs: 5_000 });
      try {
        const identity = await readIdentity(client, token);
        if (identity.scopes.length && !identity.scopes.includes(REQUIRED_SCOPE))
          throw new ValidationError({ token: [CONNECTION_MESSAGES.missingScope] });
        return { identity, accounts: await client.listAdAccounts() };
      } catch (error) {
        throw failure(error);
      }
    },
  };
}
