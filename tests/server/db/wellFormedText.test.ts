/**
 * Text with lone UTF-16 surrogates (what a JSON body's `\udf4a` escapes decode to) reaches the
 * database as U+FFFD on both engines, instead of failing the query on PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';

const LONE_SURROGATES = 'a\udf4a\udd03\uda97\ud8dcb';

eachDatabase((engine) => {
  describe(`text with lone surrogates on ${engine}`, () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await createTestApi(engine);
    });
    afterAll(() => api.close());

    it('is compared and stored with each lone surrogate as U+FFFD, a surrogate pair kept', async () => {
      const result = await api.dbh.sql.query<{ text: string; same: boolean }>(
        'select $1::text as text, $1::text = $2::text as same',
        [`${LONE_SURROGATES} 😀`, 'a\ufffd\ufffd\ufffd\ufffdb 😀'],
      );
      expect(result.rows).toEqual([{ text: 'a\ufffd\ufffd\ufffd\ufffdb 😀', same: true }]);
    });

    it('answers a sign-in with such an e-mail as any unknown account, not with a 500', async () => {
      const response = await api.app.inject({
        method: 'POST',
        url: '/api/token/',
        headers: { 'content-type': 'application/json' },
        payload: `{"email":${JSON.stringify(LONE_SURROGATES)},"password":"correct-horse-1"}`,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'No active account found with the given credentials' });
    });
  });
});
