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

# Tests that time requests against a bound run after the others, alone on the machine: beside
# another test file they measure that file's load (large-rules: no request over 500 ms while
# 200,000 descriptors load).
ALONE=(dist/test/e2e/large-rules.test.js)
together=()
alone=()
for file in "${files[@]}"; do
  if [[ " ${ALONE[*]} " == *" $file "* ]]; then alone+=("$file"); else together+=("$file"); fi
done

passed=0
failed=0
status=0
run_tap() {
  local summary
  summary=$(mktemp)
  node_modules/.bin/tap -R tap "$@" 2>&1 | node dist/test/support/summarize-tap.js | tee "$summary"
  [ "${PIPESTATUS[1]}" -eq 0 ] || status=1
  local last
  last=$(tail -n 1 "$summary")
  rm -f "$summary"
  if [[ "$last" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1]))
    failed=$((failed + BASH_REMATCH[2]))
  else
    failed=$((failed + 1))
    status=1
  fi
}
# The score API's end-to-end tests run a second time on PostgreSQL (each test starts a server of
# its own): the same tests pass on both stores. Not the ones whose subject lies above the store
# (exports, which are files; the authorization matrix; the generated client), whose store reads
# the other files already cover on PostgreSQL.
ABOVE_THE_STORE=(dist/test/e2e/score-exports.test.js dist/test/e2e/scores-authorization.test.js dist/test/e2e/scores-flat-api-client.test.js)
on_postgres=()
for file in "${together[@]}"; do
  if [[ "$file" =~ ^dist/test/e2e/scores?-[^/]*\.test\.js$ && " ${ABOVE_THE_STORE[*]} " != *" $file "* ]]; then on_postgres+=("$file"); fi
done
[ ${#together[@]} -eq 0 ] || run_tap "${together[@]}"
[ ${#on_postgres[@]} -eq 0 ] || SCORES_TEST_STORE=postgres run_tap "${on_postgres[@]}"
[ ${#alone[@]} -eq 0 ] || run_tap "${alone[@]}"
echo "$passed passed, $failed failed"
exit "$status"
