/**
 * Notification templates rendered by the service's engine and by the real Alertmanager 0.25
 * must read the same. Alertmanager sends a Slack notification to a local sink, its fields
 * written as templates (Alertmanager's defaults, and definitions from a `templates:` file that
 * use range, if/else, with, define, variables, pipelines, Go builtins, Alertmanager's
 * functions, KV and Pairs methods and time formatting); the same templates run here over the
 * same data (alerts, receiver, group labels, external URL) and every field is compared exactly.
 */
import t from 'tap';
import { loadAlertmanagerConfig } from '../../src/alerts/config/index.js';
import { fingerprint } from '../../src/alerts/fingerprint.js';
import type { Alert } from '../../src/alerts/model.js';
import { templateData } from '../../src/alerts/templates/index.js';
import { ZERO_TIME } from '../../src/alerts/time.js';
import { startHttpSink } from '../support/http-sink.js';
import { startRealAlertmanager } from '../support/real-alertmanager.js';
import { waitFor } from '../support/wait-for.js';

/** A receiver name with a regex metacharacter: templates see it through regexp.QuoteMeta. */
const RECEIVER = 'slack.team';

const CUSTOM_TMPL = String.raw`{{ define "custom.text" }}{{ $root := . }}{{ range $i, $a := .Alerts }}{{ if $i }}
{{ end }}#{{ $i }} [{{ $a.Status | toUpper }}] {{ $a.Labels.instance }}{{ with $a.Annotations.summary }}: {{ . }}{{ end }}
{{- range $a.Labels.SortedPairs }} {{ .Name }}={{ .Value | printf "%q" }}{{ end }}
 started {{ $a.StartsAt.Format "2006-01-02T15:04:05Z07:00" }} ({{ $a.StartsAt.Unix }}){{ if eq $a.Status "resolved" }} ended {{ $a.EndsAt.UTC.Format "Jan _2 15:04:05.000" }}{{ else }} ends {{ $a.EndsAt }}{{ end }}
{{- end }}
{{ len .Alerts.Firing }} firing, {{ len .Alerts.Resolved }} resolved for {{ $root.Receiver }}; missing label: [{{ .CommonLabels.nosuchlabel }}]{{ end }}

{{ define "custom.pretext" }}{{ .CommonLabels.Remove .GroupLabels.Names | printf "%v" }} | {{ .GroupLabels }} | {{ join ", " .CommonLabels.Names }} | {{ title "disk full on team-ops o'neil" }} | {{ reReplaceAll "(\\w+)-(\\d+)" "$2/$1 ${1}x" "db-1 web-22" }} | {{ match "^Disk" .GroupLabels.alertname }} | {{ .CommonLabels.SortedPairs }}{{ end }}

{{ define "custom.footer" }}{{ $n := 0 }}{{ range .Alerts }}{{ $n = len .Labels }}{{ end }}{{ $n }} labels; {{ index .CommonLabels "team" }} {{ .CommonAnnotations.SortedPairs.Values | join " / " }} {{ stringSlice "a" "b" | join "+" }} {{ safeHtml "<b>" }} {{ html "<a & 'b'>" }} {{ js "it's <x>" }} {{ urlquery "a b&c/é" }} {{ printf "%05.1f|%-4s|%x|%t|%v|%d" 3.14159 "ab" "hi" true 2.5 7 }} {{ slice "abcdef" 1 3 }} {{ print 1 2 "x" 3 }} {{ .Alerts | len | printf "%d alerts" }} {{ not .Alerts.Resolved }} {{ or "" "fallback" }} {{ and 1 0 }} {{ lt 1 2 }} {{ ge "b" "a" }} {{ ne .Status "resolved" }} {{ 1e6 }} {{ 0.000012 }} {{ -3 }} {{ toLower "ÀB" }}{{ end }}

{{ define "custom.times" }}{{ range .Alerts }}{{ .StartsAt }}|{{ .StartsAt.UTC.Format "Monday 02/01/06 03:04:05PM MST .999" }}|{{ .StartsAt.Year }}-{{ .StartsAt.Month }}-{{ .StartsAt.Day }} {{ .StartsAt.Weekday }}|{{ .EndsAt.IsZero }}
{{ end }}{{ end }}

{{ define "custom.block" }}{{ block "inner" .Alerts.Firing }}{{ range . }}{{ .Fingerprint }} {{ end }}{{ end }}{{ end }}
`;

/** Each Slack field and the template it is rendered from; defaults are written out as Alertmanager's. */
const FIELDS = {
  channel: '#alerts-{{ .CommonLabels.team }}',
  username: '{{ template "slack.default.username" . }}',
  title: '{{ template "slack.default.title" . }}',
  title_link: '{{ template "slack.default.titlelink" . }}',
  fallback: '{{ template "slack.default.fallback" . }}',
  pretext: '{{ template "custom.pretext" . }}',
  text: '{{ template "custom.text" . }}',
  footer: '{{ template "custom.footer" . }}',
  color: '{{ if eq .Status "firing" }}danger{{ else }}good{{ end }}',
  fieldTitle: '{{ .CommonLabels.severity | toUpper }} {{ template "custom.block" . }}',
  fieldValue: '{{ template "custom.times" . }}',
  opsgenie: '{{ template "opsgenie.default.description" . }}',
} as const;

const yamlQuoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * group_wait is the time Alertmanager gives the posted alerts to join their group before the one
 * notification (group_interval is long, so a split would not be mended before the test ends).
 */
