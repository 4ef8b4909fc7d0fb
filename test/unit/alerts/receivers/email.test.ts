import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { EmailIntegration } from '../../../../src/alerts/notify/receivers/index.js';
import { generateCerts } from '../../../support/certs.js';
import { startSmtpSink, type SmtpSink } from '../../../support/notification-sinks.js';
import { literalTemplates, receiverFrom, requestFor } from '../../../support/receiver-fixtures.js';

/**
 * An email integration to `sink`: to two addresses, Subject `Disk full`, a text body and no HTML
 * unless `settings` (YAML values by key) say otherwise.
 */
function emailTo(sink: SmtpSink, settings: Record<string, string> = {}, baseDir = process.cwd()): EmailIntegration {
  const entry = { to: '"ops@example.org, Second <second@example.org>"', headers: '{Subject: Disk full}', html: '""', text: 'plain body', ...settings };
  const [config] = receiverFrom(
    `  smtp_smarthost: ${sink.host}:${sink.port}\n  smtp_from: Alertmanager <am@example.org>\n  smtp_hello: notifier.example\n`,
    `  email_configs:\n  - ${Object.entries(entry).map(([key, value]) => `${key}: ${value}`).join('\n    ')}\n`,
  ).emailConfigs;
  if (config === undefined) throw new Error('no email config');
  return new EmailIntegration(0, config, literalTemplates, baseDir);
}

t.test('a message as Alertmanager writes it: headers, multipart/alternative with text then HTML, envelope and EHLO', async (t) => {
  const sink = await startSmtpSink(t);
  const html = '<p>Dépassé: <b>disk</b> ✓</p>\n' + 'x'.repeat(200) + ' \n=end';
  const email = emailTo(sink, { require_tls: 'false', html: JSON.stringify(html), headers: '{Subject: "Disque plein ✓ on host-1", X-Team: storage}' });
  t.same(await email.notify(requestFor(['host-1'])), { ok: true });
  const mail = await sink.nth(1);
  t.equal(mail.from, 'am@example.org');
  t.same(mail.to, ['ops@example.org', 'second@example.org']);
  t.equal(mail.hello, 'notifier.example');
  t.equal(mail.secure, false, 'no STARTTLS offered, none required');
  t.equal(mail.parsed.subject, 'Disque plein ✓ on host-1', 'a non-ASCII header is Q-encoded and decodes back');
  t.match(mail.raw, /^From: Alertmanager <am@example\.org>\r\nSubject: =\?utf-8\?q\?Disque_plein_=E2=9C=93_on_host-1\?=\r\nTo: ops@example\.org, Second <second@example\.org>\r\nX-Team: storage\r\nMessage-Id: <\d+\.\d+@[^>]+>\r\nDate: \w{3}, \d{2} \w{3} 2026 \d{2}:\d{2}:\d{2} [+-]\d{4}\r\nContent-Type: multipart\/alternative; {2}boundary=[0-9a-f]{60}\r\nMIME-Version: 1\.0\r\n\r\n/);
  t.equal(mail.parsed.headers.get('x-team'), 'storage');
  t.equal(mail.parsed.text, 'plain body');
  t.equal(mail.parsed.html, html, 'the HTML part, long lines and a trailing space included, comes back whole');
  t.ok(mail.raw.indexOf('Content-Type: text/plain; charset=UTF-8') < mail.raw.indexOf('Content-Type: text/html; charset=UTF-8'), 'text first, HTML last (the preferred alternative)');
  t.ok(mail.raw.split('\r\n').every((line) => line.length <= 76 || /^(Subject|To|Content-Type|Message-Id):/.test(line)), 'body lines are soft-broken at 76 characters');
});

