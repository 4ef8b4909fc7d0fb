import { createHash } from 'node:crypto';
import type { TemplateData } from '../../templates/data.js';
import type { Templates } from '../../templates/templates.js';

/**
 * Renders an integration's text fields the way Alertmanager's notify.TmplText does: each field
 * through the text templates, and after the first failure every later field is '' and `error`
 * keeps that first failure, so a message is checked once, after all its fields.
 */
export class FieldRenderer {
  error: string | undefined;

  constructor(
    private readonly templates: Templates,
    private readonly data: TemplateData,
  ) {}

  text(template: string): string {
    if (this.error !== undefined || template === '') return '';
    const rendered = this.templates.text(template, this.data);
    if (rendered.ok) return rendered.value;
    this.error = rendered.error;
    return '';
  }
}

/** notify.Key.Hash: the SHA-256 of a group key, hex; PagerDuty's dedup key. */
export function groupKeyHash(groupKey: string): string {
  return createHash('sha256').update(groupKey).digest('hex');
}

/** Alertmanager 0.25's notify.Truncate: at most `n` characters, the last three `...` when cut. */
export function truncate(text: string, n: number): string {
  const chars = [...text];
  if (chars.length <= n) return text;
  if (n <= 3) return chars.slice(0, n).join('');
  return chars.slice(0, n - 3).join('') + '...';
}

/** notify.TruncateInRunes (Slack's title): at most `n` characters, the last one `…` when cut. */
export function truncateWithEllipsis(text: string, n: number): string {
  const chars = [...text];
  if (chars.length <= n) return text;
  return chars.slice(0, n - 1).join('') + '…';
}
