import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../../../server/people/bootstrap';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';

eachDatabase((engine) => {
  describe(`first start on ${engine}`, () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await createTestApi(engine);
    });
    afterAll(() => api.close());

    it('creates a superuser with a generated password once, and that password signs in', async () => {
      const first = await ensureAdmin(api.dbh.db, 'owner@example.com');
      expect(first.created).toBe(true);
      expect(first.generatedPassword).toMatch(/^\S{12,}$/);

      const again = await ensureAdmin(api.dbh.db, 'owner@example.com');
      expect(again).toEqual({ created: false, email: 'owner@example.com' });

      const login = await api.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email: 'owner@example.com', password: first.generatedPassword },
      });
      expect(login.statusCode).toBe(200);
      const me = await api.request(login.json().access, { method: 'GET', url: '/api/user/me/' });
      expect(me.json()).toMatchObject({ is_superuser: true, is_active: true });
    });
  });

  describe(`several processes starting together on an empty ${engine} database`, () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await createTestApi(engine);
    });
    afterAll(() => api.close());

    it('print one password, and it is the one that signs in', async () => {
      const starts = await Promise.all(Array.from({ length: 4 }, () => ensureAdmin(api.dbh.db, 'first@example.com')));
      const printed = starts.filter((start) => start.generatedPassword);
      expect(printed).toHaveLength(1);
      expect(starts.filter((start) => start.created)).toHaveLength(1);
      const login = await api.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email: 'first@example.com', password: printed[0]!.generatedPassword },
      });
      expect(login.statusCode).toBe(200);
    });
  });
});
