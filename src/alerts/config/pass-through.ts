import type { YamlNode } from '../../yaml/index.js';
import { lit, map, seq, str, type YamlOut } from './yaml-emit.js';

/** What Alertmanager prints in place of a secret. */
export const SECRET = '<secret>';

/**
 * A configuration part this service accepts without modelling it (another integration's
 * settings), printed back as written: keys in their order, scalars with their YAML type, nulls
 * left out (Go's zero values under `omitempty`), and the values of `secretKeys` (at any depth)
 * as `<secret>`.
 */
export function maskedPassThrough(node: YamlNode, secretKeys: ReadonlySet<string>): YamlOut {
  switch (node.kind) {
    case 'scalar':
      if (node.tag === '!!str') return str(node.text);
      if (typeof node.value === 'bigint') return lit(node.value);
      if (typeof node.value === 'boolean') return lit(node.value);
      return str(node.text);
    case 'seq':
      return seq(node.items.filter((item) => !isNullNode(item)).map((item) => maskedPassThrough(item, secretKeys)));
    case 'map':
      return map(
        node.entries
          .filter(({ value }) => !isNullNode(value))
          .map(({ key, value }): [string, YamlOut] => {
            const name = key.kind === 'scalar' ? key.text : '';
            if (secretKeys.has(name) && value.kind === 'scalar' && value.text !== '') return [name, str(SECRET)];
            return [name, maskedPassThrough(value, secretKeys)];
          }),
      );
  }
}

function isNullNode(node: YamlNode): boolean {
  return node.kind === 'scalar' && node.tag === '!!null';
}