t.test('STARTTLS with the configured CA, then AUTH: PLAIN, LOGIN and CRAM-MD5 as the server offers them', async (t) => {
  const certs = await generateCerts(t);
  for (const [mechanism, secretSetting] of [
    ['PLAIN', 'auth_password'],
    ['LOGIN', 'auth_password'],
    ['CRAM-MD5', 'auth_secret'],
  ] as const) {
    const sink = await startSmtpSink(t, { tls: certs.server, users: { alice: 'hunter2' }, authMethods: [mechanism] });
    const email = emailTo(sink, { auth_username: 'alice', [secretSetting]: 'hunter2', tls_config: `{ca_file: ${certs.ca.certFile}}` });
    t.same(await email.notify(requestFor(['host-1'])), { ok: true }, mechanism);
    const mail = await sink.nth(1);
    t.same([mail.secure, mail.user, mail.authMethod], [true, 'alice', mechanism], `${mechanism} after STARTTLS`);
  }
});

t.test('the password and the CA may live in files beside the configuration, read at each send', async (t) => {
  const certs = await generateCerts(t);
  const sink = await startSmtpSink(t, { tls: certs.server, users: { alice: 'from-file' } });
  await writeFile(join(certs.dir, 'smtp-password'), 'from-file\n');
  await copyFile(certs.ca.certFile, join(certs.dir, 'smtp-ca.crt'));
  const email = emailTo(sink, { auth_username: 'alice', auth_password_file: 'smtp-password', tls_config: '{ca_file: smtp-ca.crt}' }, certs.dir);
  t.same(await email.notify(requestFor(['host-1'])), { ok: true });
  t.equal((await sink.nth(1)).user, 'alice');
});

t.test('failures become results: retried for SMTP trouble, given up for templates', async (t) => {
  const certs = await generateCerts(t);
  const plain = await startSmtpSink(t);
  t.same(await emailTo(plain).notify(requestFor(['host-1'])), {
    ok: false,
    retry: true,
    reason: 'other',
    error: `'require_tls' is true (default) but "${plain.host}:${plain.port}" does not advertise the STARTTLS extension`,
  });

  const untrusted = await startSmtpSink(t, { tls: certs.server });
  const notTrusted = await emailTo(untrusted).notify(requestFor(['host-1']));
  t.match(notTrusted, { ok: false, retry: true, reason: 'other', error: /certificate/ }, 'a certificate the CA list does not vouch for');
  t.equal(untrusted.messages.length, 0);

  const guarded = await startSmtpSink(t, { tls: certs.server, users: { alice: 'right' } });
  const tls = { tls_config: `{ca_file: ${certs.ca.certFile}}`, auth_username: 'alice' };
  t.match(await emailTo(guarded, { ...tls, auth_password: 'wrong' }).notify(requestFor(['host-1'])), { ok: false, retry: true, error: /^PLAIN auth: .*535/ });
  t.match(await emailTo(guarded, tls).notify(requestFor(['host-1'])), {
    ok: false,
    retry: true,
    error: 'find auth mechanism: missing password for PLAIN auth mechanism; missing password for LOGIN auth mechanism',
  });

  const picky = await startSmtpSink(t, { rejectRecipient: (address) => address.startsWith('second@') });
  t.match(
    await emailTo(picky, { require_tls: 'false' }).notify(requestFor(['host-1'])),
    { ok: false, retry: false, error: /^send RCPT command: .*550/ },
    'one recipient refused: the others have it, so no retry sends them a second copy',
  );
  t.same((await picky.nth(1)).to, ['ops@example.org']);

  t.same(await emailTo(plain, { require_tls: 'false', headers: '{Subject: "{{ .Status }}"}' }).notify(requestFor(['host-1'])), {
    ok: false,
    retry: false,
    reason: 'other',
    error: 'execute "Subject" header template: template: literal templates only: {{ .Status }}',
  });
  t.match(await emailTo(plain, { require_tls: 'false', from: 'nobody' }).notify(requestFor(['host-1'])), { ok: false, retry: false, error: "parse 'from' addresses: mail: missing @ in addr-spec" });
  t.equal(plain.messages.length, 0);
});

t.test('an attempt ended by its deadline is not retried', async (t) => {
  const sink = await startSmtpSink(t);
  const ended = new AbortController();
  ended.abort('deadline');
  t.match(await emailTo(sink, { require_tls: 'false' }).notify(requestFor(['host-1'], { signal: ended.signal })), { ok: false, retry: false, reason: 'contextDeadlineExceeded' });
});
