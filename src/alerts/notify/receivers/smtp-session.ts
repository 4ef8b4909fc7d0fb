import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { EmailConfig, TlsConfig } from '../../config/index.js';
import { configPath } from '../config-files.js';

/**
 * One SMTP conversation, as Alertmanager's email notifier holds it: implicit TLS on port 465,
 * otherwise plain TCP and STARTTLS when `require_tls` (never opportunistically), EHLO with
 * `hello`, AUTH only when the server offers it and a username is configured, then the message.
 * Every failure here is one a later attempt may not meet (Alertmanager retries them all).
 */
class SmtpFailure extends Error {}

const TLS_VERSIONS: Readonly<Record<string, ConnectionOptions['minVersion']>> = { TLS10: 'TLSv1', TLS11: 'TLSv1.1', TLS12: 'TLSv1.2', TLS13: 'TLSv1.3' };

/** The `tls_config` as Node's TLS options; the files are read at each send, as Alertmanager reads them. */
async function tlsOptions(tls: TlsConfig, host: string, baseDir: string): Promise<ConnectionOptions> {
  const options: ConnectionOptions = { rejectUnauthorized: !tls.insecureSkipVerify };
  if (tls.caFile !== '') options.ca = await readFile(configPath(baseDir, tls.caFile));
  if (tls.certFile !== '') options.cert = await readFile(configPath(baseDir, tls.certFile));
  if (tls.keyFile !== '') options.key = await readFile(configPath(baseDir, tls.keyFile));
  const minVersion = TLS_VERSIONS[tls.minVersion];
  if (minVersion !== undefined) options.minVersion = minVersion;
  // The name the certificate must carry: `server_name`, else the smarthost's host. Node checks an
  // IP address against the certificate by itself, and SNI carries names only.
  const servername = tls.serverName !== '' ? tls.serverName : host;
  if (isIP(servername) === 0) options.servername = servername;
  return options;
}

interface Credentials {
  /** `auth_password`, or `auth_password_file` read now. */
  password: () => Promise<string>;
  secret: string;
}

/**
 * Alertmanager's choice of an AUTH mechanism: the first the server offers that the
 * configuration can answer (CRAM-MD5 with `auth_secret`, PLAIN and LOGIN with the password).
 */
async function chooseAuth(offered: readonly string[], credentials: Credentials): Promise<{ method: string; pass: string } | { error: string }> {
  const problems: string[] = [];
  for (const method of offered) {
    if (method === 'CRAM-MD5') {
      if (credentials.secret !== '') return { method, pass: credentials.secret };
      problems.push('missing secret for CRAM-MD5 auth mechanism');
    } else if (method === 'PLAIN' || method === 'LOGIN') {
      let password: string;
      try {
        password = await credentials.password();
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
        continue;
      }
      if (password !== '') return { method, pass: password };
      problems.push(`missing password for ${method} auth mechanism`);
    }
  }
  if (problems.length === 0) problems.push(`unknown auth mechanism: ${offered.join(' ')}`);
  return { error: problems.join('; ') };
}

const LOCALHOST = new Set(['localhost', '127.0.0.1', '::1']);

/** The mechanisms the server's EHLO offered that nodemailer speaks (it keeps no public list of them). */
function offeredMechanisms(connection: SMTPConnection): string[] {
  const offered = (connection as unknown as { _supportedAuth?: unknown })._supportedAuth;
  return Array.isArray(offered) ? offered.map(String) : [];
}

export interface Envelope {
  from: string;
  to: readonly string[];
}

export type SmtpOutcome = { ok: true } | { ok: false; error: string; delivered: boolean };

/**
 * Sends `message` through the configured smarthost; a failure says which step failed, and
 * whether some recipients have the message all the same (the server refused only others).
 */
export async function sendOverSmtp(config: EmailConfig, baseDir: string, envelope: Envelope, message: string, signal: AbortSignal): Promise<SmtpOutcome> {
  try {
    const refused = await converse(config, baseDir, envelope, message, signal);
    return refused.length === 0 ? { ok: true } : { ok: false, error: `send RCPT command: ${refused.join('; ')}`, delivered: true };
  } catch (error) {
    // A TLS or password file that cannot be read fails here too.
    return { ok: false, error: error instanceof Error ? error.message : String(error), delivered: false };
  }
}

/** The refusals of the recipients the server would not take (the others have the message). */
async function converse(config: EmailConfig, baseDir: string, envelope: Envelope, message: string, signal: AbortSignal): Promise<string[]> {
  const { host, port } = config.smarthost;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const implicitTls = port === '465';
  const connection = new SMTPConnection({
    host,
    port: Number(port),
    secure: implicitTls,
    name: config.hello === '' ? 'localhost' : config.hello,
    // STARTTLS only when required: Alertmanager never upgrades a connection on its own.
    ignoreTLS: !config.requireTls,
    tls: await tlsOptions(config.tls, host, baseDir),
    logger: false,
  });
  const failed = new Promise<never>((_, reject) => {
    connection.on('error', (error: Error) => reject(new SmtpFailure(error.message)));
    const abort = (): void => {
      connection.close();
      reject(new SmtpFailure(signal.reason === 'deadline' ? 'context deadline exceeded' : 'context canceled'));
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
  failed.catch(() => undefined);
  const step = <T>(what: string, run: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> =>
    Promise.race([
      failed,
      new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(new SmtpFailure(`${what}: ${error.message}`)) : resolve(value as T)))),
    ]);
  try {
    await step<void>(implicitTls ? 'establish TLS connection to server' : 'establish connection to server', (done) => connection.connect((error) => done(error)));
    if (config.requireTls && !connection.secure) {
      throw new SmtpFailure(`'require_tls' is true (default) but "${address}" does not advertise the STARTTLS extension`);
    }
    if (connection.allowsAuth && config.authUsername !== '') await authenticate(connection, config, host, baseDir, step);
    const sent = await step<SMTPConnection.SentMessageInfo>('send message', (done) => connection.send({ from: envelope.from, to: [...envelope.to] }, message, done));
    connection.quit();
    return (sent.rejectedErrors ?? []).map((error) => error.message);
  } finally {
    connection.close();
  }
}

type Step = <T>(what: string, run: (done: (error: Error | null | undefined, value?: T) => void) => void) => Promise<T>;

async function authenticate(connection: SMTPConnection, config: EmailConfig, host: string, baseDir: string, step: Step): Promise<void> {
  const chosen = await chooseAuth(offeredMechanisms(connection), {
    password: async () => (config.authPasswordFile === '' ? config.authPassword : (await readFile(configPath(baseDir, config.authPasswordFile), 'utf8')).trim()),
    secret: config.authSecret,
  });
  if ('error' in chosen) throw new SmtpFailure(`find auth mechanism: ${chosen.error}`);
  // As Go's smtp.PlainAuth: a password in the clear only to this machine.
  if (chosen.method === 'PLAIN' && !connection.secure && !LOCALHOST.has(host)) throw new SmtpFailure('PLAIN auth: unencrypted connection');
  await step(`${chosen.method} auth`, (done) => connection.login({ method: chosen.method, user: config.authUsername, pass: chosen.pass }, (error) => done(error)));
}
