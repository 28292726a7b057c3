#!/usr/bin/env bash
# bin/lib/haproxy.sh — prints the absolute path of an HAProxy binary (and nothing else) on stdout, for the load
# balancer in front of the API replicas of `npm run start:cluster` (bin/cluster).
#
# Usage: HAPROXY="$(bin/lib/haproxy.sh)"
#
# Order:
#   1. $HAPROXY_PATH, if set (must be an executable file);
#   2. `haproxy` on PATH (Debian puts it in /usr/sbin, also looked at);
#   3. Debian's package, installed once per machine with `apt-get install haproxy`: directly as root, through
#      sudo otherwise (it may ask for your password). apt-get's output goes to $TOOLS_CACHE/haproxy/apt-get.log.
#      Debian's package also enables a system service; it is stopped and disabled at once (the cluster runs
#      its own HAProxy with its own configuration).
#      TOOLS_CACHE=${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}
# Progress and errors go to stderr, prefixed with [setup].
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
TOOLS_CACHE="${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}"
LOG_DIR="$TOOLS_CACHE/haproxy"
LOG="$LOG_DIR/apt-get.log"
HOW="install HAProxy yourself (Debian/Ubuntu: apt-get install haproxy) or set HAPROXY_PATH=/path/to/haproxy."

# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"

on_path() {
  local p
  if p="$(PATH="$PATH:/usr/sbin:/usr/local/sbin" command -v haproxy 2>/dev/null)" && [ -x "$p" ]; then abspath "$p"; return 0; fi
  return 1
}

# 1. explicit override
if [ -n "${HAPROXY_PATH:-}" ]; then
  [ -f "$HAPROXY_PATH" ] && [ -x "$HAPROXY_PATH" ] ||
    die "HAPROXY_PATH=$HAPROXY_PATH is not an executable file." "point it at an haproxy binary, or unset it to use/install Debian's."
  abspath "$HAPROXY_PATH"; exit 0
fi

# 2. already installed
if on_path; then exit 0; fi

# 3. install Debian's package
command -v apt-get >/dev/null 2>&1 || die "HAProxy is not installed (the cluster needs it) and there is no apt-get to install it with." "$HOW"
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 ||
    die "HAProxy is not installed (the cluster needs it); installing it needs root, and sudo is missing." "$HOW"
  # Without a terminal nobody can answer a password prompt: sudo must then succeed without one or fail at once.
  if tty -s; then SUDO=(sudo); else SUDO=(sudo -n); fi
fi

mkdir -p "$LOG_DIR"
# One install at a time per machine (apt-get would fail on dpkg's lock); whoever waits re-checks.
exec 9>"$LOG_DIR/.install.lock"
if command -v flock >/dev/null 2>&1; then
  if ! flock -n 9; then say "another process is installing HAProxy; waiting for it…"; flock 9; fi
fi
if on_path; then exit 0; fi

say "installing HAProxy for the cluster: Debian's package with ${SUDO[*]:-}${SUDO[*]:+ }apt-get (a few MB, once per machine; log: $LOG)…"
: > "$LOG"
apt() { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" >>"$LOG" 2>&1 9>&-; }
if ! { apt update && apt install -y -q --no-install-recommends haproxy; }; then
  tail -n 15 "$LOG" | sed 's/^/[setup]   | /' >&2
  die "installing HAProxy with ${SUDO[*]:-}${SUDO[*]:+ }apt-get failed (last lines of $LOG above)." "$HOW"
fi
# The package's own service (on port 80 with /etc/haproxy) is not ours: stopped and kept from starting at boot.
if command -v systemctl >/dev/null 2>&1; then "${SUDO[@]}" systemctl disable --now haproxy >>"$LOG" 2>&1 || true; fi
if command -v service >/dev/null 2>&1; then "${SUDO[@]}" service haproxy stop >>"$LOG" 2>&1 || true; fi
on_path || die "apt-get installed haproxy, but no haproxy is on PATH or in /usr/sbin." "$HOW"
