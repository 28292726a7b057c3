#!/usr/bin/env bash
# bin/lib/temporal-dev.sh — runs (exec) a Temporal dev server with Web UI and SQLite persistence.
#
# Usage: bin/lib/temporal-dev.sh <port> <ui-port> <db-file>
#   e.g. bin/lib/temporal-dev.sh 7233 8233 .data/temporal.sqlite
#
# Execs `temporal server start-dev --ip 127.0.0.1 --port <port> --ui-port <ui-port> --db-filename <db-file>
#   --namespace default --log-level warn` with the temporal CLI from bin/lib/temporal-cli.sh (built
# once if needed). The custom search attributes are registered by the worker and the API when they
# start (src/temporal/search-attributes.ts is their one list). State (workflows, namespaces, search
# attributes) lives in <db-file> and survives restarts.
# Worker Deployments (versioned workers, docs/production.md "Zero-downtime deploys") are on in the server by default; the
# two dynamic-config values only make a draining version's status (`temporal worker deployment describe-version`)
# follow within seconds instead of the server's 3 + 3 minutes: local visibility has no lag to wait out.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd "$HERE/../.." && pwd -P)"

# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"

[ $# -eq 3 ] || die "usage: $0 <port> <ui-port> <db-file>" "e.g. $0 7233 8233 $ROOT/.data/temporal.sqlite"
port="$1" ui_port="$2" db_file="$3"
for p in "$port" "$ui_port"; do
  [[ "$p" =~ ^[0-9]+$ ]] && [ "$p" -ge 1 ] && [ "$p" -le 65535 ] || die "'$p' is not a TCP port number." "pass ports between 1 and 65535."
done
[ "$port" != "$ui_port" ] || die "the frontend port and the UI port are both $port." "pass two different ports."
[ -n "$db_file" ] || die "empty <db-file>." "pass a path such as $ROOT/.data/temporal.sqlite."

db_dir="$(dirname "$db_file")"
mkdir -p "$db_dir" || die "cannot create $db_dir for the SQLite file." "pass a <db-file> in a writable folder."
db_file="$(cd "$db_dir" && pwd -P)/$(basename "$db_file")"


temporal="$("$HERE/temporal-cli.sh")" || die "no temporal CLI (see the messages above)." "fix the problem reported above and run this again."

echo "[setup] Temporal dev server on 127.0.0.1:$port, UI http://127.0.0.1:$ui_port, db $db_file" >&2
exec "$temporal" server start-dev \
  --ip 127.0.0.1 --port "$port" --ui-port "$ui_port" \
  --db-filename "$db_file" --namespace default --log-level warn \
  --dynamic-config-value 'matching.wv.VersionDrainageStatusRefreshInterval="5s"' \
  --dynamic-config-value 'matching.wv.VersionDrainageStatusVisibilityGracePeriod="5s"'
