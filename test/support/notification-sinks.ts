/**
 * Receivers for notifications in tests: the HTTP sink (http-sink.ts) for webhook, Slack,
 * PagerDuty and Teams, and an SMTP sink (smtp-server) for email, which records every message
 * with its envelope, how the session was secured and authenticated, and the message parsed by
 * mailparser, and lets a test wait for the n-th message without sleeping.
 *
 *   const smtp = await startSmtpSink(t, { tls: certs.server, users: { alice: 'secret' } });
 *   const mail = await smtp.nth(1);
 *   mail.parsed.subject; mail.parsed.text; mail.parsed.html; mail.secure; mail.user
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAuthentication } from 'smtp-server';
import type { Teardown } from './teardown.js';

export { startHttpSink, type HttpSink, type SinkAnswer, type SunkRequest } from './http-sink.js';

export interface SunkMail {
  /** MAIL FROM and RCPT TO. */
  from: string;
  to: string[];
  /** The message as it came, CRLF line ends and all. */
  raw: string;
  parsed: ParsedMail;
  /** Whether the session was TLS (implicit or after STARTTLS) when the message came. */
  secure: boolean;
  /** The user that authenticated, and how; undefined without AUTH. */
  user: string | undefined;
  authMethod: string | undefined;
  /** The name the client gave in EHLO. */
  hello: string;
}

export interface SmtpSinkOptions {
  /** A key and certificate: STARTTLS is offered (or, with `implicitTls`, the whole session is TLS). Absent: no STARTTLS. */
  tls?: { key: Buffer; cert: Buffer };
  implicitTls?: boolean;
  /** Users and passwords: AUTH is offered (before TLS too) and required. Absent: no AUTH. */
  users?: Record<string, string>;
  /** The mechanisms offered; default PLAIN and LOGIN. */
  authMethods?: string[];
  /** Recipients answered 550. */
  rejectRecipient?: (address: string) => boolean;
}

export interface SmtpSink {
  readonly host: string;
  readonly port: number;
  readonly messages: readonly SunkMail[];
  /** Resolves with the n-th message (from 1) once it has arrived; rejects after `timeoutMs`. */
  nth(n: number, timeoutMs?: number): Promise<SunkMail>;
}

export async function startSmtpSink(t: Teardown, options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: SunkMail[] = [];
  const waiters: Array<{ n: number; resolve: (mail: SunkMail) => void }> = [];
  const authOf = new Map<string, SMTPServerAuthentication>();
  const users = options.users;
  const server = new SMTPServer({
    logger: false,
    secure: options.implicitTls ?? false,
    ...(options.tls === undefined ? {} : { key: options.tls.key, cert: options.tls.cert }),
    disabledCommands: [...(options.tls === undefined ? ['STARTTLS'] : []), ...(users === undefined ? ['AUTH'] : [])],
    authMethods: options.authMethods ?? ['PLAIN', 'LOGIN'],
    authOptional: users === undefined,
    // AUTH is offered on a plain connection too, so a test can see what the client does with it.
    allowInsecureAuth: true,
    onAuth(auth, session, callback) {
      const password = users?.[auth.username ?? ''];
      const valid = password !== undefined && (auth.method === 'CRAM-MD5' ? auth.validatePassword(password) : auth.password === password);
      if (!valid) return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      authOf.set(session.id, auth);
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipient?.(address.address) === true) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw, (error, parsed) => {
          if (error) return callback(error as Error);
          const auth = authOf.get(session.id);
          const mailFrom = session.envelope.mailFrom;
          const mail: SunkMail = {
            from: mailFrom === false ? '' : mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            parsed,
            secure: session.secure,
            user: auth?.username,
            authMethod: auth?.method,
            hello: session.hostNameAppearsAs,
          };
          messages.push(mail);
          callback();
          for (const waiter of waiters.filter((w) => w.n <= messages.length)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(messages[waiter.n - 1] as SunkMail);
          }
        });
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    host: '127.0.0.1',
    port: (server.server.address() as AddressInfo).port,
    messages,
    nth(n, timeoutMs = 15_000) {
      if (messages.length >= n) return Promise.resolve(messages[n - 1] as SunkMail);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the SMTP sink got ${messages.length} messages, not ${n}, within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ n, resolve: (mail) => (clearTimeout(timer), resolve(mail)) });
      });
    },
  };
}
