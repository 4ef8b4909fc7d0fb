import type { YamlNode } from '../../yaml/index.js';
import type { Decoder } from './decode-context.js';
import { parseGoDuration } from './duration.js';

/** A Go time.Duration field: an integer is nanoseconds, a string goes to time.ParseDuration. */
export function goDuration(d: Decoder, node: YamlNode): number {
  if (node.kind === 'scalar') {
    if (node.tag === '!!null') return 0;
    if (typeof node.value === 'bigint') return Number(node.value) / 1e6;
    if (node.tag === '!!str') {
      const ms = parseGoDuration(node.text);
      if (ms !== undefined) return ms;
    }
  }
  d.typeError(node, 'time.Duration');
  return 0;
}
