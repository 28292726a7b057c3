#!/usr/bin/env bash
# bin/lib/temporal-schema.sh — creates and migrates the Temporal server's two databases, `temporal` (persistence)
# and `temporal_visibility` (advanced visibility), on a PostgreSQL server, with Temporal's own temporal-sql-tool
# and the schema files of the server module (postgresql v12), both from bin/lib/temporal-server.sh.
#
# Usage: SQL_HOST=127.0.0.1 SQL_PORT=55432 SQL_USER=payments SQL_PASSWORD=… bin/lib/temporal-schema.sh
#   (the password in the environment, never on a command line that `ps` shows)
#
# Idempotent and versioned: a missing database is created; `setup-schema -v 0.0` makes the version tables if
# missing (a database already past 0.0 is left alone); `update-schema` applies every versioned step above the
# database's recorded version, so a newer server pin migrates existing data in place. Safe to run at every start.
# Progress and errors go to stderr, prefixed with [setup].
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"

for v in SQL_HOST SQL_PORT SQL_USER SQL_PASSWORD; do
  [ -n "${!v:-}" ] || die "$v is not set." "set SQL_HOST, SQL_PORT, SQL_USER and SQL_PASSWORD to the PostgreSQL server's (bin/cluster does)."
done
export SQL_HOST SQL_PORT SQL_USER SQL_PASSWORD SQL_PLUGIN=postgres12

dir="$("$ROOT/bin/lib/temporal-server.sh")" || die "no temporal-sql-tool (see the messages above)." "fix the problem reported above and run this again."
tool="$dir/temporal-sql-tool"

migrate() { # migrate <database> <schema folder>
  local db="$1" schema="$dir/schema/$2/versioned" out
  # create-database leaves an existing database alone (and says nothing).
  if ! out="$("$tool" --db "$db" create-database 2>&1)"; then
    sed 's/^/[setup]   | /' <<<"$out" >&2
    die "temporal-sql-tool could not create database $db on $SQL_HOST:$SQL_PORT (output above)." "check that $SQL_USER may create databases there."
  fi
  for step in "setup-schema -v 0.0" "update-schema -d $schema"; do
    # shellcheck disable=SC2086 # the step's words are meant to split
    if ! out="$("$tool" --db "$db" $step 2>&1)"; then
      sed 's/^/[setup]   | /' <<<"$out" >&2
      die "temporal-sql-tool $step failed on database $db (output above)." "see the message; the schema files are in $dir/schema."
    fi
  done
  say "database $db: schema at version $(ls "$schema" | sed 's/^v//' | sort -V | tail -n 1)"
}

migrate temporal temporal
migrate temporal_visibility visibility
