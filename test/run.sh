#!/usr/bin/env bash
# The one test command (`npm test`, also run by .ci/run): installs what is missing, builds,
# runs every tap test compiled into dist/test, and ends with `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."

[ -x node_modules/.bin/tap ] || npm ci --no-audit --no-fund || { echo "0 passed, 1 failed"; exit 1; }

bash test/ensure-packages.sh || { echo "0 passed, 1 failed"; exit 1; }

rm -rf dist
if ! node_modules/.bin/tsc -p .; then
  echo "type check failed"
  echo "0 passed, 1 failed"
  exit 1
fi

# .taprc drops tap's TypeScript plugin (the tests are compiled JS); tap must rebuild its
# plugin set before the first run after an install, or that run loads ts-node and fails.
stamp="node_modules/.tap-plugins-$(sha1sum .taprc | cut -c1-12)"
if [ ! -f "$stamp" ]; then
  node_modules/.bin/tap build >/dev/null 2>&1 || { echo "tap build failed"; echo "0 passed, 1 failed"; exit 1; }
  touch "$stamp"
fi

files=("$@")
[ ${#files[@]} -gt 0 ] || mapfile -t files < <(find dist/test -name '*.test.js' | sort)

node_modules/.bin/tap -R tap "${files[@]}" 2>&1 | node dist/test/support/summarize-tap.js
exit "${PIPESTATUS[1]}"
