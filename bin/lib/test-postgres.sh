#!/usr/bin/env bash
# Prints the admin URL of the PostgreSQL that tests and benchmarks create their own databases on:
# TEST_DATABASE_URL when set, else the project-owned `postgres-test` cluster (started if needed)
# on a port derived from this checkout's path, so that two clones on one machine do not collide.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
if [ -n "${TEST_DATABASE_URL:-}" ]; then echo "$TEST_DATABASE_URL"; exit 0; fi
port="${TEST_PG_PORT:-$((56000 + $(printf '%s' "$ROOT" | cksum | cut -d' ' -f1) % 1000))}"
"$ROOT/bin/lib/postgres.sh" start postgres-test "$port" >&2
"$ROOT/bin/lib/postgres.sh" url postgres-test "$port" postgres
