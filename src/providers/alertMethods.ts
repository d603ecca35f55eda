/**
 * The dataProvider's named method for the alert destinations beyond their generated CRUD: Send a
 * test (a POST to the destination's `test/`), which answers what happened.
 */
import type { AlertTestResult } from '../../shared/alertTest';
import alertDestinations from '../../shared/resources/alertDestinations';
import { apiUrl } from './apiPaths';
import type { HttpClient } from './httpClient';

export function createAlertMethods(http: HttpClient) {
  return {
    sendAlertTest: async (id: number) =>
      (await http<AlertTestResult>(apiUrl(`${alertDestinations.path}${id}/test/`), { method: 'POST', body: {} })).json,
  };
}
