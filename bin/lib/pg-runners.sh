#!/usr/bin/env bash
# bin/lib/pg-runners.sh — which runners of this checkout (npm start, npm run start:cluster) use one project-owned
# PostgreSQL cluster, so that a runner that stops stops the server only when no other runner still uses it.
# bin/lib/postgres.sh calls it while it holds the cluster's lock; the unit test calls it directly.
#
# Usage:
#   pg-runners.sh take    <dir> <pid> started|running
#         runner <pid> uses the server; `started`: that runner's start started the server (runners own it and the last
#         of them stops it), `running`: it was running already (ownership unchanged)
#   pg-runners.sh hand-started <dir>
#         the server was just started without a runner (`postgres.sh start` by hand): no runner ever stops it
#   pg-runners.sh release <dir> <pid>
#         runner <pid> no longer uses it; prints `stop` when the server should stop now (no live runner is left and a
#         runner started it), else `keep <why>`
#   pg-runners.sh live    <dir>
#         the live runners' pids, one a line
#
# <dir> (bin/lib/postgres.sh: .data/<cluster>.runners/) holds one file per runner, named by its pid and holding
# "<pid> <start time>" (field 22 of /proc/<pid>/stat: a recycled pid is not mistaken for the runner), and the file
# `started-by-runner` while a runner's start started the server. Runners that are gone (SIGKILLed, say) are forgotten.
set -euo pipefail

usage() {
  echo "usage: $0 take <dir> <pid> started|running | hand-started <dir> | release <dir> <pid> | live <dir>" >&2
  exit 2
}

start_time() { # empty when the process is gone or a zombie
  local stat rest
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 0
  rest="${stat##*) }"
  # shellcheck disable=SC2086
  set -- $rest
  [ "$1" = Z ] || echo "${20}"
}

# Drops the files of runners that are gone; prints the live ones' pids.
live_runners() {
  local dir="$1" file pid start
  for file in "$dir"/*; do
    [ -f "$file" ] || continue
    pid="$(basename "$file")"
    [[ "$pid" =~ ^[0-9]+$ ]] || continue
    start="$(awk '{print $2}' "$file" 2>/dev/null || true)"
    if [ -n "$start" ] && [ "$(start_time "$pid")" = "$start" ]; then echo "$pid"; else rm -f "$file"; fi
  done
}

[ $# -ge 2 ] || usage
cmd="$1" dir="$2"
mkdir -p "$dir"
case "$cmd" in
  take)
    [ $# -eq 4 ] && [[ "$3" =~ ^[0-9]+$ ]] && [[ "$4" =~ ^(started|running)$ ]] || usage
    pid="$3"
    start="$(start_time "$pid")"
    [ -n "$start" ] || { echo "[setup] error: runner pid $pid is not running" >&2; exit 1; }
    live_runners "$dir" >/dev/null
    printf '%s %s\n' "$pid" "$start" > "$dir/$pid"
    [ "$4" = running ] || : > "$dir/started-by-runner"
    ;;
  hand-started)
    [ $# -eq 2 ] || usage
    rm -f "$dir/started-by-runner"
    ;;
  release)
    [ $# -eq 3 ] && [[ "$3" =~ ^[0-9]+$ ]] || usage
    rm -f "${dir:?}/$3"
    others="$(live_runners "$dir" | tr '\n' ' ')"
    if [ -n "$others" ]; then
      echo "keep still used by runner pid ${others% }"
    elif [ -f "$dir/started-by-runner" ]; then
      rm -f "$dir/started-by-runner"
      echo stop
    else
      echo "keep it was started outside npm start and start:cluster (bin/lib/postgres.sh start by hand?)"
    fi
    ;;
  live)
    [ $# -eq 2 ] || usage
    live_runners "$dir"
    ;;
  *) usage ;;
esac
