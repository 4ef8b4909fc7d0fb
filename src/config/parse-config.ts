import type { RateLimitConfig } from '../engine/index.js';
import { failed, type Result } from '../errors/index.js';
import { buildConfig, type DecodedSource } from './build-config.js';
import { checkKeys } from './key-walk.js';
import type { ConfigSource } from './model.js';
import { checkDocumentIsMap, decodeRoot, type DecodeResult } from './typed-decode.js';
import { parseYaml } from '../yaml/index.js';

export interface LoadOptions {
  /** MERGE_DOMAIN_CONFIG: several sources may define the same domain. */
  mergeDomainConfigs: boolean;
}

export type LoadConfigResult = Result<RateLimitConfig, 'CFG_INVALID'>;

/**
 * Validates configuration sources exactly as upstream's config loader does
 * (src/config/config_impl.go) and returns the first problem as `<source name>: <message>`. Like
 * upstream, every source is parsed and decoded before any semantic check, so a syntax error in a
 * later file wins over a duplicate domain.
 */
export function loadConfig(sources: readonly ConfigSource[], options: LoadOptions): LoadConfigResult {
  const decoded: DecodedSource[] = [];
  for (const source of sources) {
    const result = decodeSource(source.text);
    if (!result.ok) return failed('CFG_INVALID', `${source.name}: ${result.error}`);
    decoded.push({ name: source.name, root: result.root });
  }
  return buildConfig(decoded, options.mergeDomainConfigs);
}

/** Parse, generic decode, key walk, typed decode: upstream's order and messages. */
function decodeSource(text: string): DecodeResult {
  const parsed = parseYaml(text);
  if (!parsed.ok) return { ok: false, error: `error loading config file: ${parsed.error}` };
  const notMap = checkDocumentIsMap(parsed.root);
  if (notMap !== undefined) return { ok: false, error: `error loading config file: ${notMap}` };
  if (parsed.root?.kind === 'map') {
    const keyProblem = checkKeys(parsed.root);
    if (keyProblem !== undefined) return { ok: false, error: keyProblem };
  }
  const typed = decodeRoot(parsed.root);
  if (!typed.ok) return { ok: false, error: `error loading config file: ${typed.error}` };
  return typed;
}
