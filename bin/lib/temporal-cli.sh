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
# shellcheck source=go-build.sh
source "$ROOT/bin/lib/go-build.sh"

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

OTHERWISE=("or install the Temporal CLI and put 'temporal' on PATH, or set TEMPORAL_CLI=/path/to/temporal.")
require_go "$GO_MIN_MINOR" "the Temporal CLI v$CLI_VERSION" "${OTHERWISE[@]}"
take_build_lock "temporal-cli-$CLI_VERSION" "the Temporal CLI v$CLI_VERSION"
if [ -x "$CLI_BIN" ]; then found "$CLI_BIN"; fi

BUILD_LOG="$CLI_DIR/build.log"
mkdir -p "$CLI_DIR"
: >"$BUILD_LOG"
say "building Temporal CLI v$CLI_VERSION from the Go module proxy: a few minutes on 2 cores, once per machine"
say "($GO_VERSION; target $CLI_BIN; full build log: $BUILD_LOG)"
BUILD_DIR="$(mktemp -d "$TOOLS_CACHE/.temporal-cli-$CLI_VERSION.build.XXXXXX")"
trap 'rm -rf "$BUILD_DIR"' EXIT
# About 1,400 packages: all of them in the build log, a progress line now and then on the terminal.
GO_BUILD_PROGRESS_SECONDS="${TEMPORAL_BUILD_PROGRESS_SECONDS:-15}" \
  go_install "temporal CLI" "$BUILD_DIR" "$BUILD_LOG" "github.com/temporalio/cli/cmd/temporal@v$CLI_VERSION"
[ -x "$BUILD_DIR/temporal" ] || die "go install succeeded but produced no $BUILD_DIR/temporal." "report this; set TEMPORAL_CLI meanwhile."
"$BUILD_DIR/temporal" --version >/dev/null 2>&1 ||
  die "the freshly built $BUILD_DIR/temporal does not run." "remove $TOOLS_CACHE and retry."
mv -f "$BUILD_DIR/temporal" "$CLI_BIN"    # same filesystem: an atomic rename, never a half-written file
say "Temporal CLI v$CLI_VERSION is ready ($(packages_built "$BUILD_LOG") packages compiled): $CLI_BIN"
found "$CLI_BIN"
