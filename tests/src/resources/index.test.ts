/** A resource folder declares its views and endpoint; the app and the dataProvider pick it up (docs/frontend.md). */
import { describe, expect, it } from 'vitest';
import { createDataProvider } from '../../../src/providers/dataProvider';
import { createHttpClient } from '../../../src/providers/httpClient';
import { createSessionStore } from '../../../src/providers/session';
import { accessRulesOf, endpointsOf, messagesOf, resources } from '../../../src/resources';
import { http, HttpResponse, setupMswServer } from '../../support/msw';

const server = setupMswServer();

describe('resource registry', () => {
  it('collects the Log resource folder with its list view, endpoint, permission and labels', () => {
    const log = resources.find((r) => r.name === 'log');
    expect(log).toBeDefined();
    expect(log!.list).toBeDefined();
    expect(endpointsOf(resources).log).toMatchObject({ path: 'log/', ordering: { ad_account: 'folder_name' } });
    expect(accessRulesOf(resources).log).toEqual({ list: 'view_logs' });
    expect(messagesOf(resources)).toContainEqual(
      expect.objectContaining({ resources: expect.objectContaining({ log: expect.anything() }) }),
    );
  });

  it('feeds the dataProvider, which then serves the resource with nothing else edited', async () => {
    let query = '';
    server.use(
      http.get('/api/log/', ({ request }) => {
        query = new URL(request.url).search;
        return HttpResponse.json({ count: 1, results: [{ id: 1, action: 'Folder created' }] });
      }),
    );
    const session = createSessionStore(localStorage);
    const provider = createDataProvider({
      endpoints: endpointsOf(resources),
      http: createHttpClient({ session, onLoginScreen: () => false }).request,
    });
    const result = await provider.getList('log', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'ad_account', order: 'DESC' },
      filter: { rule_id: ['5'], folder_id: ['2'] },
    });
    expect(result.total).toBe(1);
    expect(new URLSearchParams(query).get('ordering')).toBe('-folder_name');
    expect(new URLSearchParams(query).get('rule_id_in')).toBe('5');
    expect(new URLSearchParams(query).get('folder_id_in')).toBe('2');
  });
});
