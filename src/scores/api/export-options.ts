import { ServiceError } from '../../errors/index.js';
import { DEFAULT_PAGE_CHOICE, DPI_RANGE, type ExportFormat, type ExportSource, type PageChoice } from '../exports/index.js';
import { keepParts, scorePartIds, type OtherParts } from '../musicxml/score-parts.js';

/** The query parameters that choose what an export holds, read and checked before anything is produced. */
export interface ExportChoice {
  /** `parts`: each a part's 0-based index or its MusicXML `score-part` id; undefined for every part. */
  parts: string[] | undefined;
  /** `otherParts`: what the audio (midi, wav, mp3) does with the parts not chosen. */
  otherParts: OtherParts;
  pages: PageChoice;
}

/** The parameters a signed export link carries, in the order they are signed. */
const CHOICE_PARAMS = ['parts', 'otherParts', 'page', 'dpi'] as const;
/** The formats whose audio `otherParts=muted` keeps in time with the whole score. */
const AUDIO_FORMATS: ReadonlySet<ExportFormat> = new Set(['midi', 'wav', 'mp3']);

function bad(param: string, message: string): ServiceError {
  return new ServiceError('SC_BAD_REQUEST', message, { param });
}

function integerParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number | ServiceError {
  const value = query.get(name);
  if (value === null || value === '') return fallback;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(number >= min && number <= max)) return bad(name, `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  return number;
}

export function exportChoice(query: URLSearchParams): ExportChoice | ServiceError {
  const partsValue = query.get('parts') ?? '';
  const parts = partsValue === '' ? undefined : partsValue.split(',').map((item) => item.trim());
  if (parts?.includes('')) return bad('parts', `parts must be part indexes or ids separated by commas, not ${JSON.stringify(partsValue)}`);
  const otherParts = query.get('otherParts') ?? 'removed';
  if (otherParts !== 'removed' && otherParts !== 'muted') return bad('otherParts', `otherParts must be removed or muted, not ${JSON.stringify(otherParts)}`);
  const page = integerParam(query, 'page', DEFAULT_PAGE_CHOICE.page, 1, Number.MAX_SAFE_INTEGER);
  if (page instanceof ServiceError) return page;
  const dpi = integerParam(query, 'dpi', DEFAULT_PAGE_CHOICE.dpi, DPI_RANGE.min, DPI_RANGE.max);
  if (dpi instanceof ServiceError) return dpi;
  return { parts, otherParts, pages: { page, dpi } };
}

/** The choice's parameters as given, in a fixed order: what a signed link to the export signs beside its path. */
export function choiceQuery(query: URLSearchParams): string {
  const chosen = new URLSearchParams();
  for (const name of CHOICE_PARAMS) {
    const value = query.get(name);
    if (value !== null && value !== '') chosen.set(name, value);
  }
  return chosen.toString();
}

/**
 * The source reduced to the chosen parts: each named by index or id, unknown ones a 400 naming
 * `parts`. The set is normalised (sorted indexes, each once), so `1,0` and `0,1` share their
 * files; choosing every part is the whole score. The MusicXML is read here to know its parts.
 */
export async function sourceWithParts(source: ExportSource, format: ExportFormat, choice: ExportChoice): Promise<ExportSource | ServiceError> {
  if (choice.parts === undefined) return source;
  const xml = await source.musicXml();
  let ids: string[];
  try {
    ids = scorePartIds(xml);
  } catch (error) {
    return new ServiceError('SC_EXPORT_FAILED', `the MusicXML cannot be read: ${(error as Error).message}`, { param: 'format' });
  }
  const indexes = new Set<number>();
  for (const item of choice.parts) {
    const index = /^\d+$/.test(item) ? Number(item) : ids.indexOf(item);
    if (!(index >= 0 && index < ids.length)) return bad('parts', `parts names ${JSON.stringify(item)}, which is not a part of this score: its parts are ${ids.map((id, i) => `${i} (${id})`).join(', ')}`);
    indexes.add(index);
  }
  if (indexes.size === ids.length) return source;
  const chosen = [...indexes].sort((a, b) => a - b);
  const mode: OtherParts = AUDIO_FORMATS.has(format) ? choice.otherParts : 'removed';
  const keep = new Set(chosen.map((index) => ids[index] as string));
  return { ...source, variant: `parts-${chosen.join('.')}${mode === 'muted' ? '-muted' : ''}.`, musicXml: () => Promise.resolve(keepParts(xml, keep, mode)) };
}
