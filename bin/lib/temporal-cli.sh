#!/usr/bin/env bash
# bin/lib/temporal-cli.sh — prints the absolute path of a `temporal` CLI binary (and nothing else) on stdout.
#
# Usage: bin/lib/temporal-cli.sh
#   TEMPORAL=$(bin/lib/temporal-cli.sh)
#
# Order:
#   1. $TEMPORAL_CLI, if set (must be an executable file);
#   2. `temporal` on PATH;
#   3. $TOOLS_CACHE/temporal-cli-1.5.1/temporal, built once per machine from the Go module proxy with
#      `go install github.com/temporalio/cli/cmd/temporal@v1.5.1` (needs Go >= 1.25; minutes on 2 cores).
#      Its output (every package compiled) goes to $TOOLS_CACHE/temporal-cli-1.5.1/build.log; stderr gets a
#      progress line every TEMPORAL_BUILD_PROGRESS_SECONDS (15) seconds.
#      TOOLS_CACHE=${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}
# The result is also symlinked to <project>/.tools/bin/temporal.
# Progress and errors go to stderr, prefixed with [setup].
set -euo pipefail

CLI_VERSION=1.5.1
GO_MIN_MINOR=25   # Go 1.25
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
TOOLS_CACHE="${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}"
CLI_DIR="$TOOLS_CACHE/temporal-cli-$CLI_VERSION"
CLI_BIN="$CLI_DIR/temporal"

# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"

found() { link_into_tools temporal "$1"; echo "$1"; exit 0; }

# 1. explicit override
if [ -n "${TEMPORAL_CLI:-}" ]; then
  [ -f "$TEMPORAL_CLI" ] && [ -x "$TEMPORAL_CLI" ] ||
    die "TEMPORAL_CLI=$TEMPORAL_CLI is not an executable file." \
        "point TEMPORAL_CLI at a temporal CLI binary, or unset it to use/build the default one."
  found "$(abspath "$TEMPORAL_CLI")"
fi

# 2. temporal on PATH (but not our own .tools/bin symlink, which would hide a missing cache build)
if p="$(command -v temporal 2>/dev/null)" && [ -n "$p" ] && [ -x "$p" ] &&
   [ "$(abspath "$p")" != "$ROOT/.tools/bin/temporal" ]; then
  found "$(abspath "$p")"
fi

# 3. machine-wide cache, built if missing
if [ -x "$CLI_BIN" ]; then found "$CLI_BIN"; fi

command -v go >/dev/null 2>&1 ||
  die "no temporal CLI found and Go is not installed to build one." \
      "install Go >= 1.$GO_MIN_MINOR (https://go.dev/dl; Debian 12's golang-go is 1.19, too old) and put it on PATH," \
      "or install the Temporal CLI and put 'temporal' on PATH, or set TEMPORAL_CLI=/path/to/temporal."
go_ver="$(go version 2>/dev/null | awk '{print $3}')"            # e.g. go1.26.8, go1.25rc1
go_minor="$(echo "$go_ver" | sed -E -n 's/^go1\.([0-9]+).*/\1/p')"
if [ -z "$go_minor" ] || [ "$go_minor" -lt "$GO_MIN_MINOR" ]; then
  die "building the Temporal CLI v$CLI_VERSION needs Go >= 1.$GO_MIN_MINOR, but 'go version' says '${go_ver:-nothing}'." \
      "install Go >= 1.$GO_MIN_MINOR and put it first on PATH (with Go 1.21-1.24: export GOTOOLCHAIN=go1.$GO_MIN_MINOR.0 fetches it via the module proxy)," \
      "or install the Temporal CLI and put 'temporal' on PATH, or set TEMPORAL_CLI=/path/to/temporal."
fi

mkdir -p "$TOOLS_CACHE"
# One build at a time per machine; whoever waits re-checks and reuses the finished binary.
exec 9>"$TOOLS_CACHE/.temporal-cli-$CLI_VERSION.lock"
if command -v flock >/dev/null 2>&1; then
  if ! flock -n 9; then
    say "another process is building the Temporal CLI v$CLI_VERSION; waiting for it…"
    flock 9
  fi
fi
if [ -x "$CLI_BIN" ]; then found "$CLI_BIN"; fi

BUILD_LOG="$CLI_DIR/build.log"
mkdir -p "$CLI_DIR"
say "building Temporal CLI v$CLI_VERSION from the Go module proxy: a few minutes on 2 cores, once per machine"
say "($go_ver; target $CLI_BIN; full build log: $BUILD_LOG)"
BUILD_DIR="$(mktemp -d "$TOOLS_CACHE/.temporal-cli-$CLI_VERSION.build.XXXXXX")"
trap 'rm -rf "$BUILD_DIR"' EXIT
start=$SECONDS
# -mod=mod: take the module's own go.mod as is. `go install -v` names every package it compiles (about
# 1,400): all of it goes to the build log, and the terminal gets a progress line every PROGRESS_S seconds.
# go runs in the background so that an interrupt stops it at once (a foreground child would delay our traps).
PROGRESS_S="${TEMPORAL_BUILD_PROGRESS_SECONDS:-15}"
GOBIN="$BUILD_DIR" GOFLAGS=-mod=mod go install -v "github.com/temporalio/cli/cmd/temporal@v$CLI_VERSION" >"$BUILD_LOG" 2>&1 9>&- &
go_pid=$!
trap 'kill -TERM "$go_pid" 2>/dev/null; wait "$go_pid" 2>/dev/null; exit 130' INT
trap 'kill -TERM "$go_pid" 2>/dev/null; wait "$go_pid" 2>/dev/null; exit 143' TERM
packages_built() { awk '!/^go: / { n++ } END { print n + 0 }' "$BUILD_LOG"; }
next_report=$((SECONDS + PROGRESS_S))
while kill -0 "$go_pid" 2>/dev/null; do
  sleep 1
  if [ "$SECONDS" -ge "$next_report" ] && kill -0 "$go_pid" 2>/dev/null; then
    say "temporal CLI build: $((SECONDS - start)) s: $(packages_built) packages built so far…"
    next_report=$((SECONDS + PROGRESS_S))
  fi
done
if ! wait "$go_pid"; then
  tail -n 20 "$BUILD_LOG" | sed 's/^/[setup]   | /' >&2
  die "'go install github.com/temporalio/cli/cmd/temporal@v$CLI_VERSION' failed after $((SECONDS - start)) s (last lines above; full log: $BUILD_LOG)." \
      "check access to the Go module proxy (go env GOPROXY) and Go >= 1.$GO_MIN_MINOR, then run this again;" \
      "or install the Temporal CLI yourself and set TEMPORAL_CLI=/path/to/temporal."
fi
trap - INT TERM
[ -x "$BUILD_DIR/temporal" ] || die "go install succeeded but produced no $BUILD_DIR/temporal." "report this; set TEMPORAL_CLI meanwhile."
"$BUILD_DIR/temporal" --version >/dev/null 2>&1 ||
  die "the freshly built $BUILD_DIR/temporal does not run." "remove $TOOLS_CACHE and retry."
mv -f "$BUILD_DIR/temporal" "$CLI_BIN"    # same filesystem: an atomic rename, never a half-written file
say "built Temporal CLI v$CLI_VERSION in $((SECONDS - start)) s ($(packages_built) packages): $CLI_BIN"
found "$CLI_BIN"
