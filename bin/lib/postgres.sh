#!/usr/bin/env bash
# bin/lib/postgres.sh — a project-owned PostgreSQL cluster in <project>/.data/<name> (no system service).
#
# Usage:
#   bin/lib/postgres.sh start  <name> <port> [<db>]   initialise .data/<name> if needed, start it on
#                                                     127.0.0.1:<port> unless running, create <db> if missing
#   bin/lib/postgres.sh stop   <name> [--force]       stop it (fast mode) if running; refused while a runner uses it
#   bin/lib/postgres.sh release <name> <pid>          runner <pid> is done with it: stop it if no other runner of
#                                                     this checkout uses it and a runner started it (else leave it up)
#   bin/lib/postgres.sh status <name>                 print its state; exit 0 if running, 3 if not
#   bin/lib/postgres.sh url    <name> <port> <db>     print postgresql://payments:<secret>@127.0.0.1:<port>/<db>
#   bin/lib/postgres.sh standby <name> <port> <primary> [sync|async]
#                                                     make .data/<name> a streaming-replication standby of the running
#                                                     cluster <primary> (pg_basebackup -R -X stream), start it on <port>;
#                                                     sync (default): <primary> commits only once <name> has the WAL
#   bin/lib/postgres.sh promote <name>                a running standby becomes a primary (pg_ctl promote), alone
#   bin/lib/postgres.sh fence  <name>                 stop it at once (immediate) if running, and leave standby.signal in
#                                                     its data so that a later start comes up read-only, never as a primary
#   bin/lib/postgres.sh remove <name>                 stop it at once and delete its data, socket, log and password
# e.g. dev:   bin/lib/postgres.sh start postgres 55432 payments
#      tests: bin/lib/postgres.sh start postgres-test 55433 payments_test
# With PG_RUNNER_PID=<pid>, `start` records that runner <pid> (npm start's, start:cluster's) uses the cluster
# (bin/lib/pg-runners.sh, files in .data/<name>.runners/): the runners share one server, and the last one to stop
# stops it, if a runner started it; a server started by hand is left running.
#
# Superuser "payments", UTF8, listening on 127.0.0.1 only; the Unix socket sits in .data/<name>.sock and the
# server log in .data/<name>.log. Password authentication (scram-sha-256, TCP and socket alike): the secret is
# generated into .data/<name>.password (mode 600) and `url` prints it in the URL. A cluster made by an earlier
# version with trust authentication gets its password and is switched over in place at its next start.
# Logs leave out statements and DETAIL (a constraint violation's DETAIL names the row's values, account
# numbers included) and are readable by their owner only. Binaries: the newest /usr/lib/postgresql/*/bin
# (Debian's versioned folder, off PATH), else pg_ctl on PATH. PostgreSQL refuses to run as root, so as root
# initdb/pg_ctl run as the system user "postgres" (created if missing), which then owns .data/<name> and
# .data/<name>.sock; the rest of .data stays root's. If "postgres" cannot reach .data (a project under
# /root, say), the cluster lives in /var/tmp/payments-service-pg/<hash>/ with a symlink at .data/<name>.
# Safe to repeat; concurrent calls for the same <name> are serialised with flock.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
DATA="$ROOT/.data"
DB_USER=payments
PG_OS_USER=postgres
RESETTABLE=0
PASSWORD=""       # the cluster's secret once known (empty: a trust cluster not yet switched over)
# Given on the command line at every start, so that no configuration file can weaken them.
SERVER_SETTINGS="-c listen_addresses=127.0.0.1 -c password_encryption=scram-sha-256 -c log_error_verbosity=terse -c log_min_error_statement=panic -c log_file_mode=0600"

# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"

usage() {
  cat >&2 <<USAGE
usage: $0 start  <name> <port> [<db>]       (PG_RUNNER_PID=<pid>: a runner uses it)
       $0 stop   <name> [--force]
       $0 release <name> <pid>
       $0 status <name>
       $0 url    <name> <port> <db>
       $0 standby <name> <port> <primary> [sync|async]
       $0 promote <name>
       $0 fence  <name>
       $0 remove <name>
  e.g. $0 start postgres 55432 payments
USAGE
  exit 2
}

