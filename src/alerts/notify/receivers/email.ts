import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import addressparser from 'nodemailer/lib/addressparser';
import type { EmailConfig } from '../../config/index.js';
import { templateData } from '../../templates/build-data.js';
import type { Templates } from '../../templates/templates.js';
import { resultOfError } from '../http-sender.js';
import type { Integration, NotifyRequest, NotifyResult } from '../integration.js';
import { composeEmail } from './email-message.js';
import { permanentFailure } from './http-post.js';
import { sendOverSmtp } from './smtp-session.js';
import { FieldRenderer } from './template-fields.js';

/** Go's mail.ParseAddressList, as far as a notifier needs it: the addresses, or why there are none. */
function parseAddresses(list: string): { ok: true; value: string[] } | { ok: false; error: string } {
  const parsed = addressparser(list, { flatten: true });
  if (parsed.length === 0) return { ok: false, error: 'mail: no address' };
  const addresses = parsed.map((entry) => entry.address);
  if (addresses.some((address) => !address.includes('@'))) return { ok: false, error: 'mail: missing @ in addr-spec' };
  return { ok: true, value: addresses };
}

/** `<nanoseconds.random@host>`, as Alertmanager makes a Message-Id. */
function messageId(now: number): string {
  return `<${BigInt(Math.round(now)) * 1_000_000n}.${randomBytes(8).readBigUInt64BE()}@${hostname() || 'localhost.localdomain'}>`;
}

type Built = { ok: true; from: string; to: string[]; message: string } | { ok: false; error: string };

/**
 * An `email_configs` entry: a multipart/alternative message with the configured headers
 * (templated), the text body (`text`, when set) and the HTML body (`html`, through the HTML
 * templates), sent over SMTP as Alertmanager's notify/email sends it.
 */
export class EmailIntegration implements Integration {
  readonly kind = 'email';
  readonly sendResolved: boolean;

  constructor(
    readonly index: number,
    private readonly config: EmailConfig,
    private readonly templates: Templates,
    /** The configuration file's directory: relative TLS and password files are read from there. */
    private readonly baseDir: string,
  ) {
    this.sendResolved = config.sendResolved;
  }

  /** The envelope and the message, or the first failure of a template or an address. */
  message(request: NotifyRequest): Built {
    const c = this.config;
    const data = templateData(request);
    const render = new FieldRenderer(this.templates, data);
    const from = render.text(c.from);
    if (render.error !== undefined) return { ok: false, error: `execute 'from' template: ${render.error}` };
    const to = render.text(c.to);
    if (render.error !== undefined) return { ok: false, error: `execute 'to' template: ${render.error}` };
    const fromAddresses = parseAddresses(from);
    if (!fromAddresses.ok) return { ok: false, error: `parse 'from' addresses: ${fromAddresses.error}` };
    if (fromAddresses.value.length !== 1) return { ok: false, error: `must be exactly one 'from' address (got: ${fromAddresses.value.length})` };
    const toAddresses = parseAddresses(to);
    if (!toAddresses.ok) return { ok: false, error: `parse 'to' addresses: ${toAddresses.error}` };

    const headers: Array<[string, string]> = [];
    for (const [name, template] of c.headers) {
      const value = this.templates.text(template, data);
      if (!value.ok) return { ok: false, error: `execute ${JSON.stringify(name)} header template: ${value.error}` };
      headers.push([name, value.value]);
    }
    let text: string | undefined;
    if (c.text !== '') {
      const rendered = this.templates.text(c.text, data);
      if (!rendered.ok) return { ok: false, error: `execute text template: ${rendered.error}` };
      text = rendered.value;
    }
    let html: string | undefined;
    if (c.html !== '') {
      const rendered = this.templates.html(c.html, data);
      if (!rendered.ok) return { ok: false, error: `execute html template: ${rendered.error}` };
      html = rendered.value;
    }
    const ownMessageId = c.headers.some(([name]) => name === 'Message-Id');
    const message = composeEmail({ headers, text, html, messageId: ownMessageId ? undefined : messageId(request.now), date: new Date(request.now) });
    return { ok: true, from: fromAddresses.value[0] ?? '', to: toAddresses.value, message };
  }

  async notify(request: NotifyRequest): Promise<NotifyResult> {
    const built = this.message(request);
    if (!built.ok) return permanentFailure(built.error);
    const sent = await sendOverSmtp(this.config, this.baseDir, { from: built.from, to: built.to }, built.message, request.signal);
    if (sent.ok) return sent;
    // Alertmanager stops at the first refused recipient and retries; nodemailer goes on with the
    // others, and a retry would send those a second copy, so a partial delivery is not retried.
    if (sent.delivered) return { ok: false, retry: false, reason: 'other', error: sent.error };
    // Every other SMTP failure is retried, as Alertmanager retries them, unless the attempt was ended.
    return resultOfError(new Error(sent.error), request.signal);
  }
}
