#!/usr/bin/env bash
# Runs every native fuzz target for FUZZTIME (default 10s) on top of its
# committed corpus (testdata/fuzz). One target at a time: go test allows one
# -fuzz pattern per run.
#
# Go 1.26's fuzz coordinator can end a -fuzztime run with a bare "context
# deadline exceeded" failure when a starved worker misses the deadline
# (golang/go#75804, fixed in Go 1.27; seen here on the 2-core machine with
# the workers at 0 execs/sec). That failure writes no failing input. So a
# failure counts only if it wrote one, or printed anything else, or if the
# target then fails a plain run of its corpus; a bare deadline is reported
# as a flake.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-10s}
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    echo "fuzz: $pkg $target for $fuzztime"
    if go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" 2>&1 | tee "$log"; then
      continue
    fi
    if grep -q 'context deadline exceeded' "$log" && ! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' "$log" &&
      go test -count=1 -run "^${target}\$" "$pkg"; then
      echo "fuzz: $pkg $target: the Go 1.26 fuzztime deadline race (golang/go#75804), no failing input; the corpus passes"
      continue
    fi
    status=1
  done
done
exit $status
