# Sourced by the bin/lib scripts that build a tool from the Go module proxy once per machine (the Temporal CLI,
# the Temporal server, toxiproxy): the Go version check, one build at a time per machine, and `go install` with
# its output in a build log and a progress line on stderr. Expects common.sh sourced and TOOLS_CACHE set.

# require_go <min minor> <what is built> [fix…]: Go 1.<min minor> or later on PATH, else stop saying how to get it.
require_go() {
  local min="$1" what="$2" go_ver go_minor; shift 2
  command -v go >/dev/null 2>&1 ||
    die "$what is not built yet and Go is not installed to build it." \
        "install Go >= 1.$min (https://go.dev/dl; Debian 12's golang-go is 1.19, too old) and put it on PATH." "$@"
  go_ver="$(go version 2>/dev/null | awk '{print $3}')" # e.g. go1.26.8, go1.25rc1
  go_minor="$(echo "$go_ver" | sed -E -n 's/^go1\.([0-9]+).*/\1/p')"
  if [ -z "$go_minor" ] || [ "$go_minor" -lt "$min" ]; then
    die "building $what needs Go >= 1.$min, but 'go version' says '${go_ver:-nothing}'." \
        "install Go >= 1.$min and put it first on PATH (with Go 1.21-1.24: export GOTOOLCHAIN=go1.$min.0 fetches it via the module proxy)." "$@"
  fi
  GO_VERSION="$go_ver"
}

# take_build_lock <name> <what>: one build of <name> at a time per machine (file descriptor 9 holds the lock
# until the script ends); whoever waited should check again for the finished build before building.
take_build_lock() {
  mkdir -p "$TOOLS_CACHE"
  exec 9>"$TOOLS_CACHE/.$1.lock"
  if command -v flock >/dev/null 2>&1; then
    if ! flock -n 9; then
      say "another process is building $2; waiting for it…"
      flock 9
    fi
  fi
}

# go_install <what> <gobin> <build log> <package@version>…: `go install -v` (each module's own go.mod as is:
# -mod=mod, GOFLAGS replaced rather than extended) in the background, so that an interrupt stops it at once; every
# compiled package goes to the build log, and stderr gets a progress line every GO_BUILD_PROGRESS_SECONDS (15).
# Stops the script, with the log's last lines, when the build fails.
go_install() {
  local what="$1" gobin="$2" log="$3" start=$SECONDS go_pid next_report progress="${GO_BUILD_PROGRESS_SECONDS:-15}"
  shift 3
  mkdir -p "$gobin"
  echo "== go install $*" >>"$log"
  GOBIN="$gobin" GOFLAGS=-mod=mod go install -v "$@" >>"$log" 2>&1 9>&- &
  go_pid=$!
  # shellcheck disable=SC2064 # the pid is meant to be fixed now
  trap "kill -TERM $go_pid 2>/dev/null; wait $go_pid 2>/dev/null; exit 130" INT
  # shellcheck disable=SC2064
  trap "kill -TERM $go_pid 2>/dev/null; wait $go_pid 2>/dev/null; exit 143" TERM
  next_report=$((SECONDS + progress))
  while kill -0 "$go_pid" 2>/dev/null; do
    sleep 1
    if [ "$SECONDS" -ge "$next_report" ] && kill -0 "$go_pid" 2>/dev/null; then
      say "$what build: $((SECONDS - start)) s: $(packages_built "$log") packages built so far…"
      next_report=$((SECONDS + progress))
    fi
  done
  if ! wait "$go_pid"; then
    tail -n 20 "$log" | sed 's/^/[setup]   | /' >&2
    die "'go install $*' failed after $((SECONDS - start)) s (last lines above; full log: $log)." \
        "check access to the Go module proxy (go env GOPROXY) and the Go version, then run this again."
  fi
  trap - INT TERM
  say "built $what in $((SECONDS - start)) s"
}

# packages_built <build log>: the packages `go install -v` has named so far.
packages_built() { awk '!/^go: / && !/^# / && !/^== / { n++ } END { print n + 0 }' "$1"; }
