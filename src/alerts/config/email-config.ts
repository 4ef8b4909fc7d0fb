import type { YamlNode } from '../../yaml/index.js';
import { goQuote } from '../matchers/index.js';
import type { Decoder } from './decode-context.js';
import { globalValue, type GlobalConfig } from './global.js';
import { decodeTlsConfig, defaultTlsConfig, type TlsConfig } from './http-config.js';
import { checkHostPort } from './url.js';

/**
 * An `email_configs` entry after loading (Alertmanager's config.EmailConfig with the global
 * SMTP settings copied in, and the notifier's default headers).
 */
export interface EmailConfig {
  sendResolved: boolean;
  /** Templates, as every text field below unless noted. */
  to: string;
  from: string;
  /** The name given in EHLO; not a template. */
  hello: string;
  smarthost: { host: string; port: string };
  authUsername: string;
  authPassword: string;
  /** Read at each send, as Alertmanager reads it. */
  authPasswordFile: string;
  authSecret: string;
  authIdentity: string;
  /**
   * Header name (canonical MIME form) -> template, sorted by name: those configured, plus
   * `To`, `From` and `Subject` (`email.default.subject`) unless configured.
   */
  headers: ReadonlyArray<readonly [string, string]>;
  /** '' sends no HTML part. */
  html: string;
  /** '' sends no text part. */
  text: string;
  requireTls: boolean;
  tls: TlsConfig;
}

/** An entry as written, before the global settings fill its gaps ('' and undefined: unset). */
export interface EmailSpec extends Omit<EmailConfig, 'smarthost' | 'requireTls' | 'tls' | 'headers'> {
  smarthost: string;
  requireTls: boolean | undefined;
  tls: TlsConfig | undefined;
  headers: Array<[string, string]>;
}

/** config.DefaultEmailSubject. */
export const DEFAULT_EMAIL_SUBJECT = '{{ template "email.default.subject" . }}';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Go's textproto.CanonicalMIMEHeaderKey: `message-id` -> `Message-Id`; a name with other characters stays as it is. */
export function canonicalHeaderName(name: string): string {
  if (!TOKEN.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

export function decodeEmailConfig(d: Decoder, node: YamlNode): EmailSpec {
  const e: EmailSpec = {
    sendResolved: false,
    to: '',
    from: '',
    hello: '',
    smarthost: '',
    authUsername: '',
    authPassword: '',
    authPasswordFile: '',
    authSecret: '',
    authIdentity: '',
    headers: [],
    html: '{{ template "email.default.html" . }}',
    text: '',
    requireTls: undefined,
    tls: undefined,
  };
  const text = (v: YamlNode): string => d.string(v) ?? '';
  const secret = (v: YamlNode): string => d.string(v, 'config.Secret') ?? '';
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        send_resolved: (v) => (e.sendResolved = d.bool(v) ?? e.sendResolved),
        to: (v) => (e.to = text(v)),
        from: (v) => (e.from = text(v)),
        hello: (v) => (e.hello = text(v)),
        smarthost: (v) => {
          e.smarthost = d.string(v, 'config.HostPort') ?? '';
          const problem = checkHostPort(e.smarthost);
          if (problem !== undefined) d.fail(problem);
        },
        auth_username: (v) => (e.authUsername = text(v)),
        auth_password: (v) => (e.authPassword = secret(v)),
        auth_password_file: (v) => (e.authPasswordFile = text(v)),
        auth_secret: (v) => (e.authSecret = secret(v)),
        auth_identity: (v) => (e.authIdentity = text(v)),
        headers: (v) => (e.headers = d.stringMap(v) ?? []),
        html: (v) => (e.html = text(v)),
        text: (v) => (e.text = text(v)),
        require_tls: (v) => (e.requireTls = d.bool(v)),
        tls_config: (v) => (e.tls = decodeTlsConfig(d, v)),
        // Newer Alertmanagers' settings: accepted, not used.
        auth_secret_file: (v) => void text(v),
        force_implicit_tls: (v) => void d.bool(v),
        threading: (v) => void d.struct(v, 'config.ThreadingConfig', { enabled: (x) => void d.bool(x), thread_by_date: (x) => void text(x) }),
      });
      return e;
    },
    (email) => {
      if (email.to === '') d.fail('missing to address in email config');
      // Header names are case-insensitive: two spellings of one name are refused.
      const seen = new Set<string>();
      email.headers = email.headers.map(([name, value]) => {
        const canonical = canonicalHeaderName(name);
        if (seen.has(canonical)) d.fail(`duplicate header ${goQuote(canonical)} in email config`);
        seen.add(canonical);
        return [canonical, value];
      });
    },
  );
}

function splitHostPort(address: string): { host: string; port: string } {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon);
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port: address.slice(colon + 1) };
}

/** The entry with the global SMTP settings copied into what it leaves unset, as Config.UnmarshalYAML does. */
export function buildEmailConfig(e: EmailSpec, g: GlobalConfig): EmailConfig {
  const or = (own: string, key: string): string => (own !== '' ? own : globalValue(g, key));
  const passwordFromGlobal = e.authPassword === '' && e.authPasswordFile === '';
  const headers = new Map(e.headers);
  const from = or(e.from, 'smtp_from');
  if (!headers.has('Subject')) headers.set('Subject', DEFAULT_EMAIL_SUBJECT);
  if (!headers.has('To')) headers.set('To', e.to);
  if (!headers.has('From')) headers.set('From', from);
  return {
    sendResolved: e.sendResolved,
    to: e.to,
    from,
    hello: or(e.hello, 'smtp_hello'),
    smarthost: splitHostPort(or(e.smarthost, 'smtp_smarthost')),
    authUsername: or(e.authUsername, 'smtp_auth_username'),
    authPassword: passwordFromGlobal ? globalValue(g, 'smtp_auth_password') : e.authPassword,
    authPasswordFile: passwordFromGlobal ? globalValue(g, 'smtp_auth_password_file') : e.authPasswordFile,
    authSecret: or(e.authSecret, 'smtp_auth_secret'),
    authIdentity: or(e.authIdentity, 'smtp_auth_identity'),
    headers: [...headers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    html: e.html,
    text: e.text,
    requireTls: e.requireTls ?? g.smtpRequireTls,
    tls: e.tls ?? g.smtpTlsConfig ?? defaultTlsConfig(),
  };
}
