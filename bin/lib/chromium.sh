#!/usr/bin/env bash
# bin/lib/chromium.sh — prints the absolute path of a Chromium binary (and nothing else) on stdout, for the
# browser test of the rendered API reference (test/browser; it reads CHROMIUM_PATH).
#
# Usage: CHROMIUM_PATH="$(bin/lib/chromium.sh)"
#
# Order:
#   1. $CHROMIUM_PATH, if set (must be an executable file);
#   2. `chromium` (Debian) or `chromium-browser` on PATH;
#   3. Debian's package, installed once per machine with `apt-get install chromium`: directly as root, through
#      sudo otherwise (it may ask for your password). apt-get's output goes to $TOOLS_CACHE/chromium/apt-get.log.
#      TOOLS_CACHE=${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}
# Progress and errors go to stderr, prefixed with [setup].
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
TOOLS_CACHE="${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}"
LOG_DIR="$TOOLS_CACHE/chromium"
LOG="$LOG_DIR/apt-get.log"
HOW="install Chromium yourself (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH=/path/to/chromium."

# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"

on_path() { # the first of the usual names on PATH
  local name p
  for name in chromium chromium-browser; do
    if p="$(command -v "$name" 2>/dev/null)" && [ -x "$p" ]; then abspath "$p"; return 0; fi
  done
  return 1
}

# 1. explicit override
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -f "$CHROMIUM_PATH" ] && [ -x "$CHROMIUM_PATH" ] ||
    die "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file." "point it at a chromium binary, or unset it to use/install Debian's."
  abspath "$CHROMIUM_PATH"; exit 0
fi

# 2. already installed
if on_path; then exit 0; fi

# 3. install Debian's package
command -v apt-get >/dev/null 2>&1 || die "Chromium is not installed (the browser test needs it) and there is no apt-get to install it with." "$HOW"
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 ||
    die "Chromium is not installed (the browser test needs it); installing it needs root, and sudo is missing." "$HOW"
  # Without a terminal nobody can answer a password prompt: sudo must then succeed without one or fail at once.
  if tty -s; then SUDO=(sudo); else SUDO=(sudo -n); fi
fi

mkdir -p "$LOG_DIR"
# One install at a time per machine (apt-get would fail on dpkg's lock); whoever waits re-checks.
exec 9>"$LOG_DIR/.install.lock"
if command -v flock >/dev/null 2>&1; then
  if ! flock -n 9; then say "another process is installing Chromium; waiting for it…"; flock 9; fi
fi
if on_path; then exit 0; fi

say "installing Chromium for the browser test: Debian's package with ${SUDO[*]:-}${SUDO[*]:+ }apt-get (~100 MB, a minute or two, once per machine; log: $LOG)…"
: > "$LOG"
apt() { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" >>"$LOG" 2>&1 9>&-; }
if ! { apt update && apt install -y -q --no-install-recommends chromium; }; then
  tail -n 15 "$LOG" | sed 's/^/[setup]   | /' >&2
  die "installing Chromium with ${SUDO[*]:-}${SUDO[*]:+ }apt-get failed (last lines of $LOG above)." "$HOW"
fi
on_path || die "apt-get installed chromium, but no chromium is on PATH." "$HOW"
