import type { YamlNode } from '../../yaml/index.js';
import type { Decoder } from './decode-context.js';
import { isNull } from './decode-context.js';
import { goDuration } from './go-duration.js';
import { globalValue, type GlobalConfig } from './global.js';
import { decodeHttpConfig, type HttpConfig } from './http-config.js';
import { checkUrl } from './url.js';

/**
 * A `pagerduty_configs` entry after loading (Alertmanager's config.PagerdutyConfig, globals
 * copied in). Events API v2 with `routingKey`, v1 with `serviceKey`. Text fields are templates.
 */
export interface PagerdutyConfig {
  sendResolved: boolean;
  httpConfig: HttpConfig;
  serviceKey: string;
  serviceKeyFile: string;
  routingKey: string;
  routingKeyFile: string;
  /** The Events API v2 endpoint (`global.pagerduty_url` unless set). */
  url: string;
  client: string;
  clientUrl: string;
  description: string;
  /** Name -> template, sorted by name; Alertmanager's four defaults included unless overridden. */
  details: ReadonlyArray<readonly [string, string]>;
  images: ReadonlyArray<{ src: string; alt: string; href: string }>;
  links: ReadonlyArray<{ href: string; text: string }>;
  /** `client` unless set. */
  source: string;
  /** '' sends `error`. */
  severity: string;
  class: string;
  component: string;
  group: string;
  /** 0: no bound of its own. */
  timeoutMs: number;
}

export interface PagerdutySpec extends Omit<PagerdutyConfig, 'httpConfig' | 'details'> {
  httpConfig: HttpConfig | undefined;
  details: Array<[string, string]>;
}

/** config.DefaultPagerdutyDetails. */
const DEFAULT_DETAILS: ReadonlyArray<readonly [string, string]> = [
  ['firing', '{{ template "pagerduty.default.instances" .Alerts.Firing }}'],
  ['resolved', '{{ template "pagerduty.default.instances" .Alerts.Resolved }}'],
  ['num_firing', '{{ .Alerts.Firing | len }}'],
  ['num_resolved', '{{ .Alerts.Resolved | len }}'],
];

export function decodePagerdutyConfig(d: Decoder, node: YamlNode): PagerdutySpec {
  const p: PagerdutySpec = {
    sendResolved: true,
    httpConfig: undefined,
    serviceKey: '',
    serviceKeyFile: '',
    routingKey: '',
    routingKeyFile: '',
    url: '',
    client: '{{ template "pagerduty.default.client" . }}',
    clientUrl: '{{ template "pagerduty.default.clientURL" . }}',
    description: '{{ template "pagerduty.default.description" .}}',
    details: [],
    images: [],
    links: [],
    source: '',
    severity: '',
    class: '',
    component: '',
    group: '',
    timeoutMs: 0,
  };
  const text = (v: YamlNode): string => d.string(v) ?? '';
  const secret = (v: YamlNode): string => d.string(v, 'config.Secret') ?? '';
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        send_resolved: (v) => (p.sendResolved = d.bool(v) ?? p.sendResolved),
        http_config: (v) => {
          if (!isNull(v)) p.httpConfig = decodeHttpConfig(d, v);
        },
        service_key: (v) => (p.serviceKey = secret(v)),
        service_key_file: (v) => (p.serviceKeyFile = text(v)),
        routing_key: (v) => (p.routingKey = secret(v)),
        routing_key_file: (v) => (p.routingKeyFile = text(v)),
        url: (v) => {
          p.url = d.string(v, 'config.URL') ?? '';
          const problem = p.url === '' ? undefined : checkUrl(p.url);
          if (problem !== undefined) d.fail(problem);
        },
        client: (v) => (p.client = text(v)),
        client_url: (v) => (p.clientUrl = text(v)),
        description: (v) => (p.description = text(v)),
        details: (v) => (p.details = d.stringMap(v) ?? []),
        images: (v) => {
          const images = d.list(v, '[]config.PagerdutyImage', (item) => {
            const image = { src: '', alt: '', href: '' };
            d.struct(item, 'config.PagerdutyImage', {
              src: (x) => (image.src = text(x)),
              alt: (x) => (image.alt = text(x)),
              href: (x) => (image.href = text(x)),
            });
            return image;
          });
          p.images = images ?? [];
        },
        links: (v) => {
          const links = d.list(v, '[]config.PagerdutyLink', (item) => {
            const link = { href: '', text: '' };
            d.struct(item, 'config.PagerdutyLink', { href: (x) => (link.href = text(x)), text: (x) => (link.text = text(x)) });
            return link;
          });
          p.links = links ?? [];
        },
        source: (v) => (p.source = text(v)),
        severity: (v) => (p.severity = text(v)),
        class: (v) => (p.class = text(v)),
        component: (v) => (p.component = text(v)),
        group: (v) => (p.group = text(v)),
        timeout: (v) => (p.timeoutMs = goDuration(d, v)),
      });
      return p;
    },
    (pd) => {
      if (pd.routingKey === '' && pd.serviceKey === '' && pd.routingKeyFile === '' && pd.serviceKeyFile === '') {
        d.fail('missing service or routing key in PagerDuty config');
      }
      if (pd.routingKey !== '' && pd.routingKeyFile !== '') d.fail('at most one of routing_key & routing_key_file must be configured');
      if (pd.serviceKey !== '' && pd.serviceKeyFile !== '') d.fail('at most one of service_key & service_key_file must be configured');
    },
  );
}

/** The entry with `global.http_config`, `global.pagerduty_url` and the default details filled in. */
export function buildPagerdutyConfig(p: PagerdutySpec, g: GlobalConfig): PagerdutyConfig {
  const details = new Map(p.details);
  for (const [name, template] of DEFAULT_DETAILS) if (!details.has(name)) details.set(name, template);
  return {
    ...p,
    httpConfig: p.httpConfig ?? g.httpConfig,
    url: p.url !== '' ? p.url : globalValue(g, 'pagerduty_url'),
    details: [...details].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    source: p.source !== '' ? p.source : p.client,
  };
}
