#!/usr/bin/env bash
# Design checks (`npm run lint`, and the first step of `npm test`): ESLint with type information
# (promises handled, type-only imports marked, no `any` in src/, the folder layering rules of
# eslint.config.js), then, over one module graph of the whole repository: module
# import cycles, folder cycles in src/, and the folder dependencies docs/architecture.md draws
# against the code's.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=0

[ -f dist/test/design/draw-module-graph.js ] && [ -f dist/test/design/module-cycles.js ] && [ -f dist/test/design/folder-cycles.js ] && [ -f dist/test/design/architecture-doc.js ] || node node_modules/typescript-native/bin/tsc -p . || exit 1

echo "design: eslint (typescript-eslint, layering rules)"
# Building the TypeScript program fills the heap fast: a larger young generation and no GC helper
# threads (the tests use the other core) took its CPU from 54 to 48 s.
node --max-semi-space-size=64 --single-threaded-gc node_modules/eslint/bin/eslint.js --max-warnings 0 src test bench native-bench || failed=1

graph=$(mktemp)
trap 'rm -f "$graph"' EXIT
node dist/test/design/draw-module-graph.js >"$graph" || { echo "the module graph could not be drawn"; failed=1; }

echo "design: module import cycles"
node dist/test/design/module-cycles.js <"$graph" || failed=1

echo "design: folder cycles in src/"
node dist/test/design/folder-cycles.js <"$graph" || failed=1

echo "design: docs/architecture.md draws the folder dependencies the code has"
node dist/test/design/architecture-doc.js docs/architecture.md <"$graph" || failed=1

[ $failed -eq 0 ] && echo "design: all checks passed"
exit $failed
