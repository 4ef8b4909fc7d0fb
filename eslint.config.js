// Lint rules that encode the design: promises are awaited or handled, type-only imports say so,
// no `any` in the service, and folders depend on each other in one direction only.
import tseslint from 'typescript-eslint';

/** Import patterns a folder must not use, with the reason the design gives. */
function forbid(...groups) {
  return {
    'no-restricted-imports': ['error', { patterns: groups.map(([group, message]) => ({ group, message })) }],
  };
}

const IO_MODULES = ['node:*', 'ioredis', 'memjs', '@grpc/*', '@trufflesuite/*', 'piscina', 'busboy', 'find-my-way'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    // One program from tsconfig.json for every file: about a tenth less CPU than the project
    // service (`projectService: true`), which builds its programs the way an editor does.
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // tap awaits the subtests it returns promises for itself, in order.
          allowForKnownSafePromises: [{ from: 'package', package: '@tapjs/core', name: 'PromiseWithSubtest' }],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  // The engine decides; it never does I/O and knows no transport, store, thread or composition.
  {
    files: ['src/engine/**/*.ts'],
    rules: forbid(
      [['**/transports/**', '**/ratelimit/**', '**/alerts/**', '**/scores/**'], 'the engine knows no transport or API'],
      [['**/backends/**'], 'the engine defines the CounterStore interface; backends implement it'],
      [['**/threads/**', '**/app/**'], 'threads and composition use the engine, not the reverse'],
      [['**/config/**', '**/settings/**', '**/cli/**'], 'configuration produces the engine’s model (engine/rules-config.ts)'],
      [['**/observability/logger*', '**/observability/health*'], 'the engine does no I/O (statistics only)'],
      [IO_MODULES, 'the engine does no I/O'],
    ),
  },
  // Counter stores implement the engine's interface and know nothing above it.
  {
    files: ['src/backends/**/*.ts'],
    rules: forbid(
      [['**/transports/**', '**/ratelimit/**', '**/alerts/**', '**/scores/**', '**/app/**', '**/threads/**', '**/config/**'], 'backends depend on the engine only'],
    ),
  },
  // Settings read the environment; each counter store reads its own settings in its folder.
  {
    files: ['src/settings/**/*.ts'],
    rules: forbid([['**/backends/**'], 'settings/ knows no counter store: each store reads its own settings (backends/registry.ts)']),
  },
  // Transports move bytes; what a request means belongs to an API folder.
  {
    files: ['src/transports/**/*.ts'],
    rules: forbid(
      [['**/backends/**', '**/app/**', '**/config/**', '**/ratelimit/**', '**/alerts/**', '**/scores/**'], 'transports are generic; APIs register routes with them'],
    ),
  },
  // APIs plug into the transports; only app/ chooses implementations.
  {
    files: ['src/ratelimit/**/*.ts', 'src/alerts/**/*.ts', 'src/scores/**/*.ts', 'src/config/**/*.ts', 'src/threads/**/*.ts'],
    rules: forbid([['**/backends/**', '**/app/**'], 'only app/ chooses implementations']),
  },
);
