#!/usr/bin/env bash
# bin/lib/test-server.sh — prints the absolute path of an executable wrapper (and nothing else) on stdout that
# runs Temporal's Java time-skipping test server, io.temporal:temporal-test-server:1.31.0.
#
# Usage: bin/lib/test-server.sh
#   TS=$(bin/lib/test-server.sh); "$TS" 7234 [--enable-time-skipping]
# The Temporal TypeScript SDK starts it as `<path> <port>` (executable type 'existing-path') and kills it
# with SIGKILL; the wrapper therefore `exec`s java.
#
# Order: $TEMPORAL_TEST_SERVER if set (an executable file); else the cached wrapper
#   $TOOLS_CACHE/temporal-test-server-1.31.0/temporal-test-server, created once per machine from Maven Central
#   with `mvn dependency:build-classpath` (needs java and mvn).
#   TOOLS_CACHE=${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}
# The wrapper honours $TEMPORAL_TEST_SERVER_JAVA_OPTS (extra JVM options) at run time.
# The result is also symlinked to <project>/.tools/bin/temporal-test-server.
# Progress and errors go to stderr, prefixed with [setup].
set -euo pipefail

TS_VERSION=1.31.0
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
TOOLS_CACHE="${PAYMENTS_TOOLS_CACHE:-$HOME/.cache/payments-service}"
TS_DIR="$TOOLS_CACHE/temporal-test-server-$TS_VERSION"
WRAPPER="$TS_DIR/temporal-test-server"
SDK_WAIT_S=5      # the TypeScript SDK waits this long for the port
VERIFY_MAX_S=15

# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"

found() { link_into_tools temporal-test-server "$1"; echo "$1"; exit 0; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() { # a port nothing listens on right now (a small race is acceptable for a one-off check)
  local p
  for _ in $(seq 1 50); do
    p=$(( 20000 + (RANDOM * 32768 + RANDOM) % 30000 ))
    if ! port_open "$p"; then echo "$p"; return 0; fi
  done
  return 1
}

now_ms() { date +%s%3N; }

# run_until_listening <signal> <command…>: runs "<command…> <free port>" in the background, waits until the
# port accepts TCP connections (at most $VERIFY_MAX_S s), then sends <signal> and waits for the exit.
# Sets STARTUP_MS. Dies with the command's output if it exits early or never listens.
run_until_listening() {
  local sig="$1" port pid t0 log; shift
  port="$(free_port)" || die "found no free TCP port to test the server on." "free some ports in 20000-50000 and retry."
  log="$(mktemp)"
  t0="$(now_ms)"
  "$@" "$port" >"$log" 2>&1 9>&- &
  pid=$!
  while ! port_open "$port"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      sed 's/^/[setup]   | /' "$log" >&2; rm -f "$log"
      die "the Temporal test server exited before listening on port $port (its output is above)." \
          "check 'java -version' (Java 8+ needed), then remove $TS_DIR and run this again."
    fi
    if [ $(( $(now_ms) - t0 )) -gt $(( VERIFY_MAX_S * 1000 )) ]; then
      kill -KILL "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
      sed 's/^/[setup]   | /' "$log" >&2; rm -f "$log"
      die "the Temporal test server did not listen on port $port within $VERIFY_MAX_S s." \
          "check java and machine load, then remove $TS_DIR and run this again."
    fi
    sleep 0.05
  done
  STARTUP_MS=$(( $(now_ms) - t0 ))
  kill "-$sig" "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$log"
}

# 1. explicit override
if [ -n "${TEMPORAL_TEST_SERVER:-}" ]; then
  [ -f "$TEMPORAL_TEST_SERVER" ] && [ -x "$TEMPORAL_TEST_SERVER" ] ||
    die "TEMPORAL_TEST_SERVER=$TEMPORAL_TEST_SERVER is not an executable file." \
        "point it at an executable that runs the test server as '<path> <port>', or unset it."
  found "$(abspath "$TEMPORAL_TEST_SERVER")"
fi

# 2. cached wrapper, as long as every jar it names is still there (the jars live in Maven's local
#    repository, ~/.m2 by default, which users sometimes clean)
cache_ok() {
  [ -x "$WRAPPER" ] && [ -s "$TS_DIR/classpath.txt" ] || return 1
  local jar
  while IFS= read -r -d: jar || [ -n "$jar" ]; do
    [ -f "$jar" ] || { say "cached test server wrapper is stale ($jar is gone): rebuilding"; return 1; }
  done < <(tr -d '\n' < "$TS_DIR/classpath.txt")
}
if cache_ok; then found "$WRAPPER"; fi

# 3. build it
command -v java >/dev/null 2>&1 ||
  die "java is not installed; the Temporal time-skipping test server is a Java program." \
      "install Java 8+ (apt-get install openjdk-17-jre-headless), or set TEMPORAL_TEST_SERVER=/path/to/server."
command -v mvn >/dev/null 2>&1 ||
  die "mvn (Apache Maven) is not installed; it fetches io.temporal:temporal-test-server:$TS_VERSION from Maven Central." \
      "install Maven (apt-get install maven), or set TEMPORAL_TEST_SERVER=/path/to/server."

mkdir -p "$TS_DIR"
exec 9>"$TS_DIR/.build.lock"
if command -v flock >/dev/null 2>&1; then
  if ! flock -n 9; then say "another process is preparing the Temporal test server; waiting for it…"; flock 9; fi
fi
if cache_ok; then found "$WRAPPER"; fi

say "preparing the Temporal time-skipping test server $TS_VERSION with Maven: about 40 MB from Maven Central, a minute or so, once per machine (full log: $TS_DIR/mvn.log)…"
start=$SECONDS
cat > "$TS_DIR/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by bin/lib/test-server.sh: only used to resolve the test server's classpath. -->
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local</groupId>
  <artifactId>test-server-classpath</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>$TS_VERSION</version>
    </dependency>
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-dependency-plugin</artifactId>
          <version>3.8.1</version>
        </plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
POM
rm -f "$TS_DIR/classpath.txt"
# Full Maven output goes to mvn.log; stderr gets a download counter, errors and the BUILD line.
set +e
(cd "$TS_DIR" && mvn -B -f pom.xml dependency:resolve dependency:build-classpath \
   -Dmdep.outputFile=classpath.txt -Dmdep.includeScope=runtime) 2>&1 | tee "$TS_DIR/mvn.log" |
  awk '/^\[INFO\] Downloaded from/ { n++; if (n % 25 == 0) { printf "[setup] mvn: %d files downloaded…\n", n; fflush() } next }
       /^\[ERROR\]|BUILD (SUCCESS|FAILURE)/ { sub(/^\[INFO\] /, ""); printf "[setup] mvn: %s%s\n", $0, (n ? " (" n " files downloaded)" : ""); fflush() }' >&2
mvn_rc=${PIPESTATUS[0]}
set -e
if [ "$mvn_rc" -ne 0 ] || [ ! -s "$TS_DIR/classpath.txt" ]; then
  tail -n 30 "$TS_DIR/mvn.log" | sed 's/^/[setup]   | /' >&2
  die "Maven failed to resolve io.temporal:temporal-test-server:$TS_VERSION (last lines of $TS_DIR/mvn.log above)." \
      "check access to Maven Central (and ~/.m2/settings.xml mirrors/proxies), then run this again."
fi
classpath="$(cat "$TS_DIR/classpath.txt")"
case "$classpath" in *temporal-test-server-$TS_VERSION.jar*) ;; *)
  die "the resolved classpath lacks temporal-test-server-$TS_VERSION.jar." "remove $TS_DIR and run this again." ;;
