/**
 * The dataProvider's named methods for campaigns beyond their list (docs/contract.md#calls): bring one
 * campaign, or every campaign, over from the ad platform now (both answer a detail the screen shows);
 * read a campaign's webinar dates and choose one by hand when its name gives none.
 */
import type { CampaignEventDates, ChosenEventDate } from '../../shared/campaignEventDates';
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
    getCampaignEventDates: async (campaignId: string, signal?: AbortSignal) =>
      (await http<CampaignEventDates>(paths.campaignEventDates(campaignId), { signal })).json,
    /** Both ids null clears the choice. */
    chooseCampaignEventDate: async (campaignId: string, choice: ChosenEventDate) =>
      (await http<CampaignEventDates>(paths.campaignEventDate(campaignId), { method: 'POST', body: choice })).json,
  };
}
