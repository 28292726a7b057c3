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

command -v go >/dev/null 2>&1 ||
  die "toxiproxy is not built yet and Go is not installed to build it." \
      "install Go >= 1.$GO_MIN_MINOR (https://go.dev/dl; Debian 12's golang-go is 1.19, too old) and put it on PATH."
go_ver="$(go version 2>/dev/null | awk '{print $3}')"
go_minor="$(echo "$go_ver" | sed -E -n 's/^go1\.([0-9]+).*/\1/p')"
if [ -z "$go_minor" ] || [ "$go_minor" -lt "$GO_MIN_MINOR" ]; then
  die "building toxiproxy v$VERSION needs Go >= 1.$GO_MIN_MINOR, but 'go version' says '${go_ver:-nothing}'." \
      "install Go >= 1.$GO_MIN_MINOR and put it first on PATH."
fi

mkdir -p "$TOOLS_CACHE"
exec 9>"$TOOLS_CACHE/.toxiproxy-$VERSION.lock"
if command -v flock >/dev/null 2>&1; then
  if ! flock -n 9; then
    say "another process is building toxiproxy v$VERSION; waiting for it…"
    flock 9
  fi
fi
if built; then found; fi

mkdir -p "$DIR"
BUILD_LOG="$DIR/build.log"
BUILD_DIR="$(mktemp -d "$TOOLS_CACHE/.toxiproxy-$VERSION.build.XXXXXX")"
trap 'rm -rf "$BUILD_DIR"' EXIT
: >"$BUILD_LOG"
PROGRESS_S="${TOXIPROXY_BUILD_PROGRESS_SECONDS:-15}"
packages_built() { awk '!/^go: / && !/^# / { n++ } END { print n + 0 }' "$BUILD_LOG"; }

say "building toxiproxy v$VERSION from the Go module proxy: a minute or two on 2 cores, once per machine"
say "($go_ver; target $DIR; full build log: $BUILD_LOG)"
start=$SECONDS
# -mod=mod: the module's own go.mod as is (GOFLAGS replaced, not extended, like the Temporal builds). go runs in
# the background so that an interrupt stops it at once (a foreground child would delay our traps).
GOBIN="$BUILD_DIR" GOFLAGS=-mod=mod go install -v "$MODULE/cmd/server@v$VERSION" >>"$BUILD_LOG" 2>&1 9>&- &
go_pid=$!
trap 'kill -TERM "$go_pid" 2>/dev/null; wait "$go_pid" 2>/dev/null; exit 130' INT
trap 'kill -TERM "$go_pid" 2>/dev/null; wait "$go_pid" 2>/dev/null; exit 143' TERM
next_report=$((SECONDS + PROGRESS_S))
while kill -0 "$go_pid" 2>/dev/null; do
  sleep 1
  if [ "$SECONDS" -ge "$next_report" ] && kill -0 "$go_pid" 2>/dev/null; then
    say "toxiproxy build: $((SECONDS - start)) s: $(packages_built) packages built so far…"
    next_report=$((SECONDS + PROGRESS_S))
  fi
done
if ! wait "$go_pid"; then
  tail -n 20 "$BUILD_LOG" | sed 's/^/[setup]   | /' >&2
  die "'go install $MODULE/cmd/server@v$VERSION' failed after $((SECONDS - start)) s (last lines above; full log: $BUILD_LOG)." \
      "check access to the Go module proxy (go env GOPROXY) and Go >= 1.$GO_MIN_MINOR, then run this again."
fi
trap - INT TERM
[ -x "$BUILD_DIR/server" ] || die "go install succeeded but produced no $BUILD_DIR/server." "remove $DIR and retry."
"$BUILD_DIR/server" -version >/dev/null 2>&1 || die "the freshly built toxiproxy server does not run." "remove $DIR and retry."

# Publish: the binary by an atomic rename (same filesystem), the stamp last.
rm -f "$DIR/STAMP"
mv -f "$BUILD_DIR/server" "$DIR/toxiproxy-server"
echo "$STAMP" >"$DIR/STAMP"
say "built toxiproxy v$VERSION in $((SECONDS - start)) s ($(packages_built) packages): $DIR"
found
