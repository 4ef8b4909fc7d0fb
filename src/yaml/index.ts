/**
 * YAML read as Go's yaml.v2 reads it (YAML 1.1 scalars, merge keys, its alias-bomb guard, its
 * error wording), for every configuration file the service loads: rate limit rules and the
 * Alertmanager configuration.
 */
export { describe, MAX_YAML_DEPTH, MAX_YAML_NODES, parseYaml } from './yaml-tree.js';
export type { YamlMap, YamlNode, YamlParseResult, YamlScalar, YamlSeq } from './yaml-tree.js';
export { formatGoFloat, formatGoScalar, isGoInt, resolvePlain } from './yaml-scalar.js';
export type { ResolvedScalar, ScalarValue } from './yaml-scalar.js';
