#!/usr/bin/env bash
# The one test command (`npm test`, also run by .ci/run): installs what is missing, builds, runs
# the design checks, then every tap test compiled into dist/test, and ends with `N passed, N failed`.
#   bash test/run.sh              everything
#   bash test/run.sh --unit       design checks skipped, unit tests only (quick loop)
#   bash test/run.sh --e2e        design checks skipped, end-to-end tests only
#   bash test/run.sh FILE...      just these compiled test files
set -uo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "$1"
  echo "0 passed, 1 failed"
  exit 1
}

[ -x node_modules/.bin/tap ] || npm ci --no-audit --no-fund || fail "npm ci failed"

bash test/ensure-packages.sh || fail "required packages are missing"

rm -rf dist
node node_modules/typescript-native/bin/tsc -p . || fail "type check failed"

# .taprc drops tap's TypeScript plugin (the tests are compiled JS); tap must rebuild its
# plugin set before the first run after an install, or that run loads ts-node and fails.
stamp="node_modules/.tap-plugins-$(sha1sum .taprc | cut -c1-12)"
if [ ! -f "$stamp" ]; then
  node_modules/.bin/tap build >/dev/null 2>&1 || fail "tap build failed"
  touch "$stamp"
fi

files=()
case "${1:-}" in
  --unit) mapfile -t files < <(find dist/test/unit -name '*.test.js' | sort) ;;
  --e2e) mapfile -t files < <(find dist/test/e2e -name '*.test.js' | sort) ;;
  "")
    bash test/design-checks.sh || fail "design checks failed (npm run lint shows what)"
    mapfile -t files < <(find dist/test -name '*.test.js' | sort)
    ;;
  *) files=("$@") ;;
esac

# The score API's end-to-end tests run a second time on PostgreSQL (each service gets a database
# of its own on a server its test file starts): the same tests pass on both stores. Not the ones
# whose subject lies above the store (exports, which are files; the authorization matrix; the
# generated client), whose store reads the other files already cover on PostgreSQL. Each second
# run is a small file that sets SCORES_TEST_STORE and imports the test, so both runs share one
# tap run and keep both cores busy to the end.
ABOVE_THE_STORE=(dist/test/e2e/score-exports.test.js dist/test/e2e/scores-authorization.test.js dist/test/e2e/scores-flat-api-client.test.js)
on_postgres=()
for file in "${files[@]}"; do
  if [[ "$file" =~ ^dist/test/e2e/(scores?-[^/]*\.test\.js)$ && " ${ABOVE_THE_STORE[*]} " != *" $file "* ]]; then
    mkdir -p dist/test/on-postgres
    wrapper="dist/test/on-postgres/${BASH_REMATCH[1]}"
    printf "process.env['SCORES_TEST_STORE'] = 'postgres';\nawait import('../e2e/%s');\n" "${BASH_REMATCH[1]}" > "$wrapper"
    on_postgres+=("$wrapper")
  fi
done

# The longest files first (end-to-end, then their PostgreSQL runs), the short unit files last,
# so neither core idles at the end waiting for one long file.
ordered=()
for file in "${files[@]}"; do [[ "$file" == dist/test/e2e/* ]] && ordered+=("$file"); done
ordered+=("${on_postgres[@]}")
for file in "${files[@]}"; do [[ "$file" != dist/test/e2e/* ]] && ordered+=("$file"); done

summary=$(mktemp)
node_modules/.bin/tap -R tap "${ordered[@]}" 2>&1 | node dist/test/support/summarize-tap.js | tee "$summary"
status=${PIPESTATUS[1]}
# The summary's own last line is the run's; if tap died before it, say so in the same form.
if ! tail -n 1 "$summary" | grep -Eq '^[0-9]+ passed, [0-9]+ failed'; then
  echo "0 passed, 1 failed"
  status=1
fi
rm -f "$summary"
exit "$status"
