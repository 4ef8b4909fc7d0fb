/** Template data and a one-call renderer for the template engine's unit tests. */
import { compileTemplates, type TemplateData, type TemplateFile } from '../../../../src/alerts/templates/index.js';
import { ZERO_TIME } from '../../../../src/alerts/time.js';

export const DATA: TemplateData = {
  receiver: 'team\\.x',
  status: 'firing',
  alerts: [
    {
      status: 'firing',
      labels: { alertname: 'HighCPU', severity: 'critical', instance: 'a:9100' },
      annotations: { summary: 'CPU <high> & "hot"' },
      startsAt: Date.parse('2026-11-21T22:39:24.161Z'),
      endsAt: ZERO_TIME,
      generatorURL: 'http://prom/graph?g0.expr=up',
      fingerprint: 'aaaa',
    },
    {
      status: 'resolved',
      labels: { alertname: 'HighCPU', severity: 'critical', instance: 'b:9100' },
      annotations: { summary: 'CPU <high> & "hot"' },
      startsAt: Date.parse('2026-11-21T22:00:00Z'),
      endsAt: Date.parse('2026-11-21T22:30:00Z'),
      generatorURL: '',
      fingerprint: 'bbbb',
    },
  ],
  groupLabels: { alertname: 'HighCPU' },
  commonLabels: { alertname: 'HighCPU', severity: 'critical' },
  commonAnnotations: { summary: 'CPU <high> & "hot"' },
  externalURL: 'http://am:9093',
};

/** `text` run as text (or as HTML) over DATA with `files` loaded: its output, or `error: <Go's error>`. */
export function render(text: string, options: { files?: TemplateFile[]; html?: boolean; now?: () => number } = {}): string {
  const compiled = compileTemplates(options.files ?? [], { now: options.now });
  if (!compiled.ok) return `load error: ${compiled.error}`;
  const rendered = options.html === true ? compiled.value.html(text, DATA) : compiled.value.text(text, DATA);
  return rendered.ok ? rendered.value : `error: ${rendered.error}`;
}