check_name() { [[ "$1" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "bad cluster name '$1'." "use letters, digits, '.', '_' or '-' (e.g. postgres, postgres-test)."; }
check_port() { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1024 ] && [ "$1" -le 65535 ] || die "bad port '$1'." "use a port between 1024 and 65535 (e.g. 55432)."; }
check_db()   { [[ "$1" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "bad database name '$1'." "use letters, digits and '_' (e.g. payments, payments_test)."; }

secret_file() { echo "$DATA/$1.password"; }

ensure_secret() { # the cluster's password, generated once (hex: safe in a URL as it is)
  local file; file="$(secret_file "$1")"
  if [ ! -s "$file" ]; then
    mkdir -p "$DATA"
    (umask 077 && od -An -tx1 -N24 /dev/urandom | tr -d ' \n' > "$file.tmp.$$" && mv -f "$file.tmp.$$" "$file")
  fi
  chmod 600 "$file"
}

read_secret() {
  local file; file="$(secret_file "$1")"
  [ -s "$file" ] || die "the password of PostgreSQL '$1' ($file) is missing." \
    "if the cluster exists, its password is lost with that file: remove $DATA/$1 (this deletes its data) and run '$0 start $1 <port>' again;" \
    "otherwise start it first: $0 start $1 <port>"
  tr -d '\n' < "$file"
}

trusts() { # the cluster's pg_hba.conf still lets someone in without a password (made by an earlier version)
  grep -qE '^[[:space:]]*[^#[:space:]].*[[:space:]](trust|peer|ident)([[:space:]]|$)' "$CLUSTER/pg_hba.conf" 2>/dev/null
}

write_hba() { # password for everyone, over the socket and TCP alike
  local tmp="$CLUSTER/pg_hba.conf.tmp.$$"
  cat > "$tmp" <<HBA
# Written by bin/lib/postgres.sh: password (scram-sha-256) authentication only.
# TYPE  DATABASE  USER  ADDRESS       METHOD
local   all       all                 scram-sha-256
host    all       all   127.0.0.1/32  scram-sha-256
host    all       all   ::1/128       scram-sha-256
HBA
  chmod 600 "$tmp"
  [ "$AS_ROOT" -eq 1 ] && chown "$PG_OS_USER:" "$tmp"
  mv -f "$tmp" "$CLUSTER/pg_hba.conf"
}

# A trust cluster of an earlier version, now running on <port>: give the user the password (still let in
# without one), require it from now on, and restart so that the logging settings apply too.
upgrade_to_password() {
  local name="$1" port="$2"
  say "PostgreSQL '$name' was made with trust authentication by an earlier version: switching it to a password (kept in $(secret_file "$name"))"
  ensure_secret "$name"
  printf "ALTER ROLE %s PASSWORD '%s';\n" "$DB_USER" "$(read_secret "$name")" |
    PGCONNECT_TIMEOUT=10 "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U "$DB_USER" -d postgres >/dev/null ||
    die "could not set the password of '$DB_USER' on PostgreSQL '$name'." "see $LOG; or remove $DATA/$name (this deletes its data) to start afresh."
  write_hba
  as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER" -m fast -w -t 60 restart -o "-p $port -k '$SOCK' $SERVER_SETTINGS" -l "$LOG" >/dev/null 2>&1 ||
    die "PostgreSQL '$name' did not restart after the switch to a password." "see $LOG."
}

find_pg_bin() {
  local d best=""
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/pg_ctl" ] && [ -x "$d/initdb" ] || continue
    best="$(printf '%s\n%s\n' "$best" "$d" | sed '/^$/d' | sort -V | tail -n 1)"
  done
  if [ -z "$best" ] && command -v pg_ctl >/dev/null 2>&1; then
    best="$(dirname "$(readlink -f "$(command -v pg_ctl)")")"
  fi
  [ -n "$best" ] && [ -x "$best/initdb" ] && [ -x "$best/pg_ctl" ] ||
    die "no PostgreSQL server binaries (pg_ctl, initdb) found in /usr/lib/postgresql/*/bin or on PATH." \
        "install PostgreSQL server (apt-get install postgresql) or set DATABASE_URL"
  PG_BIN="$best"
}

# ---- running the server binaries as a non-root user ----------------------------------------------------
setup_identity() {
  if [ "$(id -u)" -ne 0 ]; then AS_ROOT=0; return; fi
  AS_ROOT=1
  if ! id -u "$PG_OS_USER" >/dev/null 2>&1; then
    command -v useradd >/dev/null 2>&1 ||
      die "running as root, PostgreSQL needs a non-root user '$PG_OS_USER', and useradd is missing to create it." \
          "create a user named $PG_OS_USER (or run this as a non-root user)."
    say "creating system user '$PG_OS_USER' (PostgreSQL refuses to run as root)"
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$PG_OS_USER" 2>/dev/null ||
      id -u "$PG_OS_USER" >/dev/null 2>&1 ||      # created concurrently by someone else
      die "useradd $PG_OS_USER failed." "create a user named $PG_OS_USER by hand."
  fi
}

as_pg() { # run a command as the cluster's OS user, from / (the caller's cwd may be unreadable for it).
  # fd 9 (our lock) is closed for it: a server started here must not keep the lock held for its lifetime.
  if [ "$AS_ROOT" -eq 0 ]; then (cd / && "$@") 9>&-; return; fi
  if command -v runuser >/dev/null 2>&1; then
    (cd / && runuser -u "$PG_OS_USER" -- "$@") 9>&-
  else
    local cmd; cmd="$(printf '%q ' "$@")"
    (cd / && su -s /bin/sh "$PG_OS_USER" -c "$cmd") 9>&-
  fi
}

# Work out where the cluster, socket and log live. Sets CLUSTER, SOCK, LOG.
locate() {
  local name="$1" base
  mkdir -p "$DATA"
  base="$DATA"
  if [ -L "$DATA/$name" ]; then                       # relocated earlier (see below)
    base="$(dirname "$(readlink "$DATA/$name")")"
  elif [ "$AS_ROOT" -eq 1 ] && ! as_pg test -x "$DATA"; then
    # user postgres cannot reach the project folder (e.g. it is under /root): keep the cluster in a
    # folder it can reach, linked from .data/<name>.
    base="/var/tmp/payments-service-pg/$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)"
    # .data/<name> was deleted (a reset) but the relocated cluster is still there: drop it too,
    # unless its server still runs.
    if [ -f "$base/$name/PG_VERSION" ] && [ "$RESETTABLE" -eq 1 ]; then
      CLUSTER="$base/$name"
      if pg_status; then
        say "note: .data/$name is gone but its relocated cluster $CLUSTER still runs; reusing it"
      else
        say ".data/$name was removed: removing its relocated cluster $CLUSTER too"
        rm -rf "${base:?}/$name" "$base/$name.log"
      fi
    fi
  fi
  CLUSTER="$base/$name"
  SOCK="$base/$name.sock"
  LOG="$base/$name.log"
  # Unix socket paths are limited to 107 bytes: use a short folder under /tmp if ours is too long.
  if [ "${#SOCK}" -gt 85 ]; then
    SOCK="/tmp/payments-pg-$(printf '%s' "$CLUSTER" | cksum | cut -d' ' -f1)"
  fi
}

prepare_dirs() { # as root: socket dir and log owned by postgres, cluster folder too; .data stays root's
  local name="$1" base
  base="$(dirname "$CLUSTER")"
  if [ "$base" != "$DATA" ]; then
    mkdir -p "$base"; chmod 755 "$base" "$(dirname "$base")" 2>/dev/null || true
    ln -sfn "$CLUSTER" "$DATA/$name.tmp.$$" && mv -fT "$DATA/$name.tmp.$$" "$DATA/$name"
    ln -sfn "$LOG" "$DATA/$name.log.tmp.$$" && mv -fT "$DATA/$name.log.tmp.$$" "$DATA/$name.log"
  fi
  mkdir -p "$SOCK"
  [ -e "$LOG" ] || (umask 077 && : > "$LOG")
  chmod 600 "$LOG"      # it may hold what a query failed on: its owner only
  if [ "$AS_ROOT" -eq 1 ]; then
    chown "$PG_OS_USER:" "$SOCK" "$LOG"
    if [ -d "$CLUSTER" ] && [ "$(stat -c %U "$CLUSTER")" != "$PG_OS_USER" ]; then
      say "giving $CLUSTER to user $PG_OS_USER"
      chown -R "$PG_OS_USER:" "$CLUSTER"
    fi
  fi
  chmod 755 "$SOCK"
}

is_initialised() { [ -f "$CLUSTER/PG_VERSION" ]; }

pg_status() { # 0 running, 3 not running, 4 no cluster
  is_initialised || return 4
  local rc=0
  as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER" status >/dev/null 2>&1 || rc=$?
  return "$rc"
}

running_port() { sed -n '4p' "$CLUSTER/postmaster.pid" 2>/dev/null || true; }

pick_locale() {
  if locale -a 2>/dev/null | grep -qixE 'c\.utf-?8'; then echo C.UTF-8; else echo C; fi
}

init_cluster() {
  local name="$1" tmp
  tmp="$CLUSTER.init.$$"
  rm -rf "$tmp"; mkdir -p "$tmp"; chmod 700 "$tmp"
  [ "$AS_ROOT" -eq 1 ] && chown "$PG_OS_USER:" "$tmp"
  ensure_secret "$name"
  # initdb reads the password from a file: a copy only the server's user can read, removed right after.
  (umask 077 && read_secret "$name" > "$tmp.pw")
  [ "$AS_ROOT" -eq 1 ] && chown "$PG_OS_USER:" "$tmp.pw"
  # --auth: password for local (socket) and host connections alike, replication included.
  say "initialising a PostgreSQL $("$PG_BIN/pg_ctl" --version | awk '{print $3}') cluster in $CLUSTER (password in $(secret_file "$name"))"
  if ! as_pg "$PG_BIN/initdb" -D "$tmp" --auth=scram-sha-256 --pwfile="$tmp.pw" -U "$DB_USER" -E UTF8 --locale="$(pick_locale)" >"$tmp.log" 2>&1; then
    sed 's/^/[setup]   | /' "$tmp.log" >&2
    rm -rf "$tmp" "$tmp.log" "$tmp.pw"
    die "initdb failed (its output is above)." "fix the cause, remove $CLUSTER if it exists, and run this again."
  fi
  rm -f "$tmp.log" "$tmp.pw"
  # Publish atomically: an interrupted initdb never leaves a half-made .data/<name>.
  if ! mv -T "$tmp" "$CLUSTER" 2>/dev/null; then
    rm -rf "$tmp"
    is_initialised || die "could not move the new cluster to $CLUSTER (a non-empty folder without PG_VERSION is in the way)." \
                          "remove $CLUSTER (it is not a complete cluster) and run this again."
  fi
}

db_exists() {
  local out
  out="$(printf "SELECT 1 FROM pg_database WHERE datname = :'db';\n" |
         PGPASSWORD="$PASSWORD" PGCONNECT_TIMEOUT=10 "$PG_BIN/psql" -X -q -tA -v ON_ERROR_STOP=1 -v db="$2" \
           -h 127.0.0.1 -p "$1" -U "$DB_USER" -d postgres)" || return 2
  [ "$out" = 1 ]
}

ensure_db() {
  local port="$1" db="$2" rc=0
  db_exists "$port" "$db" || rc=$?
  [ "$rc" -eq 2 ] && die "cannot query the server on 127.0.0.1:$port as $DB_USER." "see $LOG; is another server on port $port?"
  [ "$rc" -eq 0 ] && return 0
  say "creating database $db"
  if ! PGPASSWORD="$PASSWORD" PGCONNECT_TIMEOUT=10 "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U "$DB_USER" "$db" 2>"$DATA/.createdb.$$.err"; then
    if db_exists "$port" "$db"; then rm -f "$DATA/.createdb.$$.err"; return 0; fi    # made concurrently
    sed 's/^/[setup]   | /' "$DATA/.createdb.$$.err" >&2; rm -f "$DATA/.createdb.$$.err"
    die "createdb $db failed (output above)." "check $LOG."
  fi
  rm -f "$DATA/.createdb.$$.err"
}

lock() { # serialise start/stop of one cluster
  mkdir -p "$DATA"
  exec 9>"$DATA/.$1.lock"
  if command -v flock >/dev/null 2>&1; then flock -w 120 9 || die "timed out waiting for another postgres.sh on $1." "check for a hung postgres.sh process."; fi
}

port_holder() { # "pid N: command line" of whatever listens on 127.0.0.1:<port>, if ss can tell
  local pid
  command -v ss >/dev/null 2>&1 || return 0
  pid="$(ss -Hltnp "sport = :$1" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1)"
  [ -n "$pid" ] || return 0
  printf 'pid %s: %s' "$pid" "$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)"
}

cmd_start() {
  local name="$1" port="$2" db="${3:-}" rc=0 cur holder
  check_name "$name"; check_port "$port"; [ -z "$db" ] || check_db "$db"
  find_pg_bin; setup_identity; lock "$name"; RESETTABLE=1 locate "$name"; prepare_dirs "$name"
  is_initialised || init_cluster "$name"
  prepare_dirs "$name"
  trusts || PASSWORD="$(read_secret "$name")"
  pg_status || rc=$?
  if [ "$rc" -eq 0 ]; then
    cur="$(running_port)"
    [ "$cur" = "$port" ] ||
      die "cluster $name is already running on port ${cur:-?}, not $port." "stop it first: $0 stop $name"
    say "PostgreSQL '$name' already running on 127.0.0.1:$port"
    [ -z "${PG_RUNNER_PID:-}" ] || runners take "$name" "$PG_RUNNER_PID" running
  else
    say "starting PostgreSQL '$name' on 127.0.0.1:$port (log: $DATA/$name.log)"
    if ! as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER" \
          -o "-p $port -k '$SOCK' $SERVER_SETTINGS" \
          -l "$LOG" -w -t 60 start >/dev/null 2>"$DATA/.pg_ctl.$$.err"; then
      sed 's/^/[setup]   | /' "$DATA/.pg_ctl.$$.err" >&2; rm -f "$DATA/.pg_ctl.$$.err"
      tail -n 15 "$LOG" | sed 's/^/[setup]   log | /' >&2
      holder="$(port_holder "$port")"
      if [ -n "$holder" ]; then
        die "PostgreSQL '$name' did not start: port $port is taken by: $holder" \
            "stop that program (another clone's cluster: <that clone>/bin/lib/postgres.sh stop <name>), or use another port."
      fi
      die "PostgreSQL '$name' did not start on port $port (log above: $DATA/$name.log)." \
          "see the log."
    fi
    rm -f "$DATA/.pg_ctl.$$.err"
    if [ -n "${PG_RUNNER_PID:-}" ]; then runners take "$name" "$PG_RUNNER_PID" started; else runners hand-started "$name"; fi
  fi
  if trusts; then upgrade_to_password "$name" "$port"; PASSWORD="$(read_secret "$name")"; fi
  [ -z "$db" ] || ensure_db "$port" "$db"
}

runners() { # bin/lib/pg-runners.sh <command> on this cluster's runner files (called with the lock held)
  local sub="$1" name="$2"; shift 2
  bash "$ROOT/bin/lib/pg-runners.sh" "$sub" "$DATA/$name.runners" "$@"
}

cmd_stop() {
  local name="$1" force="${2:-}" rc=0 users
  check_name "$name"
  [ -z "$force" ] || [ "$force" = --force ] || usage
  find_pg_bin; setup_identity; lock "$name"; locate "$name"
  users="$(runners live "$name" | tr '\n' ' ')"
  if [ -n "$users" ] && [ -z "$force" ]; then
    die "PostgreSQL '$name' is in use by runner pid ${users% } (npm start or start:cluster of this checkout)." \
        "stop those first (Ctrl-C in their terminals): the last one stops it; or: $0 stop $name --force"
  fi
  stop_server "$name"
}

cmd_release() {
  local name="$1" pid="$2" verdict
  check_name "$name"
  [[ "$pid" =~ ^[0-9]+$ ]] || usage
  find_pg_bin; setup_identity; lock "$name"; locate "$name"
  verdict="$(runners release "$name" "$pid")"
  if [ "$verdict" = stop ]; then stop_server "$name"; else say "leaving PostgreSQL '$name' running: ${verdict#keep }"; fi
}

stop_server() { # with the lock held
  local name="$1" rc=0
  pg_status || rc=$?
  case "$rc" in
    0) say "stopping PostgreSQL '$name'"
       as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER" -m fast -w -t 60 stop >/dev/null ||
         die "pg_ctl stop failed for $CLUSTER." "see $DATA/$name.log" ;;
    4) say "PostgreSQL '$name' is not initialised ($DATA/$name); nothing to stop" ;;
    *) say "PostgreSQL '$name' is not running" ;;
  esac
}

