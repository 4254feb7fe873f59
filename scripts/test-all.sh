#!/usr/bin/env bash
# The one test command (`npm test`): format check, lint, type check, unit and conformance tests,
# production build, end-to-end tests. Every step runs even after a failure, so one run shows all
# problems; it ends with one line `N passed, N failed` summing every suite (each static check
# counts as one) and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results

# What the machine must provide (Chromium; in CI a PostgreSQL server too), before anything runs:
# installed from Debian where it can be, or a stop at once with the line that installs it.
npx tsx scripts/preflight.ts || exit 1
# CI runs the PostgreSQL suites, on a throwaway server of its own unless it was given one.
if [ -n "${CI:-}" ] && [ -z "${TEST_DATABASE_URL:-}" ]; then
  bash scripts/test-postgres.sh status || trap 'bash scripts/test-postgres.sh stop' EXIT
  TEST_DATABASE_URL=$(bash scripts/test-postgres.sh) || {
    echo "PostgreSQL could not be started (scripts/test-postgres.sh); the CI run needs it." >&2
    exit 1
  }
  export TEST_DATABASE_URL
fi
passed=0
failed=0

step() {
  local name=$1
  shift
  echo
  echo "=== $name ==="
  if "$@"; then
    passed=$((passed + 1))
    echo "--- $name: ok"
  else
    failed=$((failed + 1))
    echo "--- $name: FAILED"
    return 1
  fi
}

# Adds a JSON report's counts: vitest (numPassedTests/numFailedTests) or Playwright (stats).
count_report() {
  local file=$1 label=$2
  if [ ! -s "$file" ]; then
    echo "--- $label: no report written"
    failed=$((failed + 1))
    return
  fi
  read -r p f < <(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (r.stats) console.log((r.stats.expected ?? 0) + (r.stats.flaky ?? 0), r.stats.unexpected ?? 0);
    else console.log(r.numPassedTests ?? 0, (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0));
  ' "$file")
  echo "--- $label: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
}

# Vitest needs no build and spends much of its time waiting (PGlite, pg-boss, the sandbox's
# timers), so it runs beside the static checks and the build; its output follows theirs.
rm -f test-results/unit.json test-results/unit.log
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json \
  >test-results/unit.log 2>&1 &
vitest_pid=$!

step "format" npx biome format .
step "lint" npx biome lint .
step "tiers" npm run --silent lint:tiers
step "typecheck" npx tsc --noEmit
step "build" npx next build
built=$?

echo
echo "=== unit, database and sandbox conformance tests ==="
wait "$vitest_pid"
cat test-results/unit.log
count_report test-results/unit.json "unit"

if [ "$built" -eq 0 ]; then
  echo
  echo "=== end-to-end (Playwright, Chromium) ==="
  rm -f test-results/e2e.json
  npx playwright test
  e2e_status=$?
  failed_before=$failed
  count_report test-results/e2e.json "e2e"
  # A run that could not start (a port in use, a server that never answered) reports no test
  # failed; its exit status still says it failed.
  if [ "$e2e_status" -ne 0 ] && [ "$failed" -eq "$failed_before" ]; then
    echo "--- e2e: Playwright exited with $e2e_status"
    failed=$((failed + 1))
  fi
else
  echo "--- e2e: skipped because the build failed"
fi

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
