# Sourced by the bin/lib tool scripts: messages, errors and the .tools/bin links they share.
# Expects ROOT (the project root) to be set by the caller.

say() { echo "[setup] $*" >&2; }
die() { echo "[setup] error: $1" >&2; shift; for l in "$@"; do echo "[setup] fix: $l" >&2; done; exit 1; }

abspath() { # absolute path of an existing file, symlinks in the directory part resolved
  local d; d="$(cd "$(dirname "$1")" && pwd -P)"; echo "$d/$(basename "$1")"
}

link_into_tools() { # link_into_tools <name> <target>: atomic (re)creation of .tools/bin/<name> -> <target>
  local link="$ROOT/.tools/bin/$1" target="$2" tmp
  mkdir -p "$ROOT/.tools/bin"
  if [ "$(readlink "$link" 2>/dev/null || true)" = "$target" ]; then return 0; fi
  tmp="$link.tmp.$$"
  ln -sfn "$target" "$tmp"
  mv -fT "$tmp" "$link"
}
