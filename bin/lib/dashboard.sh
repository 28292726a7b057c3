#!/usr/bin/env bash
# bin/lib/dashboard.sh — the operators' dashboard (dashboard/): installs its dependencies and builds it to
# dashboard/dist, which the API serves at /dashboard.
#
# Usage: bin/lib/dashboard.sh [build|deps|check]
#   build (default): deps, then `vite build`, skipped when dashboard/dist/.build-hash matches the hash of the
#                    dashboard's lock file, config and sources; prints the first load's JavaScript (gzip).
#   deps:            `npm ci --prefix dashboard` when dashboard/node_modules is missing or older than its lock.
#   check:           deps, then the dashboard's own type-check (`tsc -p dashboard`; the root tsc and eslint
#                    leave dashboard/ to it).
# Progress goes to stderr, prefixed with [setup]. Expects Node 24 on PATH (source bin/lib/node.sh first).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"
DASH="$ROOT/dashboard"
STAMP="$DASH/dist/.build-hash"

deps() {
  local installed="$DASH/node_modules/.package-lock.json"
  if [ ! -f "$installed" ] || [ "$DASH/package-lock.json" -nt "$installed" ]; then
    say "dashboard: installing its dependencies (npm ci --prefix dashboard)…"
    npm ci --prefix "$DASH" --no-audit --no-fund >&2 || die "npm ci --prefix dashboard failed." "run it yourself to see why: npm ci --prefix dashboard"
  fi
}

# Everything the build reads: the lock file, the config and the sources (names and contents, in a stable order).
source_hash() {
  (
    cd "$DASH"
    { printf '%s\n' package-lock.json package.json index.html vite.config.ts tsconfig.json; find src scripts -type f | LC_ALL=C sort; } |
      while read -r f; do printf '%s\0' "$f"; cat "$f"; done | sha256sum | cut -d' ' -f1
  )
}

case "${1:-build}" in
  deps) deps ;;
  check)
    deps
    say "dashboard: type-check (tsc -p dashboard)"
    "$DASH/node_modules/.bin/tsc" --noEmit -p "$DASH/tsconfig.json"
    ;;
  build)
    hash="$(source_hash)"
    if [ -f "$DASH/dist/index.html" ] && [ "$(cat "$STAMP" 2>/dev/null || true)" = "$hash" ]; then
      say "dashboard: build up to date (dashboard/dist, sources hash ${hash:0:12})"
      node "$DASH/scripts/first-load-size.mjs" "$DASH/dist" >&2
      exit 0
    fi
    deps
    say "dashboard: building (vite build → dashboard/dist)…"
    (cd "$DASH" && node_modules/.bin/vite build --logLevel warn >&2) || die "the dashboard build failed (output above)." "cd dashboard && npx vite build"
    node "$DASH/scripts/first-load-size.mjs" "$DASH/dist" >&2
    printf '%s\n' "$hash" >"$STAMP"
    say "dashboard: built (sources hash ${hash:0:12})"
    ;;
  *) die "unknown command: $1" "bin/lib/dashboard.sh [build|deps|check]" ;;
esac
