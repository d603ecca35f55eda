/**
 * The dataProvider's named method for the alert destinations beyond their generated CRUD: Send a
 * test (`POST /api/alert_destinations/{id}/test/`), which answers what happened.
 */
import type { AlertTestResult } from '../domain/alertTest';
import { apiUrl } from './apiPaths';
import type { HttpClient } from './httpClient';

export function createAlertMethods(http: HttpClient) {
  return {
    sendAlertTest: async (id: number) =>
      (await http<AlertTestResult>(apiUrl(`alert_destinations/${id}/test/`), { method: 'POST', body: {} })).json,
  };
}
