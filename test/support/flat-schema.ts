/**
 * Validation of score API bodies against the Flat API's OpenAPI 3 definition of release 2.13.0
 * (test/fixtures/flat/openapi-2.13.0.yaml), by component schema name, with ajv. OpenAPI's
 * `nullable` is honoured; `discriminator` and the documentation keywords are ignored.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { packageFile } from '../../src/transports/package-files.js';

const SPEC_FILE = packageFile('test/fixtures/flat/openapi-2.13.0.yaml');

const addFormats = addFormatsModule.default;

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function validator(schemaName: string): ValidateFunction {
  let validate = compiled.get(schemaName);
  if (validate !== undefined) return validate;
  if (ajv === undefined) {
    const spec = parse(readFileSync(SPEC_FILE, 'utf8')) as { components: unknown };
    ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    ajv.addSchema({ $id: 'flat', components: spec.components });
  }
  validate = ajv.compile({ $ref: `flat#/components/schemas/${schemaName}` });
  compiled.set(schemaName, validate);
  return validate;
}

/** The problems of `body` against the named component schema; empty when it is valid. */
export function flatSchemaErrors(schemaName: string, body: unknown): string[] {
  const validate = validator(schemaName);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
