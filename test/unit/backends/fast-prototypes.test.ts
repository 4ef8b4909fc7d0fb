/**
 * The built-in prototypes stay in V8's fast mode once the service's modules are loaded. A
 * dependency that subclasses a built-in (ioredis's `class VerbatimString extends String`) leaves
 * that prototype in dictionary mode, and then no optimized code anywhere in the thread inlines a
 * method of it (see src/backends/redis/string-prototype-repair.ts). V8 tells only through a native
 * call, so the check runs in a child process with `--allow-natives-syntax`.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'src');

/** What the main, HTTP and API threads load between them (entry files that start work when loaded are left out). */
const MODULES = ['app/app.js', 'app/http/route-table.js', 'app/decisions/decider.js', 'alerts/index.js', 'scores/index.js', 'backends/index.js'];
const PROTOTYPES = ['String', 'Array', 'Object', 'Function', 'Number', 'Boolean', 'Symbol', 'Map', 'Set', 'Promise', 'RegExp', 'Date', 'Error', 'Uint8Array', 'ArrayBuffer'];

const script = `
for (const file of ${JSON.stringify(MODULES.map((m) => join(SRC, m)))}) await import(file);
const slow = ${JSON.stringify(PROTOTYPES)}.filter((name) => !%HasFastProperties(globalThis[name].prototype));
console.log(JSON.stringify(slow));
`;

t.test('no built-in prototype is left in dictionary mode by the modules the service loads', async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script]);
  t.same(JSON.parse(stdout.trim().split('\n').pop() ?? 'null'), [], 'every built-in prototype is fast');
});
