#!/usr/bin/env bash
# The checks before the tests, side by side: the four type checks, the linter and the build. One after another
# they took about 80 s of a 2-core CI machine's time, much of it one tsc waiting on files while a core idled.
# Each one's output is shown whole, in a fixed order, once all have ended; the step fails if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
names=(typecheck:all typecheck:core typecheck:server typecheck:sidebar lint build)
commands=(
  "npx tsc --noEmit -p tsconfig.json"
  "npx tsc --noEmit -p tsconfig.core.json"
  "npx tsc --noEmit -p tsconfig.server.json"
  "npx tsc --noEmit -p tsconfig.sidebar.json"
  "npx biome check ."
  "node scripts/build.mjs"
)
pids=()
for i in "${!names[@]}"; do
  bash -c "${commands[$i]}" >"$out/$i" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!names[@]}"; do
  if wait "${pids[$i]}"; then status=ok; else status=FAILED; failed=1; fi
  echo "── ${names[$i]}: ${commands[$i]} ($status)"
  cat "$out/$i"
done
exit "$failed"
