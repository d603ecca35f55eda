/**
 * The dataProvider's named method for the ads list beyond reading it: turn back on the ads rules
 * turned off, each exempt from its rule as the Activity's Undo leaves it (`POST /api/ads/turn_on/`).
 */
import type { AdTurnOnAnswer } from '../../shared/ads';
import { paths } from './apiPaths';
import type { HttpClient } from './httpClient';

export function createAdMethods(http: HttpClient) {
  return {
    turnAdsOn: async (ids: string[]) =>
      (await http<AdTurnOnAnswer>(paths.adsTurnOn, { method: 'POST', body: { ids } })).json,
  };
}
