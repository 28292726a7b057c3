#!/usr/bin/env bash
# bin/lib/tethered.sh — runs a command that must not outlive the process that started it.
#
# Usage: bin/lib/tethered.sh <pid-file> <command> [args…]      with stdin: the lifeline (see below)
#
# The starter (src/dev/up.ts) gives this script a pipe as stdin and never writes to it. However the starter
# ends (Ctrl-C, SIGKILL, a lost terminal), the kernel closes its end and the pipe reads end-of-file here:
# the command is then stopped (SIGTERM, SIGKILL 10 s later). Linux's PR_SET_PDEATHSIG would do the same
# for a direct child but needs native code; this needs only bash.
# The command runs in this script's process group with stdin from /dev/null. SIGINT and SIGTERM sent to
# this script are passed on to it (both as SIGTERM); the exit status is the command's. While it runs,
# <pid-file> holds "<pid> <start time>" of the command, so that a later start can recognise a leftover.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 <pid-file> <command> [args…]" >&2; exit 2; }
pid_file="$1"; shift

exec 3<&0 0</dev/null
"$@" 3<&- &
child=$!

start_time() { # field 22 of /proc/<pid>/stat: with the pid, it names one process for good
  local stat; stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 0
  # shellcheck disable=SC2086
  set -- ${stat##*) }
  echo "${20}"
}
printf '%s %s\n' "$child" "$(start_time "$child")" > "$pid_file.tmp.$$" && mv -f "$pid_file.tmp.$$" "$pid_file"

# The watchdog: blocks reading the lifeline until end-of-file, i.e. until the starter is gone.
(
  while IFS= read -r _ <&3; do :; done
  kill -TERM "$child" 2>/dev/null || exit 0
  for _ in $(seq 1 50); do kill -0 "$child" 2>/dev/null || exit 0; sleep 0.2; done
  kill -KILL "$child" 2>/dev/null
) &
watchdog=$!
exec 3<&-

# An asynchronous command of a non-interactive shell starts with SIGINT ignored: pass Ctrl-C on as SIGTERM.
trap 'kill -TERM "$child" 2>/dev/null' INT
trap 'kill -TERM "$child" 2>/dev/null' TERM
# wait returns early when a trapped signal arrives: wait again until the command has really ended.
while kill -0 "$child" 2>/dev/null; do wait "$child"; done
wait "$child"; status=$?
kill "$watchdog" 2>/dev/null
rm -f "$pid_file"
exit "$status"