cmd_status() {
  local name="$1" rc=0
  check_name "$name"
  find_pg_bin; setup_identity; locate "$name"
  pg_status || rc=$?
  case "$rc" in
    0) echo "running on 127.0.0.1:$(running_port) (data $CLUSTER)"; exit 0 ;;
    4) echo "not initialised ($DATA/$name)"; exit 3 ;;
    *) echo "not running (data $CLUSTER)"; exit 3 ;;
  esac
}

cmd_url() {
  check_name "$1"; check_port "$2"; check_db "$3"
  echo "postgresql://$DB_USER:$(read_secret "$1")@127.0.0.1:$2/$3"
}

# ---- a standby, its promotion, fencing (docs/production.md "Failing over to a standby") -------------------
psql_on() { # <port> <sql>: as the superuser, on the cluster whose secret is $PASSWORD
  PGPASSWORD="$PASSWORD" PGCONNECT_TIMEOUT=10 "$PG_BIN/psql" -X -q -tA -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -U "$DB_USER" -d postgres -c "$2"
}

cmd_standby() {
  local name="$1" port="$2" primary="$3" mode="${4:-sync}" pcluster pport tmp i state
  check_name "$name"; check_port "$port"; check_name "$primary"
  [ "$mode" = sync ] || [ "$mode" = async ] || usage
  [ "$name" != "$primary" ] || die "a standby needs a name of its own." "e.g. $0 standby $primary-standby <port> $primary"
  find_pg_bin; setup_identity
  locate "$primary"; pcluster="$CLUSTER"
  pg_status || die "the primary '$primary' is not running." "start it first: $0 start $primary <port>"
  pport="$(running_port)"
  PASSWORD="$(read_secret "$primary")"
  # initdb's pg_hba.conf lets replication in with the password; one rewritten by write_hba (a former trust cluster) does not.
  if ! grep -qE '^[[:space:]]*host[[:space:]]+replication[[:space:]]' "$pcluster/pg_hba.conf"; then
    echo "host    replication $DB_USER 127.0.0.1/32  scram-sha-256" >> "$pcluster/pg_hba.conf"
    psql_on "$pport" 'select pg_reload_conf()' >/dev/null
  fi
  lock "$name"; RESETTABLE=1 locate "$name"; prepare_dirs "$name"
  is_initialised && die "'$name' already has data ($CLUSTER)." "remove it first (this deletes it): $0 remove $name"
  # A physical copy: the same roles, so the same password.
  mkdir -p "$DATA"; (umask 077 && cp "$(secret_file "$primary")" "$(secret_file "$name")")
  tmp="$CLUSTER.init.$$"
  rm -rf "$tmp"; mkdir -p "$tmp"; chmod 700 "$tmp"
  (umask 077 && printf '127.0.0.1:%s:*:%s:%s\n' "$pport" "$DB_USER" "$PASSWORD" > "$tmp.pass")
  [ "$AS_ROOT" -eq 1 ] && chown "$PG_OS_USER:" "$tmp" "$tmp.pass"
  say "copying PostgreSQL '$primary' (127.0.0.1:$pport) into $CLUSTER (pg_basebackup -R -X stream)"
  if ! as_pg env PGPASSFILE="$tmp.pass" "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$pport" -U "$DB_USER" -D "$tmp" -R -X stream -c fast >"$tmp.log" 2>&1; then
    sed 's/^/[setup]   | /' "$tmp.log" >&2; rm -rf "$tmp" "$tmp.log" "$tmp.pass"
    die "pg_basebackup from '$primary' failed (output above)." "see $DATA/$primary.log"
  fi
  rm -f "$tmp.log" "$tmp.pass"
  # -R wrote standby.signal and a primary_conninfo naming the password file just removed: this one names the
  # standby (application_name, what synchronous_standby_names matches) and carries the password (the file is 600).
  printf "primary_conninfo = 'host=127.0.0.1 port=%s user=%s password=%s application_name=%s'\n" "$pport" "$DB_USER" "$PASSWORD" "$name" >> "$tmp/postgresql.auto.conf"
  mv -T "$tmp" "$CLUSTER"
  exec 9>&-
  cmd_start "$name" "$port"
  if [ "$mode" = sync ]; then
    # synchronous_commit stays on (the default): a commit on the primary returns once this standby has flushed it.
    psql_on "$pport" "alter system set synchronous_standby_names = '\"$name\"'" >/dev/null
  else
    psql_on "$pport" 'alter system reset synchronous_standby_names' >/dev/null
  fi
  psql_on "$pport" 'select pg_reload_conf()' >/dev/null
  for i in $(seq 1 120); do
    state="$(psql_on "$pport" "select sync_state from pg_stat_replication where application_name = '$name' and state = 'streaming'")" || true
    if { [ "$mode" = sync ] && [ "$state" = sync ]; } || { [ "$mode" = async ] && [ "$state" = async ]; }; then
      say "PostgreSQL '$name' on 127.0.0.1:$port streams from '$primary' ($state)"
      return 0
    fi
    sleep 0.5
  done
  die "PostgreSQL '$name' is not streaming from '$primary' as a $mode standby after 60 s." "see $DATA/$name.log and $DATA/$primary.log"
}

