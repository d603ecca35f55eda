import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { startSimulator } from '../../../server/adplatform/simulator/index';
import { DEMIO_API_URL } from '../../../server/webinar/demioClient';
import { startWebinarPlatform } from '../../../server/webinar/index';

describe('startWebinarPlatform', () => {
  it('starts the Demio simulator on the Graph simulator’s world and clock when DEMIO_API_URL is unset', async () => {
    const graph = await startSimulator({ seed: 2, speed: 0, accounts: 1, campaignsPerAccount: 8 });
    const webinar = await startWebinarPlatform(loadConfig({}), { mode: 'simulator', simulator: graph });
    try {
      expect(webinar.mode).toBe('simulator');
      expect(webinar.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      expect(webinar.simulator!.world.graph).toBe(graph.world);
      expect(webinar.simulator!.clock).toBe(graph.clock);
      const [account] = webinar.simulator!.world.accounts;
      await webinar.clientFor({ api_key: account!.apiKey, api_secret: account!.apiSecret }).ping();
    } finally {
      await webinar.stop();
      await graph.close();
    }
  });

  it('talks to DEMIO_API_URL when set, and to Demio’s own API beside Meta’s', async () => {
    const set = await startWebinarPlatform(loadConfig({ DEMIO_API_URL: 'http://127.0.0.1:9/api/v1' }), {
      mode: 'simulator',
    });
    expect([set.mode, set.baseUrl, set.simulator]).toEqual(['demio', 'http://127.0.0.1:9/api/v1', undefined]);
    const meta = await startWebinarPlatform(loadConfig({}), { mode: 'meta' });
    expect([meta.mode, meta.baseUrl]).toEqual(['demio', DEMIO_API_URL]);
  });
});
