import { parseYaml, type YamlNode } from '../yaml/index.js';
import { EXTENSION_KEYS } from './key-walk.js';

/**
 * `ratelimit-config-check -strict-upstream`: the first key of a rules file that upstream
 * ratelimit does not accept (an extension of this service), as `line N: key 'k' ...`; undefined
 * when there is none. Free-form `metadata` is not looked into, as the loader does not.
 */
export function findExtensionKey(text: string): string | undefined {
  const parsed = parseYaml(text);
  return parsed.ok && parsed.root !== null ? extensionIn(parsed.root) : undefined;
}

function extensionIn(node: YamlNode): string | undefined {
  if (node.kind === 'seq') {
    for (const item of node.items) {
      const found = extensionIn(item);
      if (found !== undefined) return found;
    }
  }
  if (node.kind !== 'map') return undefined;
  for (const { key, value } of node.entries) {
    if (key.kind === 'scalar' && EXTENSION_KEYS.has(key.text)) {
      return `line ${key.line}: key '${key.text}' is an extension of this service that upstream ratelimit refuses`;
    }
    if (key.kind === 'scalar' && key.text === 'metadata') continue;
    const found = extensionIn(value);
    if (found !== undefined) return found;
  }
  return undefined;
}
