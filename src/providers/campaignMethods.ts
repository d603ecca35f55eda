/**
 * The dataProvider's named methods for campaigns beyond their list (docs/contract.md#calls): bring one
 * campaign, or every campaign, over from the ad platform now. Both answer a detail the screen shows.
 */
import { paths } from './apiPaths';
import type { HttpClient } from './httpClient';

export interface SyncAnswer {
  detail: string;
}

export function createCampaignMethods(http: HttpClient) {
  const post = async (url: string) => (await http<SyncAnswer>(url, { method: 'POST' })).json;
  return {
    refreshCampaign: (campaignId: string) => post(paths.campaignUpdate(campaignId)),
    syncCampaigns: () => post(paths.campaignsSync),
  };
}