function configText(apiUrl: string): string {
  return `templates:
  - '*.tmpl'
  - 'nothing-here/*.tmpl'
route:
  receiver: ${RECEIVER}
  group_by: [alertname]
  group_wait: 5s
  group_interval: 1h
receivers:
  - name: ${RECEIVER}
    slack_configs:
      - api_url: ${apiUrl}/slack
        send_resolved: true
        channel: ${yamlQuoted(FIELDS.channel)}
        username: ${yamlQuoted(FIELDS.username)}
        title: ${yamlQuoted(FIELDS.title)}
        title_link: ${yamlQuoted(FIELDS.title_link)}
        fallback: ${yamlQuoted(FIELDS.fallback)}
        pretext: ${yamlQuoted(FIELDS.pretext)}
        text: ${yamlQuoted(FIELDS.text)}
        footer: ${yamlQuoted(FIELDS.footer)}
        color: ${yamlQuoted(FIELDS.color)}
        callback_id: ${yamlQuoted(FIELDS.opsgenie)}
        fields:
          - title: ${yamlQuoted(FIELDS.fieldTitle)}
            value: ${yamlQuoted(FIELDS.fieldValue)}
            short: false
`;
}

interface PostedAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt?: string;
  generatorURL: string;
}

/**
 * The alerts, started in the last two seconds (with and without fractions of a second), well
 * within group_wait: an alert that started longer than group_wait ago makes Alertmanager flush its
 * group at once (dispatch.go, aggrGroup.insert), with only the alerts inserted so far, so on a
 * loaded host the others missed the notification.
 */
function postedAlerts(now = Date.now()): PostedAlert[] {
  const second = Math.floor(now / 1000) * 1000;
  const at = (ms: number) => new Date(ms).toISOString();
  return [
    {
      labels: { alertname: 'DiskFull', severity: 'critical', team: 'ops', instance: 'db-1:9100', device: '/dev/sda1' },
      annotations: { summary: 'Disk <full> & "quoted"', description: 'Ünïcode — 99%' },
      startsAt: at(second - 1000 + 161),
      generatorURL: 'http://prometheus.example/graph?g0.expr=disk&g0.tab=1',
    },
    {
      labels: { alertname: 'DiskFull', severity: 'critical', team: 'ops', instance: 'db-2:9100', device: '/dev/sdb1' },
      annotations: { summary: 'Disk <full> & "quoted"', description: 'other' },
      startsAt: at(second - 2000),
      generatorURL: 'http://prometheus.example/graph?g0.expr=disk',
    },
    {
      labels: { alertname: 'DiskFull', severity: 'critical', team: 'ops', instance: 'db-3:9100' },
      annotations: { summary: 'Disk <full> & "quoted"' },
      startsAt: at(second - 1500),
      endsAt: at(second - 750),
      generatorURL: '',
    },
  ];
}

/** The alerts as the service holds them; Alertmanager orders a notification's alerts by instance here. */
function modelAlerts(alerts: readonly PostedAlert[]): Alert[] {
  return alerts.map((posted) => ({
    fingerprint: fingerprint(posted.labels),
    labels: posted.labels,
    annotations: posted.annotations,
    startsAt: Date.parse(posted.startsAt),
    endsAt: posted.endsAt === undefined ? ZERO_TIME : Date.parse(posted.endsAt),
    updatedAt: Date.now(),
    generatorURL: posted.generatorURL,
    timeout: false,
  }));
}

interface SlackRequest {
  channel: string;
  username: string;
  attachments: Array<{
    title: string;
    title_link: string;
    pretext: string;
    text: string;
    fallback: string;
    callback_id: string;
    footer: string;
    color: string;
    fields: Array<{ title: string; value: string }>;
  }>;
}

t.test('Slack fields from default and custom templates read as Alertmanager 0.25 renders them', async (t) => {
  const sink = await startHttpSink(t);
  const config = configText(sink.url);
  const am = await startRealAlertmanager(t, { config, files: { 'custom.tmpl': CUSTOM_TMPL } });
  const alerts = postedAlerts();
  const posted = await am.request('/api/v2/alerts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(alerts) });
  t.equal(posted.status, 200, 'Alertmanager takes the alerts');
  const request = await waitFor('the Slack notification', () => sink.requests.find((r) => r.path === '/slack'), 15_000);
  const slack = JSON.parse(request.body) as SlackRequest;
  const attachment = slack.attachments[0];
  if (attachment === undefined) return t.fail('no attachment', { body: request.body });

  const loaded = loadAlertmanagerConfig(config, { baseDir: am.dir });
  if (!loaded.ok) return t.fail(loaded.error);
  const data = templateData({ receiver: RECEIVER, groupLabels: { alertname: 'DiskFull' }, alerts: modelAlerts(alerts), externalUrl: am.externalUrl, now: Date.now() });
  const ours = (field: keyof typeof FIELDS): string => {
    const rendered = loaded.value.templates.text(FIELDS[field], data);
    return rendered.ok ? rendered.value : `error: ${rendered.error}`;
  };

  const theirs: Record<keyof typeof FIELDS, string | undefined> = {
    channel: slack.channel,
    username: slack.username,
    title: attachment.title,
    title_link: attachment.title_link,
    fallback: attachment.fallback,
    pretext: attachment.pretext,
    text: attachment.text,
    footer: attachment.footer,
    color: attachment.color,
    fieldTitle: attachment.fields[0]?.title,
    fieldValue: attachment.fields[0]?.value,
    opsgenie: attachment.callback_id,
  };
  for (const field of Object.keys(FIELDS) as Array<keyof typeof FIELDS>) t.equal(ours(field), theirs[field], `${field} matches`);
  // The comparison only means something when the fields hold what the templates were written to show.
  t.match(attachment.title, /^\[FIRING:2\] DiskFull \(critical ops\)$/);
  t.match(attachment.text, /#2 \[RESOLVED\] db-3:9100/);
});