cmd_promote() {
  local name="$1" port
  check_name "$name"
  find_pg_bin; setup_identity; lock "$name"; locate "$name"
  pg_status || die "'$name' is not running." "start it: $0 start $name <port>"
  port="$(running_port)"
  PASSWORD="$(read_secret "$name")"
  [ -f "$CLUSTER/standby.signal" ] || { say "PostgreSQL '$name' is already a primary"; return 0; }
  as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER" -w -t 60 promote >/dev/null || die "pg_ctl promote failed for $CLUSTER." "see $DATA/$name.log"
  # Alone now: a commit must not wait for a standby it has not got (a copy of an old primary's setting would).
  psql_on "$port" 'alter system reset synchronous_standby_names' >/dev/null
  psql_on "$port" 'select pg_reload_conf()' >/dev/null
  say "PostgreSQL '$name' on 127.0.0.1:$port is a primary"
}

cmd_fence() {
  local name="$1" rc=0
  check_name "$name"
  find_pg_bin; setup_identity; lock "$name"; locate "$name"
  pg_status || rc=$?
  [ "$rc" -ne 4 ] || { say "PostgreSQL '$name' is not initialised; nothing to fence"; return 0; }
  if [ "$rc" -eq 0 ]; then
    say "stopping PostgreSQL '$name' (immediate)"
    as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER" -m immediate -w -t 60 stop >/dev/null || die "pg_ctl stop failed for $CLUSTER." "see $DATA/$name.log"
  fi
  # Its timeline is left behind: started again it recovers as a read-only standby and takes no writes.
  as_pg touch "$CLUSTER/standby.signal"
  say "PostgreSQL '$name' is fenced: stopped, and read-only if started again (rebuild it as a standby: $0 remove $name, then $0 standby)"
}

