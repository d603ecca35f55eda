/**
 * The ad platform as the sync, the rule engine, the metric history and the outcome sync see it:
 * one client whose every call about an ad account goes out with the token of the connection that
 * serves that account (clients.ts). Listing the ad accounts asks every connection and records what
 * each token reaches, which is what decides who serves whom.
 */
import type {
  AccountScope,
  AdAccount,
  BudgetChange,
  Campaign,
  InsightRow,
  InsightsQuery,
  LeadsQuery,
  ObjectStatus,
} from '../adplatform/types';
import type { CampaignSource } from '../campaigns/sync';
import type { Database } from '../db/client';
import { errorMessage } from '../errorMessage';
import type { ConnectionClients } from './clients';
import { accountIdOf, saveReach } from './rows';

export interface RoutedClientLog {
  warn(message: string): void;
}

export class AccountRoutedClient implements CampaignSource {
  constructor(
    private readonly clients: ConnectionClients,
    private readonly db: Database,
    private readonly log?: RoutedClientLog,
  ) {}

  /**
   * Every account some connection reaches, each once. A connection whose listing fails keeps what
   * it was last found to reach; only when every one fails does the listing fail.
   */
  async listAdAccounts(): Promise<AdAccount[]> {
    const found = new Map<string, AdAccount>();
    const failures: unknown[] = [];
    const connections = (await this.clients.connections()).filter((c) => c.client);
    for (const connection of connections) {
      try {
        const accounts = await connection.client!.listAdAccounts();
        await saveReach(this.db, connection.id, accounts);
        for (const account of accounts) if (!found.has(accountIdOf(account))) found.set(accountIdOf(account), account);
      } catch (error) {
        failures.push(error);
        this.log?.warn(
          `ad platform: the ad accounts of “${connection.name}” could not be listed: ${errorMessage(error)}`,
        );
      }
    }
    this.clients.forget();
    if (connections.length && failures.length === connections.length) throw failures[0];
    return [...found.values()];
  }

  async listCampaigns(accountId: string): Promise<Campaign[]> {
    return (await this.clients.forAccount(accountId)).listCampaigns(accountId);
  }

  async listAds(accountId: string) {
    return (await this.clients.forAccount(accountId)).listAds(accountId);
  }

  async listCampaignsWithAds(accountId: string) {
    return (await this.clients.forAccount(accountId)).listCampaignsWithAds(accountId);
  }

  async getInsights(accountId: string, query: InsightsQuery): Promise<InsightRow[]> {
    return (await this.clients.forAccount(accountId)).getInsights(accountId, query);
  }

  async setStatuses(changes: { id: string; status: ObjectStatus }[], scope?: AccountScope) {
    return (await this.clients.forAccount(scope?.accountId)).setStatuses(changes, scope);
  }

  async listBudgets(accountId: string) {
    return (await this.clients.forAccount(accountId)).listBudgets(accountId);
  }

  async setBudgets(changes: BudgetChange[], scope?: AccountScope) {
    return (await this.clients.forAccount(scope?.accountId)).setBudgets(changes, scope);
  }

  async listLeads(adId: string, query?: LeadsQuery) {
    return (await this.clients.forAccount(query?.accountId)).listLeads(adId, query);
  }

  async getCampaign(campaignId: string, scope?: AccountScope): Promise<Campaign> {
    return (await this.clients.forAccount(scope?.accountId)).getCampaign(campaignId);
  }

  async getCampaignInsights(campaignId: string, scope?: AccountScope): Promise<InsightRow | null> {
    return (await this.clients.forAccount(scope?.accountId)).getCampaignInsights(campaignId);
  }

  /** The environment token's check (the health check asks each connection itself). */
  async checkToken() {
    return (await this.clients.forAccount(undefined)).checkToken();
  }
}
