import type { TemplateData } from './data.js';

/** A template's output, or why it could not be produced (Go's error text). */
export type Rendered = { ok: true; value: string } | { ok: false; error: string };

/**
 * The notification templates of one configuration: Alertmanager's defaults and the files of
 * its `templates:` list, parsed once at load (Go `text/template` syntax and Alertmanager's
 * functions, https://prometheus.io/docs/alerting/latest/notifications/).
 */
export interface Templates {
  /** Runs `text` (a template itself, which may call the defined ones) as text: Alertmanager's ExecuteTextString. */
  text(text: string, data: TemplateData): Rendered;
  /** The same with html/template's escaping, as Alertmanager renders email HTML bodies: ExecuteHTMLString. */
  html(text: string, data: TemplateData): Rendered;
}
