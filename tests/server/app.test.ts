/** HTTP-level protections: nothing cached, authentication on the matched route whatever the URL's spelling. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi, type TestUser } from '../support/api';
import { eachDatabase } from '../support/db';

eachDatabase((engine) => {
  describe(`HTTP protections on ${engine}`, () => {
    let api: TestApi;
    let user: TestUser;
    beforeAll(async () => {
      api = await createTestApi(engine);
      user = await api.userWith(['read_rules']);
    });
    afterAll(() => api.close());

    it('marks every API answer no-store: success, refusal, error and unknown path', async () => {
      const answers = await Promise.all([
        api.request(user.token, { method: 'GET', url: '/api/user/me/' }),
        api.request(null, { method: 'GET', url: '/api/user/me/' }),
        api.request(user.token, { method: 'GET', url: '/api/log/' }),
        api.request(null, { method: 'POST', url: '/api/token/', payload: {} }),
        api.request(user.token, { method: 'GET', url: '/api/no-such-thing/' }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 403, 400, 404]);
      for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
    });

    it('needs a token on an API route however its URL is spelled', async () => {
      for (const url of [
        '//api/user/me/',
        '/api//user/me/',
        '/%61pi/user/me/',
        '/api/user/me',
        '/api/./user/me/',
        '/API/user/me/',
      ]) {
        const answer = await api.request(null, { method: 'GET', url });
        expect([401, 404], `${url} → ${answer.statusCode}`).toContain(answer.statusCode);
        expect(answer.body).not.toContain(user.email);
      }
    });
  });
});
