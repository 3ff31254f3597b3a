#!/usr/bin/env bash
# Runs every native fuzz target for FUZZTIME (default 15s) on top of its
# committed corpus (testdata/fuzz). One target at a time: go test allows one
# -fuzz pattern per run.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-15s}
status=0
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    echo "fuzz: $pkg $target for $fuzztime"
    if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"; then
      status=1
    fi
  done
done
exit $status