cmd_remove() {
  local name="$1" rc=0 users
  check_name "$name"
  find_pg_bin; setup_identity; lock "$name"; locate "$name"
  users="$(runners live "$name" | tr '\n' ' ')"
  [ -z "$users" ] || die "PostgreSQL '$name' is in use by runner pid ${users% }." "stop those first."
  pg_status || rc=$?
  [ "$rc" -ne 0 ] || as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER" -m immediate -w -t 60 stop >/dev/null || true
  rm -rf "${CLUSTER:?}" "$SOCK" "$LOG" "$DATA/$name" "$DATA/$name.log" "$(secret_file "$name")" "$DATA/$name.runners"
  say "removed PostgreSQL '$name'"
}


# Sourced (bin/pg-backup): its functions only, no command.
if [ "${BASH_SOURCE[0]}" != "$0" ]; then return 0; fi
[ $# -ge 1 ] || usage
sub="$1"; shift
case "$sub" in
  start)  [ $# -eq 2 ] || [ $# -eq 3 ] || usage; cmd_start "$@" ;;
  stop)   [ $# -eq 1 ] || [ $# -eq 2 ] || usage; cmd_stop "$@" ;;
  release) [ $# -eq 2 ] || usage; cmd_release "$@" ;;
  status) [ $# -eq 1 ] || usage; cmd_status "$@" ;;
  url)    [ $# -eq 3 ] || usage; cmd_url "$@" ;;
  standby) [ $# -eq 3 ] || [ $# -eq 4 ] || usage; cmd_standby "$@" ;;
  promote) [ $# -eq 1 ] || usage; cmd_promote "$@" ;;
  fence)  [ $# -eq 1 ] || usage; cmd_fence "$@" ;;
  remove) [ $# -eq 1 ] || usage; cmd_remove "$@" ;;
  -h|--help|help) usage ;;
  *) echo "[setup] error: unknown subcommand '$sub'" >&2; usage ;;
esac
