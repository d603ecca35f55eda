import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, linksIn, mailerFromConfig } from '../../../server/mail/mailer';
import { renderMessage, userText } from '../../../server/mail/template';
import { invitationMail } from '../../../server/people/mails';
import { startSmtpPeer, type SmtpPeer } from './support';

const message = () => ({
  to: 'colleague@example.com',
  subject: 'Alert digest <3 rules>',
  ...renderMessage({
    paragraphs: ['Hello,', 'Rule "CPL > $40" & friends turned off 3 ads.'],
    action: { label: 'Open the activity', url: 'http://console.example.com/activity?rule_id=5&x=1' },
    footer: ['Sent by the rule engine.'],
  }),
});

describe('mailer over SMTP', () => {
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
  });
  afterAll(() => peer.close());

  it('delivers plain-text and HTML bodies to the SMTP server, from MAIL_FROM', async () => {
    const mailer = mailerFromConfig({
      smtpUrl: peer.url,
      mailFrom: 'Console <robot@example.com>',
      dataDir: '/nonexistent',
    });
    expect(mailer.mode).toBe('smtp');
    await mailer.send(message());
    const received = await peer.waitFor('colleague@example.com');
    expect(received.from).toBe('robot@example.com');
    expect(received.subject).toBe('Alert digest <3 rules>');
    expect(received.text).toContain('Rule "CPL > $40" & friends turned off 3 ads.');
    expect(received.links).toEqual(['http://console.example.com/activity?rule_id=5&x=1']);
    // HTML is escaped, and the button points at the same address.
    expect(received.html).toContain('Rule &quot;CPL &gt; $40&quot; &amp; friends');
    expect(received.html).toContain('href="http://console.example.com/activity?rule_id=5&amp;x=1"');
    await mailer.close();
  });

  it('fails the send when the SMTP server cannot be reached', async () => {
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'a@example.com', outboxDir: '/nonexistent' });
    await expect(mailer.send(message())).rejects.toThrow();
    await mailer.close();
  });
});

describe('mailer without SMTP', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mail-outbox-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('writes each message as an .eml file only its owner can read, and logs where — never its links', async () => {
    const logged: string[] = [];
    const mailer = mailerFromConfig({ mailFrom: 'Console <robot@example.com>', dataDir }, (line) => logged.push(line));
    expect(mailer.mode).toBe('outbox');
    const first = await mailer.send(message());
    await mailer.send({ ...message(), to: 'second@example.com', subject: 'Second' });

    const files = (await readdir(path.join(dataDir, 'outbox'))).sort();
    expect(files).toHaveLength(2);
    expect(first.file).toBe(path.join(dataDir, 'outbox', files[0]!));
    const parsed = await PostalMime.parse(await readFile(first.file!));
    expect(parsed.to?.map((a) => ('address' in a ? a.address : ''))).toEqual(['colleague@example.com']);
    expect(parsed.subject).toBe('Alert digest <3 rules>');
    expect(parsed.text).toContain('Open the activity: http://console.example.com/activity?rule_id=5&x=1');
    expect(parsed.html).toContain('<a href="http://console.example.com/activity?rule_id=5&amp;x=1"');

    expect(logged[0]).toContain('colleague@example.com');
    expect(logged[0]).toContain(first.file);
    expect(logged.join('\n')).not.toContain('http://');
    expect((await stat(first.file!)).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dataDir, 'outbox'))).mode & 0o077).toBe(0);
  });
});

describe('user text in mails', () => {
  it('cannot become a link, an address or a second paragraph, and is cut to length', () => {
    expect(userText('http://evil.example/login')).toBe('http[:]//evil[.]example/login');
    expect(userText('Mallory <mallory@evil.example>')).toBe('Mallory <mallory[at]evil[.]example>');
    expect(userText('Line one\r\nBcc: victim@example.com')).toBe('Line one Bcc: victim[at]example[.]com');
    expect(userText('J. R. R. Tolkien')).toBe('J. R. R. Tolkien');
    expect(userText('CPL: $12.50 ≥ 0.45%')).toBe('CPL: $12.50 ≥ 0.45%');
    expect(userText('go to 1.2.3.co/x or x1.io')).toBe('go to 1.2.3[.]co/x or x1[.]io');
    expect(userText('A'.repeat(80))).toBe(`${'A'.repeat(59)}…`);
  });

  it('an invitation names its sender and group only as defanged text', () => {
    const mail = invitationMail(
      'new@example.com',
      'http://console.test/join/abc',
      'Visit www.evil.example',
      'Admins@evil.example',
    );
    expect(mail.text).toContain('Visit www[.]evil[.]example invited you');
    expect(mail.text).toContain('(permission group: Admins[at]evil[.]example)');
    expect(linksIn(mail.text)).toEqual(['http://console.test/join/abc']);
  });
});
