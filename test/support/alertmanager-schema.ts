/**
 * Checks an Alertmanager API v2 response body against upstream's OpenAPI 2.0 (Swagger) spec,
 * as published for a given Alertmanager version (test/fixtures/alertmanager/openapi-*.yaml):
 *
 *   validateResponse('v0.25', 'getAlerts', 200, body)  // [] when valid
 *   // ["/0/status must have required property 'mutedBy'"] against 'v0.34'
 *
 * The operation's response is looked up the way a Swagger client does it (paths -> method ->
 * operationId -> responses[status] or `default`, a `#/responses/...` reference followed), and
 * its schema validated with ajv. The whole spec document is registered with ajv under its own
 * id, so every `#/definitions/...` reference inside it resolves in place: no dereferencing copy
 * that could drift from the upstream file.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { packageFile } from '../../src/transports/package-files.js';

export type SpecVersion = 'v0.34' | 'v0.25';

/** test/fixtures/alertmanager in the source tree (as a folder URL, to resolve file names against). */
export const ALERTMANAGER_FIXTURES_DIR = pathToFileURL(packageFile('test/fixtures/alertmanager/'));

const SPEC_FILES: Readonly<Record<SpecVersion, string>> = {
  'v0.34': 'openapi-v0.34.yaml',
  'v0.25': 'openapi-v0.25.yaml',
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

// ajv-formats is CommonJS with `exports.default`; under NodeNext its default import is the
// module object, whose `default` is the plugin.
const addFormats = addFormatsModule.default;

/**
 * strict: false, because a Swagger 2.0 document is not a JSON Schema: its top level (swagger,
 * info, paths...) and vendor extensions (x-go-name, x-nullable) are unknown keywords to ajv.
 * allErrors: a test failure should list every difference, not the first.
 */
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
// Only the formats the spec uses; ajv-formats' "full" mode checks calendar dates and URIs properly.
addFormats(ajv, ['date-time', 'uuid', 'uri']);

interface Spec {
  paths: Record<string, Record<string, unknown>>;
  responses?: Record<string, unknown>;
}

const specs = new Map<SpecVersion, Spec>();
const validators = new Map<string, ValidateFunction>();

function specId(version: SpecVersion): string {
  return `https://alertmanager.invalid/openapi-${version}.json`;
}

/** The parsed spec, registered with ajv on first use. */
export function loadSpec(version: SpecVersion): Spec {
  let spec = specs.get(version);
  if (spec === undefined) {
    spec = parse(readFileSync(new URL(SPEC_FILES[version], ALERTMANAGER_FIXTURES_DIR), 'utf8')) as Spec;
    ajv.addSchema(spec as object, specId(version));
    specs.set(version, spec);
  }
  return spec;
}

/** RFC 6901: `/alerts/groups` becomes one pointer segment `~1alerts~1groups`. */
function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON pointer (within the spec) of the schema of `operationId`'s `status` response, or null
 * when that response is declared without a body (e.g. DELETE's 200). Throws for an unknown
 * operation or an undeclared status: a test asking for those has a typo, not a finding.
 */
export function responseSchemaPointer(version: SpecVersion, operationId: string, status: number): string | null {
  const spec = loadSpec(version);
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isRecord(operation) || operation['operationId'] !== operationId) continue;
      const responses = operation['responses'];
      if (!isRecord(responses)) throw new Error(`${version} ${operationId}: no responses`);
      const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : undefined;
      if (key === undefined) {
        throw new Error(`${version} ${operationId} declares no ${status} response (declared: ${Object.keys(responses).join(', ')})`);
      }
      let pointer = `/paths/${pointerSegment(path)}/${method}/responses/${key}`;
      let response = responses[key];
      // A Swagger response may be a reference to a shared response object (`#/responses/BadRequest`).
      if (isRecord(response) && typeof response['$ref'] === 'string') {
        const ref = response['$ref'];
        const name = /^#\/responses\/([^/]+)$/.exec(ref)?.[1];
        response = name === undefined ? undefined : spec.responses?.[name];
        if (name === undefined || !isRecord(response)) throw new Error(`${version} ${operationId} ${status}: unresolvable ${ref}`);
        pointer = `/responses/${pointerSegment(name)}`;
      }
      if (!isRecord(response)) throw new Error(`${version} ${operationId} ${status}: malformed response`);
      return 'schema' in response ? `${pointer}/schema` : null;
    }
  }
  throw new Error(`${version} has no operation ${operationId}`);
}

function validatorFor(version: SpecVersion, pointer: string): ValidateFunction {
  const key = `${version}#${pointer}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: `${specId(version)}#${pointer}` });
    validators.set(key, validate);
  }
  return validate;
}

/** `/0/status must have required property 'mutedBy'`; the root is `/`. */
function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '/' : error.instancePath;
  const allowed = error.keyword === 'enum' && isRecord(error.params) ? ` ${JSON.stringify(error.params['allowedValues'])}` : '';
  return `${where} ${error.message ?? error.keyword}${allowed}`;
}

/**
 * Validates `body` (parsed JSON) as the `status` response of `operationId` (e.g. 'getAlerts',
 * 'getAlertGroups', 'getSilences', 'getStatus', 'getReceivers', 'postSilences') in the given
 * spec version. Returns one message per violation, empty when the body is valid. A response
 * the spec declares without a body accepts anything.
 */
export function validateResponse(version: SpecVersion, operationId: string, status: number, body: unknown): string[] {
  const pointer = responseSchemaPointer(version, operationId, status);
  if (pointer === null) return [];
  const validate = validatorFor(version, pointer);
  if (validate(body)) return [];
  // ajv may report the same violation once per allOf branch that contains it.
  return [...new Set((validate.errors ?? []).map(describe))];
}
