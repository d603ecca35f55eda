/** Paging links come from PUBLIC_URL, whatever Host or X-Forwarded-* headers a client sends (ASVS 5.1, 14.5). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';

describe('paging links', () => {
  let api: TestApi;
  let admin: TestUser;
  beforeAll(async () => {
    api = await createTestApi('pglite', { config: { publicUrl: 'https://console.example.com' } });
    admin = await api.userWith('superuser');
    for (let i = 0; i < 3; i += 1) await api.userWith([]);
  });
  afterAll(() => api.close());

  it('point at the configured address, not at a Host header the client chose', async () => {
    const answer = await api.request(admin.token, {
      method: 'GET',
      url: '/api/user/?limit=1&offset=1',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    });
    expect(answer.statusCode).toBe(200);
    const { next, previous } = answer.json();
    expect(next).toBe('https://console.example.com/api/user/?limit=1&offset=2');
    expect(previous).toBe('https://console.example.com/api/user/?limit=1');
  });
});
