/** HTTP-level protections: nothing cached, authentication on the matched route whatever the URL's spelling. */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
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

    it('marks unknown API calls no-store when the browser app is served beside the API too', async () => {
      const staticDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-static-'));
      await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
      const served = await buildApp({
        config: api.config,
        dbh: api.dbh,
        jwtSecret: randomBytes(32).toString('hex'),
        staticDir,
      });
      try {
        for (const url of ['/api/no-such-thing/', '/api/rules/1/no-such-call/', '/api/x']) {
          const answer = await served.inject({
            method: 'GET',
            url,
            headers: { authorization: `Bearer ${user.token}` },
          });
          expect(answer.statusCode, url).toBe(404);
          expect(answer.json()).toEqual({ detail: 'Not found.' });
          expect(answer.headers['cache-control'], url).toBe('no-store');
        }
        const page = await served.inject({ method: 'GET', url: '/rules' });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('<title>app</title>');
      } finally {
        await served.close();
        await rm(staticDir, { recursive: true, force: true });
      }
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
