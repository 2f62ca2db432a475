#!/usr/bin/env bash
# `npm test`: installs what the tests need, then runs them. The npm packages are installed here
# (a fresh clone has none); Kafka, ClickHouse and the EVM devnet are installed and started by the
# vitest global setups (test/setup/), idempotently, and stopped by PID when the tests end.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "test: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi
mkdir -p .tmp
rm -f .tmp/vitest-report.json
set +e
node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-report.json "$@"
code=$?
set -e
# the plain closing line: N passed, N failed (N skipped)
node -e '
  const r = JSON.parse(require("fs").readFileSync(".tmp/vitest-report.json", "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' || echo "0 passed, 1 failed"
exit $code
