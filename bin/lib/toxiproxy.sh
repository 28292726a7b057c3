#!/usr/bin/env bash
# bin/lib/toxiproxy.sh — prints the folder (and nothing else) on stdout that holds `toxiproxy-server`
# (github.com/Shopify/toxiproxy/v2 cmd/server), built once per machine from the Go module proxy. The crash
# campaign's network faults (`npm run chaos -- --faults`) put it between the service's processes and their
# PostgreSQL and Temporal, and drive it through its HTTP API.
#
# Usage: DIR=$(bin/lib/toxiproxy.sh)            build if missing (a minute or two on 2 cores, once per machine)
#        DIR=$(bin/lib/toxiproxy.sh --cached)   never build: exit 3 (printing nothing) if not built yet
#
# Pinned to v2.12.0, the newest v2 release the Go module proxy serves. Cached in $TOOLS_CACHE/toxiproxy-<version>/
# (TOOLS_CACHE=${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}, the Temporal builds' cache root); its file
# STAMP names the pin it was built from: a changed pin builds anew. One build at a time per machine (flock);
# whoever waits reuses the result. Compiler output goes to build.log there; stderr gets a progress line every
# TOXIPROXY_BUILD_PROGRESS_SECONDS (15) seconds. Progress and errors go to stderr, prefixed with [setup].
set -euo pipefail

VERSION=2.12.0
GO_MIN_MINOR=23   # github.com/Shopify/toxiproxy/v2 v2.12.0 says go 1.23.0
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
TOOLS_CACHE="${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}"
DIR="$TOOLS_CACHE/toxiproxy-$VERSION"
STAMP="toxiproxy=$VERSION"
MODULE=github.com/Shopify/toxiproxy/v2

# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"
# shellcheck source=go-build.sh
source "$ROOT/bin/lib/go-build.sh"

built() { [ "$(cat "$DIR/STAMP" 2>/dev/null || true)" = "$STAMP" ] && [ -x "$DIR/toxiproxy-server" ]; }
found() { echo "$DIR"; exit 0; }

only_cached=0
case "${1:-}" in
  --cached) only_cached=1 ;;
  "") ;;
  *) die "unknown argument '$1'." "usage: $0 [--cached]" ;;
esac

if built; then found; fi
[ "$only_cached" -eq 0 ] || exit 3

require_go "$GO_MIN_MINOR" "toxiproxy v$VERSION"
take_build_lock "toxiproxy-$VERSION" "toxiproxy v$VERSION"
if built; then found; fi

mkdir -p "$DIR"
BUILD_LOG="$DIR/build.log"
BUILD_DIR="$(mktemp -d "$TOOLS_CACHE/.toxiproxy-$VERSION.build.XXXXXX")"
trap 'rm -rf "$BUILD_DIR"' EXIT
: >"$BUILD_LOG"

say "building toxiproxy v$VERSION from the Go module proxy: a minute or two on 2 cores, once per machine"
say "($GO_VERSION; target $DIR; full build log: $BUILD_LOG)"
GO_BUILD_PROGRESS_SECONDS="${TOXIPROXY_BUILD_PROGRESS_SECONDS:-15}" go_install toxiproxy "$BUILD_DIR" "$BUILD_LOG" "$MODULE/cmd/server@v$VERSION"
[ -x "$BUILD_DIR/server" ] || die "go install succeeded but produced no $BUILD_DIR/server." "remove $DIR and retry."
"$BUILD_DIR/server" -version >/dev/null 2>&1 || die "the freshly built toxiproxy server does not run." "remove $DIR and retry."

# Publish: the binary by an atomic rename (same filesystem), the stamp last.
rm -f "$DIR/STAMP"
mv -f "$BUILD_DIR/server" "$DIR/toxiproxy-server"
echo "$STAMP" >"$DIR/STAMP"
say "toxiproxy v$VERSION is ready ($(packages_built "$BUILD_LOG") packages compiled): $DIR"
found
