#!/usr/bin/env bash
# bin/lib/schemathesis.sh — prints the absolute path of the schemathesis executable (and nothing else) on stdout.
#
# Order: `st` from $SCHEMATHESIS if set; else a virtualenv of its own, created once per machine from PyPI in
#   $TOOLS_CACHE/schemathesis-<version> (needs python3 ≥ 3.9 with venv).
#   TOOLS_CACHE=${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}
# The result is also symlinked to <project>/.tools/bin/schemathesis. Progress goes to stderr, prefixed [setup].
set -euo pipefail

ST_VERSION=4.32.5
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
TOOLS_CACHE="${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}"
VENV="$TOOLS_CACHE/schemathesis-$ST_VERSION"

# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"

if [ -n "${SCHEMATHESIS:-}" ]; then
  [ -x "$SCHEMATHESIS" ] || die "SCHEMATHESIS=$SCHEMATHESIS is not an executable file." "unset it, or point it at a schemathesis executable."
  link_into_tools schemathesis "$SCHEMATHESIS"; echo "$SCHEMATHESIS"; exit 0
fi
# .complete is written last: a half-made venv (an interrupted install) is rebuilt.
if [ -f "$VENV/.complete" ] && [ -x "$VENV/bin/schemathesis" ]; then
  link_into_tools schemathesis "$VENV/bin/schemathesis"; echo "$VENV/bin/schemathesis"; exit 0
fi

command -v python3 >/dev/null 2>&1 || die "python3 is missing (schemathesis is a Python tool)." "install Python 3.9 or newer, or set SCHEMATHESIS to an installed schemathesis."
say "installing schemathesis $ST_VERSION from PyPI into $VENV (once per machine, about a minute)…"
rm -rf "$VENV"
# A venv records its own path, so it is built where it stays.
python3 -m venv "$VENV" >&2 || die "python3 -m venv failed." "install the venv module (Debian: apt-get install python3-venv)."
"$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$ST_VERSION" >&2 ||
  { rm -rf "$VENV"; die "pip install schemathesis==$ST_VERSION failed (output above)." "check that PyPI is reachable."; }
touch "$VENV/.complete"
say "schemathesis $("$VENV/bin/schemathesis" --version 2>/dev/null | tail -n 1) ready"
link_into_tools schemathesis "$VENV/bin/schemathesis"
echo "$VENV/bin/schemathesis"
