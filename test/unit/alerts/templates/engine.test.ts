import t from 'tap';
import { compileTemplates } from '../../../../src/alerts/templates/index.js';
import { render } from './support.js';

t.test('actions, trim markers and comments', async (t) => {
  t.equal(render('a  {{- "b" -}}  c'), 'abc');
  t.equal(render('a {{/* a comment */}} b'), 'a  b');
  t.equal(render('a\n{{- /* trimmed */ -}}\nb'), 'ab');
  t.equal(render('{{-3}}'), '-3', 'a minus without a space is a number');
  t.equal(render('{{ "a\\tb" }}|{{ `raw\\n` }}|{{ \'x\' }}'), 'a\tb|raw\\n|120');
  t.equal(render('{{ true }} {{ 1.5 }} {{ 1e6 }} {{ 100000.0 }} {{ 0x1F }} {{ 1_000 }}'), 'true 1.5 1e+06 100000 31 1000');
});

t.test('fields, map keys, methods and chains over template.Data', async (t) => {
  t.equal(render('{{ .Receiver }} {{ .Status }} {{ .ExternalURL }}'), 'team\\.x firing http://am:9093');
  t.equal(render('{{ .CommonLabels.severity }}|{{ .CommonLabels.nosuch }}|'), 'critical||', 'a missing label is empty (missingkey=zero)');
  t.equal(render('{{ len .Alerts.Firing }} {{ len .Alerts.Resolved }} {{ (index .Alerts 1).Labels.instance }}'), '1 1 b:9100');
  t.equal(render('{{ .CommonLabels.SortedPairs.Names }} {{ .CommonLabels.Values }}'), '[alertname severity] [HighCPU critical]');
  t.equal(render('{{ .CommonLabels.Remove .GroupLabels.Names }}'), 'map[severity:critical]');
  t.equal(render('{{ .GroupLabels.SortedPairs }}'), '[{alertname HighCPU}]', 'Pairs print as a list of structs, as in 0.25');
  t.equal(render('{{ range .Alerts }}{{ .Fingerprint }}:{{ .Status }} {{ end }}'), 'aaaa:firing bbbb:resolved ');
  t.equal(render('{{ $a := index .Alerts 0 }}{{ $a.Labels.severity }} {{ $.Status }}'), 'critical firing');
});

t.test('values print as Go prints them', async (t) => {
  t.equal(render('{{ (index .Alerts 0).StartsAt }}'), '2026-11-21 22:39:24.161 +0000 UTC');
  t.equal(render('{{ (index .Alerts 0).EndsAt }}'), '0001-01-01 00:00:00 +0000 UTC', 'a firing alert ends at Go zero time');
  t.equal(render('{{ .Alerts.Firing }}'), '[{firing map[alertname:HighCPU instance:a:9100 severity:critical] map[summary:CPU <high> & "hot"] 2026-11-21 22:39:24.161 +0000 UTC 0001-01-01 00:00:00 +0000 UTC http://prom/graph?g0.expr=up aaaa}]');
  t.equal(render('{{ template "x" }}', { files: [{ name: 'x.tmpl', text: '{{ define "x" }}[{{ . }}]{{ end }}' }] }), '[<no value>]', 'a template called without data has no dot');
  t.equal(render('{{ stringSlice "a" "b" }}'), '[a b]');
});

t.test('if / else if / else, with / else, and Go truth', async (t) => {
  t.equal(render('{{ if .Alerts.Resolved }}r{{ end }}{{ if .CommonLabels.none }}x{{ else if eq .Status "firing" }}f{{ else }}n{{ end }}'), 'rf');
  t.equal(render('{{ with .CommonAnnotations.summary }}[{{ . }}]{{ end }}{{ with .CommonLabels.none }}x{{ else }}none{{ end }}'), '[CPU <high> & "hot"]none');
  t.equal(render('{{ if 0 }}a{{ else if "" }}b{{ else if 0.0 }}c{{ else if (index .Alerts 0).StartsAt }}time{{ end }}'), 'time', 'a time is a struct: always true');
});

t.test('range over lists and maps, with variables, else, break and continue', async (t) => {
  t.equal(render('{{ range $i, $e := .Alerts }}{{ $i }}={{ $e.Fingerprint }};{{ end }}'), '0=aaaa;1=bbbb;');
  t.equal(render('{{ range $k, $v := .CommonLabels }}{{ $k }}:{{ $v }} {{ end }}'), 'alertname:HighCPU severity:critical ', 'maps range in key order');
  t.equal(render('{{ range .Alerts.Firing.NoSuch }}{{ end }}'), 'error: template: :1:9: executing "" at <.Alerts.Firing.NoSuc...>: can\'t evaluate field NoSuch in type []template.Alert');
  t.equal(render('{{ range .GroupLabels.none }}x{{ else }}empty{{ end }}'), 'error: template: :1:9: executing "" at <.GroupLabels.none>: range can\'t iterate over ');
  t.equal(render('{{ range (.CommonLabels.Remove .CommonLabels.Names) }}x{{ else }}empty{{ end }}'), 'empty');
  t.equal(render('{{ range .Alerts }}{{ if eq .Status "resolved" }}{{ break }}{{ end }}{{ .Fingerprint }}{{ end }}'), 'aaaa');
  t.equal(render('{{ range .Alerts }}{{ if eq .Status "firing" }}{{ continue }}{{ end }}{{ .Fingerprint }}{{ end }}'), 'bbbb');
  t.equal(render('{{ $n := 0 }}{{ range .Alerts }}{{ $n = len .Labels }}{{ end }}{{ $n }}'), '3', 'an assignment reaches the outer variable');
});

