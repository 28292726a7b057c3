#!/usr/bin/env bash
# Installs node_modules with `npm ci` when missing or older than package-lock.json.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
cd "$ROOT"
stamp=node_modules/.package-lock.json
# A git worktree often borrows its main checkout's node_modules through a symlink; `npm ci` would
# empty the main checkout's folder through it (and break whatever runs from there).
if [ -L node_modules ]; then
  [ -f "$stamp" ] && ! [ package-lock.json -nt "$stamp" ] || echo "[setup] node_modules is a symlink: not reinstalling it; run npm ci where it lives if it is stale" >&2
  exit 0
fi
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "[setup] installing dependencies (npm ci)…" >&2
  npm ci --no-audit --no-fund >&2
fi
