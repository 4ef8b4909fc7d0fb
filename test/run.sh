#!/usr/bin/env bash
# The one test command (`npm test`, also run by .ci/run): installs what is missing, builds, runs
# the design checks beside every tap test compiled into dist/test, and ends with `N passed, N failed`
# (a failed design check counts as one failure).
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
node bundle-threads.js || fail "bundling the thread entry files failed"

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
    # Beside the tests: they wait on processes and sockets much of the time, the checks only on CPU.
    design_log=$(mktemp)
    bash test/design-checks.sh >"$design_log" 2>&1 &
    design_pid=$!
    mapfile -t files < <(find dist/test -name '*.test.js' | sort)
    ;;
  *)
    files=("$@")
    explicit_files=1
    ;;
esac

# The score API's tests that run a second time on PostgreSQL (each file's services on one server
# it starts, a database each): together they run every SQL statement the score API's end-to-end
# tests run on PostgreSQL (56 when this list was drawn; the others repeat a subset of these), and
# they hold what only PostgreSQL can get wrong: the quota's row lock (quotas), the schema and its
# indexes (stored-database), migrating a database in place (token-lifetime), writes acknowledged
# before a kill -9 (durability). Each second run is a small file that sets SCORES_TEST_STORE and
# imports the test, so both runs share one tap run.
ON_POSTGRES=(scores-api scores-education-authorization scores-quotas scores-stored-database scores-token-lifetime scores-durability)
on_postgres=()
for file in "${files[@]}"; do
  name=${file#dist/test/e2e/}
  name=${name%.test.js}
  if [[ "$file" == dist/test/e2e/* && " ${ON_POSTGRES[*]} " == *" $name "* ]]; then
    mkdir -p dist/test/on-postgres
    wrapper="dist/test/on-postgres/$name.test.js"
    printf "process.env['SCORES_TEST_STORE'] = 'postgres';\nawait import('../e2e/%s.test.js');\n" "$name" > "$wrapper"
    on_postgres+=("$wrapper")
  fi
done

# Unit test files run a folder to a process (dist/test/unit-bundles): a process of its own costs
# each file more than most of them take, and they share no state a process would keep apart.
# Files named on the command line run as they are.
unit_bundles=()
if [ -z "${explicit_files:-}" ]; then
  declare -A bundle_of=()
  for file in "${files[@]}"; do
    [[ "$file" =~ ^dist/test/unit/([^/]+)/ ]] || continue
    folder=${BASH_REMATCH[1]}
    bundle="dist/test/unit-bundles/$folder.test.js"
    if [ -z "${bundle_of[$folder]:-}" ]; then
      mkdir -p dist/test/unit-bundles
      : > "$bundle"
      bundle_of[$folder]=$bundle
      unit_bundles+=("$bundle")
    fi
    printf "await import('../%s');\n" "${file#dist/test/}" >> "$bundle"
  done
fi

# The score API's end-to-end files run three to a process (dist/test/e2e-groups): in a process of
# its own, opening the score API and warming up its code were most of a file's CPU (eleven of them
# took 39 CPU-s apart and 22 together). Three keep a group well inside the time a file may take
# (six took up to 100 s of the 120 in a full run). The other files that open the service in their
# own process share one too, in the groups below (each at most 36 s in a full run); a file
# that only starts service processes gains little from it.
IN_PROCESS_GROUPS=(
  "config-location engine-settings scenarios"
  "upstream-parity windows limit-algorithms"
  "store-local-cache redis-cluster-parallelism grpc-health"
  "grpc-scenarios debug-counters"
  "alerts-api alerts-api-admin alerts-vs-alertmanager"
)
e2e_groups=()
declare -A grouped=()
if [ -z "${explicit_files:-}" ]; then
  mkdir -p dist/test/e2e-groups
  in_groups=0
  for file in "${files[@]}"; do
    [[ "$file" =~ ^dist/test/e2e/scores-[^/]*\.test\.js$ ]] || continue
    if (( in_groups % 3 == 0 )); then
      group="dist/test/e2e-groups/scores-$(( in_groups / 3 + 1 )).test.js"
      : > "$group"
      e2e_groups+=("$group")
    fi
    printf "await import('../%s');\n" "${file#dist/test/}" >> "$group"
    grouped[$file]=1
    in_groups=$(( in_groups + 1 ))
  done
  if [ -z "${1:-}" ] || [ "$1" = --e2e ]; then
    for index in "${!IN_PROCESS_GROUPS[@]}"; do
      group="dist/test/e2e-groups/in-process-$(( index + 1 )).test.js"
      : > "$group"
      for name in ${IN_PROCESS_GROUPS[$index]}; do
        printf "await import('../e2e/%s.test.js');\n" "$name" >> "$group"
        grouped[dist/test/e2e/$name.test.js]=1
      done
      e2e_groups+=("$group")
    done
  fi
fi

# The longest files first (the groups, the other end-to-end files, then the PostgreSQL runs), the
# short unit files last, so no core idles at the end waiting for one long file.
ordered=("${e2e_groups[@]}")
for file in "${files[@]}"; do [[ "$file" == dist/test/e2e/* && -z "${grouped[$file]:-}" ]] && ordered+=("$file"); done
ordered+=("${on_postgres[@]}")
for file in "${files[@]}"; do
  [[ "$file" == dist/test/e2e/* ]] && continue
  [[ -z "${explicit_files:-}" && "$file" =~ ^dist/test/unit/[^/]+/ ]] && continue
  ordered+=("$file")
done
ordered+=("${unit_bundles[@]}")

summary=$(mktemp)
node dist/test/support/run-test-files.js --jobs 3 --timeout 120 "${ordered[@]}" 2>&1 | node dist/test/support/summarize-tap.js | tee "$summary"
status=${PIPESTATUS[1]}
last=$(tail -n 1 "$summary")
rm -f "$summary"
if [[ ! "$last" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
  # tap died before its summary
  last="0 passed, 1 failed"
  status=1
fi
if [ -n "${design_pid:-}" ]; then
  if wait "$design_pid"; then
    tail -n 1 "$design_log"
  else
    cat "$design_log"
    echo "design checks failed (npm run lint shows the same)"
    [[ "$last" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(.*)$ ]]
    last="${BASH_REMATCH[1]} passed, $((BASH_REMATCH[2] + 1)) failed${BASH_REMATCH[3]}"
    status=1
  fi
  rm -f "$design_log"
fi
echo "$last"
exit "$status"
