import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { loadAlertmanagerConfig } from '../../../../src/alerts/config/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { DATA } from './support.js';

const config = (templates: string) => `templates: ${templates}\nroute:\n  receiver: r\nreceivers:\n- name: r\n`;

t.test('templates: globs are read relative to the configuration directory, in order', async (t) => {
  const dir = await tempDir(t, 'am-templates-');
  await mkdir(join(dir, 'tmpl'));
  await writeFile(join(dir, 'tmpl', 'a.tmpl'), '{{ define "who" }}a {{ .Status }}{{ end }}');
  await writeFile(join(dir, 'tmpl', 'b.tmpl'), '{{ define "who" }}b {{ .Status }}{{ end }}');
  const loaded = loadAlertmanagerConfig(config("['tmpl/*.tmpl', 'missing/*.tmpl']"), { baseDir: dir });
  if (!loaded.ok) return t.fail(loaded.error);
  t.same(loaded.value.templates.text('{{ template "who" . }}', DATA), { ok: true, value: 'b firing' }, 'the later file wins');
  t.match(loaded.value.original, "templates:\n- tmpl/*.tmpl\n- missing/*.tmpl\n", 'config.original keeps the globs');
  t.same(loaded.value.templates.text('{{ template "slack.default.title" . }}', DATA), { ok: true, value: '[FIRING:1] HighCPU (critical)' }, 'the defaults are there');
});

t.test('a template file that does not parse fails the load with its file and line', async (t) => {
  const dir = await tempDir(t, 'am-templates-');
  await writeFile(join(dir, 'bad.tmpl'), '{{ define "x" }}\n{{ nosuch . }}{{ end }}');
  const loaded = loadAlertmanagerConfig(config("['*.tmpl']"), { baseDir: dir });
  t.same(loaded, { ok: false, error: 'failed to parse templates: template: bad.tmpl:2: function "nosuch" not defined' });
  t.same(loadAlertmanagerConfig(config("['[']"), { baseDir: dir }), { ok: false, error: 'failed to parse templates: syntax error in pattern' });
});
