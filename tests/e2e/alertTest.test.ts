/**
 * Alerts you can trust, in a real browser on a fresh `npm start`: an alert destination added in the
 * app, "Send a test" pressed against a local HTTPS receiver on 127.0.0.1 (named in
 * ALERT_WEBHOOK_HOSTS, its certificate trusted through NODE_EXTRA_CA_CERTS — the address policy
 * as an operator sets it), its answer code shown (200, then 500 with the failure counted); a
 * folder's own alert recipients set in the folder dialog and named in the rule editor. Screenshots
 * at 1280 and 390 px go to docs/screenshots/, and axe finds nothing at either width.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, signIn } from './support/browser';
import { adminApi, type AdminApi } from './support/engineScenario';
import { openProduct } from './support/product';
import { axeViolations, DESKTOP, PHONE, pageOverflow } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

/** A self-signed certificate for 127.0.0.1, made for this run only. */
function loopbackCertificate(dir: string) {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { key, cert };
}

/** A Slack-like incoming webhook on 127.0.0.1: records each post, answers the next queued status (200 when none). */
class HttpsReceiver {
  posts: { path: string; text: string }[] = [];
  statuses: number[] = [];
  private server: Server;
  constructor(tls: { key: string; cert: string }) {
    this.server = createServer({ key: readFileSync(tls.key), cert: readFileSync(tls.cert) }, (request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        this.posts.push({ path: request.url ?? '', text: (JSON.parse(body) as { text: string }).text });
        response.writeHead(this.statuses.shift() ?? 200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
  }
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }
  get port() {
    return (this.server.address() as AddressInfo).port;
  }
  url(pathname: string) {
    return `https://127.0.0.1:${this.port}${pathname}`;
  }
  close() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** axe at both widths (nothing found), no sideways scrolling, and a screenshot of each in docs/screenshots. */
async function checkAndShoot(page: Page, name: string, clipTo?: (page: Page) => Locator) {
  const findings: string[] = [];
  for (const [size, width] of [
    [DESKTOP, 1280],
    [PHONE, 390],
  ] as const) {
    await page.setViewportSize(size);
    await settled(page);
    const overflow = await pageOverflow(page);
    if (overflow > 0) findings.push(`${width}: the page is ${overflow}px wider than the window`);
    for (const violation of await axeViolations(page)) findings.push(`${width}: axe ${violation}`);
    const file = path.join(ROOT, 'docs', 'screenshots', `${name}-${width}.png`);
    const box = clipTo ? await clipTo(page).boundingBox() : null;
    await page.screenshot({ path: file, ...(box ? { clip: box } : { fullPage: true }) });
  }
  await page.setViewportSize(DESKTOP);
  return findings;
}

describe('Alerts you can trust in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let receiver: HttpsReceiver;
  let api: AdminApi;
  let certDir: string;

  beforeAll(async () => {
    certDir = mkdtempSync(path.join(tmpdir(), 'alert-test-tls-'));
    const tls = loopbackCertificate(certDir);
    receiver = new HttpsReceiver(tls);
    await receiver.start();
    const opened = await openProduct({
      // The operator allows this one loopback address and port; the server trusts the receiver's certificate.
      ALERT_WEBHOOK_HOSTS: `127.0.0.1:${receiver.port}`,
      NODE_EXTRA_CA_CERTS: tls.cert,
    });
    close = opened.close;
    // axe is injected as a script: the app's Content-Security-Policy would refuse it.
    const context = await opened.browser.newContext({
      baseURL: opened.product.url,
      viewport: DESKTOP,
      bypassCSP: true,
    });
    page = await context.newPage();
    api = await adminApi(opened.product.url);
    await signIn(page, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await close?.();
    await receiver?.close();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  it('adds a destination, sends a test and shows its answer code; a 500 after it is counted as a failure', async () => {
    await page.goto('/alert_destinations/create');
    await page.getByRole('textbox', { name: 'Name' }).fill('Ops channel');
    await page.getByRole('textbox', { name: 'Webhook URL' }).fill(receiver.url('/services/T1/B1/ops'));
    await page.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Ops channel' });
    await row.getByText('Nothing delivered yet').waitFor({ timeout: 30_000 });

    await row.getByRole('button', { name: 'Send a test to Ops channel' }).click();
    await row.getByRole('status').filter({ hasText: 'Delivered: answer 200' }).waitFor({ timeout: 30_000 });
    await row.getByText(/test · answered 200/).waitFor();
    expect(receiver.posts.map((p) => p.path)).toEqual(['/services/T1/B1/ops']);
    expect(receiver.posts[0]!.text).toMatch(/^Test message from Ad Rules Console\n/);

    receiver.statuses.push(500);
    await row.getByRole('button', { name: 'Send a test to Ops channel' }).click();
    await row
      .getByRole('status')
      .filter({ hasText: 'Failed: answer 500 (the webhook answered 500)' })
      .waitFor({ timeout: 30_000 });
    await row.getByText('1 failure in a row').waitFor();
    await row.getByText(/test · answered 500/).waitFor();
    expect(await checkAndShoot(page, 'alert-destinations')).toEqual([]);
  });

  it('sets a folder’s own alert recipients in its dialog, and the rule editor says the mail goes to them', async () => {
    const accounts = await api<{ results: { ad_account_id: string }[] }>('GET', 'meta_ad_account/?limit=400');
    const folder = await api<{ id: number; name: string; rules: { id: number }[] }>('POST', 'general_page/', {
      client_type: 'EDM',
      plan: 'solo',
      meta_ad_account_id: accounts.results[0]!.ad_account_id,
      name: 'Harbor Recipients',
      extension: { external_credentials: { demio: null } },
    });
    await page.goto('/');
    await page.getByRole('button', { name: `Edit folder ${folder.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Update Folder' });
    const recipients = dialog.getByRole('textbox', { name: 'Alert recipients' });
    await recipients.fill('ana@example.com, not-an-address');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await dialog.getByText('Not an e-mail address: not-an-address').waitFor();
    await recipients.fill('ana@example.com, ben@example.org');
    await recipients.scrollIntoViewIfNeeded();
    expect(await checkAndShoot(page, 'folder-alert-recipients', (p) => p.getByRole('dialog'))).toEqual([]);
    await dialog.getByRole('button', { name: 'Update' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const stored = await api<{ alert_emails: string[] }>('GET', `general_page/${folder.id}/`);
    expect(stored.alert_emails).toEqual(['ana@example.com', 'ben@example.org']);

    await page.goto(`/edit-rule/${folder.rules[0]!.id}`);
    await page
      .getByText('Mail goes to: ana@example.com, ben@example.org (this folder’s recipients)')
      .waitFor({ timeout: 30_000 });
  });
});
