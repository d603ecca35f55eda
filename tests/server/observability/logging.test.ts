/**
 * The request log, read from the logger's destination stream: one JSON line per request at info
 * (method, URL, route pattern, status, duration), the probes and the browser app's files at debug,
 * and no secret from an e-mailed link (/join/<code>, /confirm-password-reset/<token>, token-like
 * query values) in any line.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import type { DbHandle } from '../../../server/db/client';
import { loggerOptions, redactUrl } from '../../../server/observability/logging';
import { freshDatabase } from '../../support/db';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const INFO = 30;
const DEBUG = 20;

async function appLoggingTo(lines: string[], logLevel: string, dbh: DbHandle, staticDir: string) {
  const config = loadConfig({ DATA_DIR: '/tmp/ad-rules-test-unused', LOG_LEVEL: logLevel } as NodeJS.ProcessEnv);
  const app = await buildApp({
    config,
    dbh,
    jwtSecret: randomBytes(32).toString('hex'),
    staticDir,
    logger: loggerOptions(config, { write: (line) => lines.push(line) }),
  });
  await app.ready();
  return app;
}

describe('request log', () => {
  let dbh: DbHandle;
  let staticDir: string;
  let app: FastifyInstance;
  let debugApp: FastifyInstance;
  const infoLines: string[] = [];
  const debugLines: string[] = [];
  const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as LogLine);
  const requestLines = (lines: string[]) => parsed(lines).filter((line) => line.method !== undefined);

  beforeAll(async () => {
    dbh = await freshDatabase('pglite');
    staticDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-static-'));
    await mkdir(path.join(staticDir, 'assets'));
    await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Ad Rules Console</title>');
    await writeFile(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    app = await appLoggingTo(infoLines, 'info', dbh, staticDir);
    debugApp = await appLoggingTo(debugLines, 'debug', dbh, staticDir);
  });
  afterAll(async () => {
    await app.close();
    await debugApp.close();
    await dbh.close();
    await rm(staticDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    infoLines.length = 0;
    debugLines.length = 0;
  });

  it('writes one line per request, when it is answered', async () => {
    await app.inject({ method: 'GET', url: '/api/rule/42/' });
    await app.inject({ method: 'POST', url: '/api/token/', payload: { email: 'nobody@example.com', password: 'x' } });

    const lines = parsed(infoLines);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: INFO,
      method: 'GET',
      url: '/api/rule/42/',
      route: '/api/rule/:id/',
      status: 401,
      durationMs: expect.any(Number),
      msg: expect.stringMatching(/^GET \/api\/rule\/42\/ 401 [\d.]+ ms$/),
    });
    expect(lines[1]).toMatchObject({ method: 'POST', route: '/api/token/', status: 401 });
  });

  it('never writes the secret of an invitation or password-reset link', async () => {
    const code = 'inv1TaTi0nC0de';
    const token = 'r3setT0kenValue';
    await app.inject({ method: 'GET', url: `/join/${code}` });
    await app.inject({ method: 'GET', url: `/confirm-password-reset/${token}/` });
    await app.inject({ method: 'GET', url: `/api/user/me/?token=${token}&code=${code}&page=2` });
    await debugApp.inject({ method: 'GET', url: `/join/${code}?utm=mail` });

    const all = [...infoLines, ...debugLines].join('');
    expect(all).not.toContain(code);
    expect(all).not.toContain(token);
    expect(requestLines(infoLines).map((line) => line.url)).toEqual([
      '/join/[redacted]',
      '/confirm-password-reset/[redacted]/',
      '/api/user/me/?token=[redacted]&code=[redacted]&page=2',
    ]);
    expect(requestLines(infoLines).map((line) => line.status)).toEqual([200, 200, 401]);
  });

  it('logs the probes and the browser app files at debug only', async () => {
    for (const target of [app, debugApp]) {
      await target.inject({ method: 'GET', url: '/healthz' });
      await target.inject({ method: 'GET', url: '/readyz' });
      await target.inject({ method: 'GET', url: '/assets/app.js' });
      await target.inject({ method: 'GET', url: '/' });
    }
    expect(requestLines(infoLines).map((line) => line.url)).toEqual(['/']);
    expect(requestLines(debugLines).map((line) => [line.url, line.level])).toEqual([
      ['/healthz', DEBUG],
      ['/readyz', DEBUG],
      ['/assets/app.js', DEBUG],
      ['/', INFO],
    ]);
  });
});

describe('redactUrl', () => {
  it('hides secret path segments and token-like query values, and nothing else', () => {
    expect(redactUrl('/join/abc')).toBe('/join/[redacted]');
    expect(redactUrl('/join/abc/extra?x=1')).toBe('/join/[redacted]/extra?x=1');
    expect(redactUrl('/confirm-password-reset/t0k?next=%2F')).toBe('/confirm-password-reset/[redacted]?next=%2F');
    expect(redactUrl('/confirm-email-change/t0k')).toBe('/confirm-email-change/[redacted]');
    expect(redactUrl('/api/x/?access_token=a&reset_code=b&apiKey=c&q=d')).toBe(
      '/api/x/?access_token=[redacted]&reset_code=[redacted]&apiKey=[redacted]&q=d',
    );
    expect(redactUrl('/joined/abc?flag')).toBe('/joined/abc?flag');
    expect(redactUrl('/api/rules/12/')).toBe('/api/rules/12/');
  });
});