esac

tmp_wrapper="$(mktemp "$TS_DIR/.temporal-test-server.XXXXXX")"
tmp_jsa="$TS_DIR/.cds.$$.jsa"
trap 'rm -f "$tmp_wrapper" "$tmp_jsa"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
JSA="$TS_DIR/temporal-test-server.jsa"
{
  echo '#!/usr/bin/env bash'
  echo "# Generated by bin/lib/test-server.sh: Temporal time-skipping test server $TS_VERSION."
  echo '# Usage: temporal-test-server <port> [--enable-time-skipping]'
  echo '# Uses the class-data-sharing archive made at install time when present (JVM start-up ~2.5x faster;'
  echo '# a stale archive, e.g. after a JDK upgrade, only costs a warning). exec, so that a SIGKILL sent'
  echo '# to this PID reaches the JVM itself.'
  printf 'jsa=%q\n' "$JSA"
  # shellcheck disable=SC2016
  echo 'cds=(); if [ -f "$jsa" ]; then cds=(-Xshare:auto "-XX:SharedArchiveFile=$jsa"); fi'
  # shellcheck disable=SC2016
  printf 'exec java "${cds[@]}" ${TEMPORAL_TEST_SERVER_JAVA_OPTS:-} -cp %q io.temporal.testserver.TestServer "$@"\n' "$classpath"
} > "$tmp_wrapper"
chmod 755 "$tmp_wrapper"
say "classpath resolved in $((SECONDS - start)) s; checking that the server starts…"

# First start: also records the classes it loads into a CDS archive (JDK 13+; skipped quietly elsewhere).
rm -f "$JSA"
run_until_listening TERM java "-XX:ArchiveClassesAtExit=$tmp_jsa" -cp "$classpath" io.temporal.testserver.TestServer
plain_ms=$STARTUP_MS
if [ -s "$tmp_jsa" ]; then
  mv -f "$tmp_jsa" "$JSA"
else
  say "note: no class-data-sharing archive made (needs JDK 13+); start-up stays at ~$plain_ms ms"
fi
# Second start: through the wrapper, as the SDK does it (SIGKILL at the end).
run_until_listening KILL "$tmp_wrapper"
mv -f "$tmp_wrapper" "$WRAPPER"
say "JVM start-up until the port accepted connections: $STARTUP_MS ms through the wrapper (the SDK allows ${SDK_WAIT_S} s; first start, recording the archive: $plain_ms ms)"
if [ "$STARTUP_MS" -gt $(( SDK_WAIT_S * 1000 / 2 )) ]; then
  say "warning: that is close to or over the SDK's ${SDK_WAIT_S} s readiness window; on a loaded machine tests that let the SDK start"
  say "warning: this server may time out. Starting one server before the tests and sharing it avoids that."
fi
say "ready: $WRAPPER"
found "$WRAPPER"
