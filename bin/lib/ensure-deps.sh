#!/usr/bin/env bash
# Installs node_modules with `npm ci` when missing or older than package-lock.json.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
cd "$ROOT"
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "[setup] installing dependencies (npm ci)…" >&2
  npm ci --no-audit --no-fund >&2
fi
