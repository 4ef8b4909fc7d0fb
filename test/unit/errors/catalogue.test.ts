/**
 * Goes over every entry of the error catalogue: its code names its area, its statuses are real
 * HTTP and gRPC statuses, its rendering is the body form of its API, and some code outside the
 * catalogue uses it (an entry nobody can receive is dead weight in the README's table).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ERROR_CATALOGUE, renderHttpError, ServiceError, type ErrorCode } from '../../../src/errors/index.js';

const SRC = fileURLToPath(new URL('../../../../src', import.meta.url));
const AREAS = ['RL', 'AM', 'SC', 'HTTP', 'CFG', 'DBG'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
const usage = sourceFiles(SRC)
  .filter((file) => !file.includes(`${join('src', 'errors')}`))
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');

t.test('every code carries its area prefix', async (t) => {
  for (const code of codes) {
    const area = code.split('_')[0] as string;
    t.ok(AREAS.includes(area), `${code}: area ${area}`);
    t.match(code, /^[A-Z]+_[A-Z0-9_]+$/, `${code}: upper snake case`);
  }
});

t.test('every entry maps to a real HTTP error status and gRPC status', async (t) => {
  for (const code of codes) {
    const entry = ERROR_CATALOGUE[code];
    t.ok(entry.http >= 400 && entry.http <= 599, `${code}: HTTP ${entry.http}`);
    t.ok(Number.isInteger(entry.grpc) && entry.grpc >= 1 && entry.grpc <= 16, `${code}: gRPC ${entry.grpc}`);
    t.ok(entry.meaning.length > 0, `${code}: says what it means`);
  }
});

t.test('upstream ratelimit errors keep grpc-go UNKNOWN (2) and 400 on /json', async (t) => {
  for (const code of ['RL_EMPTY_DOMAIN', 'RL_NO_DESCRIPTORS', 'RL_NO_CONFIG', 'RL_STORE_ERROR'] as const) {
    t.equal(ERROR_CATALOGUE[code].grpc, 2, code);
    t.equal(ERROR_CATALOGUE[code].http, 400, code);
  }
});

t.test('every entry renders in the body form of its API', async (t) => {
  for (const code of codes) {
    const entry = ERROR_CATALOGUE[code];
    const message = `why ${code} <failed> "quoted" é`;
    const reply = renderHttpError(new ServiceError(code, message));
    const header = (name: string) => reply.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
    switch (entry.body) {
      case 'ratelimit':
        t.equal(reply.status, entry.http, `${code}: status`);
        t.match(reply.body, /^[A-Z][A-Za-z ]+\n$/, `${code}: upstream's bare status text`);
        t.equal(header('X-Ratelimit-Error'), `why ${code} <failed> "quoted" ?`, `${code}: reason in the header, visible ASCII only`);
        break;
      case 'alertmanager-object': {
        const apiCode = (entry as { apiCode: number }).apiCode;
        t.equal(reply.status, apiCode >= 600 ? 422 : apiCode, `${code}: go-openapi status`);
        t.same(JSON.parse(reply.body), { code: apiCode, message }, `${code}: {code,message}`);
        t.ok(reply.body.endsWith('}\n'), `${code}: newline after the JSON, as Go's encoder`);
        t.equal(header('Cache-Control'), 'no-store', `${code}: no-store`);
        break;
      }
      case 'alertmanager-string':
        t.equal(reply.status, entry.http, `${code}: status`);
        t.equal(JSON.parse(reply.body), message, `${code}: a JSON string`);
        break;
      case 'flat':
        t.equal(reply.status, entry.http, `${code}: status`);
        t.same(JSON.parse(reply.body), { code: (entry as { apiCode: string }).apiCode, message }, `${code}: FlatErrorResponse`);
        break;
      case 'text':
        t.equal(reply.status, entry.http, `${code}: status`);
        t.equal(reply.body, `${message}\n`, `${code}: Go's http.Error text`);
        t.equal(header('Content-Type'), 'text/plain; charset=utf-8', `${code}: text/plain`);
        break;
    }
  }
});

t.test('details reach the body and headers', async (t) => {
  const flat = renderHttpError(new ServiceError('SC_NOT_FOUND', 'no such score', { param: 'score' }));
  t.same(JSON.parse(flat.body), { code: 'NOT_FOUND', message: 'no such score', param: 'score' });
  const notAllowed = renderHttpError(new ServiceError('AM_METHOD_NOT_ALLOWED', 'method PUT is not allowed', { allow: 'GET,POST' }));
  t.same(notAllowed.headers.find(([n]) => n === 'Allow'), ['Allow', 'GET,POST']);
  const throttled = renderHttpError(new ServiceError('SC_TOO_MANY_ENROLLMENT_FAILURES', 'wait', { retryAfterSeconds: 42 }));
  t.same([throttled.status, throttled.headers.find(([n]) => n === 'Retry-After')], [429, ['Retry-After', '42']]);
  t.equal(flat.headers.find(([n]) => n === 'Retry-After'), undefined, 'no Retry-After unless the error carries one');
});

t.test('every code is used outside the catalogue', async (t) => {
  for (const code of codes) t.ok(usage.includes(`'${code}'`), `${code} is used in src/`);
});

t.test("the README's error table lists every code with its statuses", async (t) => {
  const readme = readFileSync(fileURLToPath(new URL('../../../../README.md', import.meta.url)), 'utf8');
  for (const code of codes) {
    const entry = ERROR_CATALOGUE[code];
    const status = 'apiCode' in entry && typeof entry.apiCode === 'number' && entry.apiCode >= 600 ? 422 : entry.http;
    t.match(readme, new RegExp(`\\| \`${code}\` \\| ${status} \\| ${entry.grpc} [A-Z_]+ \\| ${entry.body} \\|`), code);
  }
});
