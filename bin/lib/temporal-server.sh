#!/usr/bin/env bash
# bin/lib/temporal-server.sh — prints the folder (and nothing else) on stdout that holds the production Temporal
# engine's binaries, built once per machine from the Go module proxy:
#   temporal-server      go.temporal.io/server/cmd/server             (the single-binary cluster: all services)
#   temporal-sql-tool    go.temporal.io/server/cmd/tools/sql          (creates and migrates its SQL schemas)
#   temporal-ui-server   github.com/temporalio/ui-server/v2/cmd/server (the Web UI, assets embedded)
# and schema/ (the module's schema/postgresql/v12 files that temporal-sql-tool applies).
#
# Usage: DIR=$(bin/lib/temporal-server.sh)            build if missing (minutes on 2 cores, once per machine)
#        DIR=$(bin/lib/temporal-server.sh --cached)   never build: exit 3 (printing nothing) if not built yet
#
# Pinned to the server and UI versions that the pinned Temporal CLI (v1.5.1, bin/lib/temporal-cli.sh) embeds
# in its dev server (its go.mod: go.temporal.io/server v1.29.1, github.com/temporalio/ui-server/v2 v2.42.1),
# so the cluster runs the same engine the dev server and the tests do.
# Cached in $TOOLS_CACHE/temporal-server-<server version>/ (TOOLS_CACHE=${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/
# payments-service}, the CLI's cache root); its file STAMP names the pins it was built from: a changed pin builds
# anew. One build at a time per machine (flock); whoever waits reuses the result. Compiler output goes to
# build.log there; stderr gets a progress line every TEMPORAL_BUILD_PROGRESS_SECONDS (15) seconds.
# Progress and errors go to stderr, prefixed with [setup].
set -euo pipefail

SERVER_VERSION=1.29.1
UI_VERSION=2.42.1
GO_MIN_MINOR=25   # go.temporal.io/server v1.29.1 says go 1.25.0
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
TOOLS_CACHE="${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}"
DIR="$TOOLS_CACHE/temporal-server-$SERVER_VERSION"
STAMP="server=$SERVER_VERSION ui=$UI_VERSION schema=postgresql/v12"
SERVER_MODULE=go.temporal.io/server
UI_MODULE=github.com/temporalio/ui-server/v2

# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"
# shellcheck source=go-build.sh
source "$ROOT/bin/lib/go-build.sh"

built() {
  [ "$(cat "$DIR/STAMP" 2>/dev/null || true)" = "$STAMP" ] &&
    [ -x "$DIR/temporal-server" ] && [ -x "$DIR/temporal-sql-tool" ] && [ -x "$DIR/temporal-ui-server" ] &&
    [ -f "$DIR/schema/temporal/versioned/v1.0/schema.sql" ]
}
found() { echo "$DIR"; exit 0; }

only_cached=0
case "${1:-}" in
  --cached) only_cached=1 ;;
  "") ;;
  *) die "unknown argument '$1'." "usage: $0 [--cached]" ;;
esac

if built; then found; fi
[ "$only_cached" -eq 0 ] || exit 3

require_go "$GO_MIN_MINOR" "the Temporal server v$SERVER_VERSION"
take_build_lock "temporal-server-$SERVER_VERSION" "the Temporal server v$SERVER_VERSION"
if built; then found; fi

mkdir -p "$DIR"
BUILD_LOG="$DIR/build.log"
BUILD_DIR="$(mktemp -d "$TOOLS_CACHE/.temporal-server-$SERVER_VERSION.build.XXXXXX")"
trap 'rm -rf "$BUILD_DIR"' EXIT
: >"$BUILD_LOG"
export GO_BUILD_PROGRESS_SECONDS="${TEMPORAL_BUILD_PROGRESS_SECONDS:-15}"

say "building the Temporal server v$SERVER_VERSION, its SQL tool and the Web UI server v$UI_VERSION from the Go module proxy:"
say "many minutes on 2 cores, once per machine ($GO_VERSION; target $DIR; full build log: $BUILD_LOG)"
total_start=$SECONDS
# One command per `go install`, so each one's time is told; the SQL tool reuses most of the server's packages.
go_install "Temporal server" "$BUILD_DIR/server" "$BUILD_LOG" "$SERVER_MODULE/cmd/server@v$SERVER_VERSION"
go_install "temporal-sql-tool" "$BUILD_DIR/sql" "$BUILD_LOG" "$SERVER_MODULE/cmd/tools/sql@v$SERVER_VERSION"
go_install "Temporal Web UI server" "$BUILD_DIR/ui" "$BUILD_LOG" "$UI_MODULE/cmd/server@v$UI_VERSION"

# The schema files ship in the server module, now in the module cache: copied beside the binaries so that the
# cluster never depends on the module cache (which `go clean -modcache` empties).
module_dir="$(GOFLAGS=-mod=mod go mod download -json "$SERVER_MODULE@v$SERVER_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')"
[ -d "$module_dir/schema/postgresql/v12/temporal/versioned" ] ||
  die "the server module's PostgreSQL schema files are missing (looked in '${module_dir:-?}/schema/postgresql/v12')." \
      "run 'go clean -modcache' and this again."
mkdir -p "$BUILD_DIR/schema"
cp -R "$module_dir/schema/postgresql/v12/temporal" "$module_dir/schema/postgresql/v12/visibility" "$BUILD_DIR/schema/"
chmod -R u+w "$BUILD_DIR/schema"

"$BUILD_DIR/server/server" --help >/dev/null 2>&1 || die "the freshly built Temporal server does not run." "remove $DIR and retry."
"$BUILD_DIR/sql/sql" --help >/dev/null 2>&1 || die "the freshly built temporal-sql-tool does not run." "remove $DIR and retry."

# Publish: each binary by an atomic rename (same filesystem), the stamp last.
rm -f "$DIR/STAMP"
rm -rf "$DIR/schema"
mv -f "$BUILD_DIR/schema" "$DIR/schema"
mv -f "$BUILD_DIR/server/server" "$DIR/temporal-server"
mv -f "$BUILD_DIR/sql/sql" "$DIR/temporal-sql-tool"
mv -f "$BUILD_DIR/ui/server" "$DIR/temporal-ui-server"
echo "$STAMP" >"$DIR/STAMP"
say "built the Temporal server, SQL tool and UI server in $((SECONDS - total_start)) s ($(packages_built "$BUILD_LOG") packages): $DIR"
found
