import { packageFile } from '../transports/package-files.js';

/**
 * The file every thread and process of the service starts from, compiled, below dist/src/.
 * `npm run build` bundles each of them with the modules and packages it imports (bundle-threads.js
 * reads this list): a thread then loads a few files at its start instead of a few thousand.
 */
export const THREAD_ENTRIES = {
  main: 'main.js',
  httpFront: 'app/http/http-worker.js',
  passwordCheck: 'app/http/password-check-thread.js',
  rulesLoader: 'app/rules/rules-loader-thread.js',
  apiThread: 'app/apis/api-thread.js',
  renderProcess: 'app/apis/render-worker.js',
  decisionPool: 'app/decisions/decision-worker.js',
} as const;

/**
 * The command-line tools' entry files (package.json `bin` and `scripts`), bundled the same way:
 * a user (or a test) starts them as processes of their own, each paying for its loading.
 */
export const COMMAND_ENTRIES = {
  client: 'cli/client.js',
  configCheck: 'cli/config-check.js',
  scoresToken: 'cli/scores-token.js',
} as const;

/** The path of a thread's entry file, for `new Worker`, `fork` or piscina. */
export function threadEntryFile(thread: keyof typeof THREAD_ENTRIES): string {
  return packageFile(`dist/src/${THREAD_ENTRIES[thread]}`);
}