t.test('define, template and block; later definitions win', async (t) => {
  const files = [
    { name: 'a.tmpl', text: '{{ define "who" }}a{{ end }}{{ define "slack.default.title" }}custom {{ .Status }}{{ end }}' },
    { name: 'b.tmpl', text: '{{ define "who" }}b{{ end }}' },
  ];
  t.equal(render('{{ template "who" }} {{ template "slack.default.title" . }}', { files }), 'b custom firing');
  t.equal(render('{{ define "who" }}call{{ end }}{{ template "who" }}', { files }), 'call', 'a definition in the text itself wins');
  t.equal(render('{{ block "inner" .Status }}[{{ . }}]{{ end }}'), '[firing]');
  t.equal(render('{{ template "none" }}'), 'error: template: :1:3: executing "" at <{{template "none"}}>: template "none" not defined');
});

t.test('parse errors keep Go\'s words and name the file and line', async (t) => {
  const load = (text: string) => {
    const r = compileTemplates([{ name: 'x.tmpl', text }]);
    return r.ok ? 'loaded' : r.error;
  };
  t.equal(load('a\nb\n{{ foo }}'), 'template: x.tmpl:3: function "foo" not defined');
  t.equal(load('{{ if .A }}'), 'template: x.tmpl:1: unexpected EOF');
  t.equal(load('{{ end }}'), 'template: x.tmpl:1: unexpected {{end}}');
  t.equal(load('{{ .A '), 'template: x.tmpl:1: unclosed action');
  t.equal(load('{{ $x }}'), 'template: x.tmpl:1: undefined variable "$x"');
  t.equal(load('{{ break }}'), 'template: x.tmpl:1: {{break}} outside {{range}}');
  t.equal(load('{{ define "d" }}1{{ end }}{{ define "d" }}2{{ end }}'), 'template: x.tmpl:1: template: multiple definition of template "d"');
  t.equal(load('\n{{ call .F }}'), 'template: x.tmpl:2: unsupported construct "call"');
  t.equal(load('{{ 1i }}'), 'template: x.tmpl:1: unsupported construct "complex number"');
  t.equal(load('{{ "unterminated }}'), 'template: x.tmpl:1: unterminated quoted string');
  t.equal(render('{{ range .Alerts }}{{ $x := 1 }}{{ end }}{{ $x }}'), 'error: template: :1: undefined variable "$x"', 'a variable ends with its block');
});

t.test('execution errors keep Go\'s words, with the line, column and node', async (t) => {
  t.equal(render('ab\n  {{ .Nope }}'), 'error: template: :2:5: executing "" at <.Nope>: can\'t evaluate field Nope in type *template.Data');
  t.equal(render('{{ toUpper 1 }}'), 'error: template: :1:11: executing "" at <1>: expected string; found 1');
  t.equal(render('{{ .Alerts | toUpper }}'), 'error: template: :1:13: executing "" at <toUpper>: wrong type for value; expected string; got template.Alerts');
  t.equal(render('{{ index .Alerts 5 }}'), 'error: template: :1:3: executing "" at <index>: error calling index: index out of range: 5');
  t.equal(render('{{ eq .Status 1 }}'), 'error: template: :1:3: executing "" at <eq>: error calling eq: incompatible types for comparison');
  t.equal(render('{{ join "," }}'), 'error: template: :1:3: executing "" at <join>: wrong number of args for join: want 2 got 1');
  t.equal(render('{{ nil }}'), 'error: template: :1:3: executing "" at <nil>: nil is not a command');
  t.equal(render('{{ "x" 1 }}'), 'error: template: :1:3: executing "" at <"x">: can\'t give argument to non-function "x"');
  const files = [{ name: 'inner.tmpl', text: '{{ define "bad" }}\n {{ .Missing }}{{ end }}' }];
  t.equal(render('{{ template "bad" . }}', { files }), 'error: template: inner.tmpl:2:4: executing "bad" at <.Missing>: can\'t evaluate field Missing in type *template.Data', 'an error inside a defined template names it');
});

t.test('recursion and runaway templates end with an error, not a hang', async (t) => {
  const files = [{ name: 'loop.tmpl', text: '{{ define "loop" }}{{ template "loop" . }}{{ end }}{{ define "fan" }}{{ if . }}{{ template "fan" slice . 1 }}{{ template "fan" slice . 1 }}{{ end }}{{ end }}' }];
  t.match(render('{{ template "loop" . }}', { files }), /exceeded maximum template depth \(1000\)$/);
  t.match(render('{{ template "fan" "abcdefghijklmnopqrstuvwxyz" }}', { files }), /exceeded the limit of 1000000 steps$/);
});

t.test('the defaults render as Alertmanager 0.25 writes them', async (t) => {
  t.equal(render('{{ template "slack.default.title" . }}'), '[FIRING:1] HighCPU (critical)');
  t.equal(render('{{ template "slack.default.titlelink" . }}'), 'http://am:9093/#/alerts?receiver=team%5C.x');
  t.equal(render('{{ template "email.default.subject" . }}'), '[FIRING:1] HighCPU (critical)');
  t.equal(render('{{ template "pagerduty.default.instances" .Alerts.Resolved }}'), 'Labels:\n - alertname = HighCPU\n - instance = b:9100\n - severity = critical\nAnnotations:\n - summary = CPU <high> & "hot"\nSource: \n');
  t.equal(render('{{ template "msteams.default.title" . }}'), '[FIRING:1] HighCPU (critical)', 'the Teams defaults of 0.26 exist');
  t.match(render('{{ template "msteams.default.text" . }}'), '# Alerts Firing:\n\nLabels:\n  - alertname = HighCPU');
  t.equal(render(''), '', 'an empty text renders as nothing');
});
