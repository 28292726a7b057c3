# bin/lib/cluster-standby.sh — sourced by bin/cluster when PG_STANDBY=sync|async (docs/production.md "Failing over
# to a standby"): the project's PostgreSQL gets a streaming standby, and every client of the cluster (the APIs, the
# workers, the Temporal server) reaches PostgreSQL through the PostgreSQL front (HAProxy in TCP mode on
# 127.0.0.1:$PG_FRONT_PORT, 55440; src/dev/postgres-front.ts), which `npm run failover` moves to the standby.
# A pair of its own, not `npm start`'s server (a synchronous primary whose standby is stopped makes every commit
# wait): postgres-ha-1 on 127.0.0.1:55436 (PG_CLUSTER, PG_PORT) the primary, postgres-ha-2 on 127.0.0.1:55437
# (PG_STANDBY_PORT) its standby, at first. Which node is the primary is the front's state
# ($CLUSTER_DATA_DIR/postgres-front.json), once there: after a failover the former standby stays the primary, and
# the fenced former primary becomes the new standby once its data is removed (bin/lib/postgres.sh remove <name>;
# until then the cluster runs on the primary alone and says so).

FRONT_DIR="${CLUSTER_DATA_DIR:-$ROOT/.data/cluster}"
FRONT_STATE="$FRONT_DIR/postgres-front.json"
STANDBY_NAME=""
STANDBY_PORT=""

front_field() { node -e 'const f = require(process.argv[1]); const v = process.argv[2].split(".").reduce((o, k) => o?.[k], f); if (v !== undefined) console.log(v)' "$FRONT_STATE" "$1"; }

# Sets PG_CLUSTER and PG_PORT (the primary), STANDBY_NAME and STANDBY_PORT (empty: none), PG_FRONT_PORT.
standby_primary() {
  [ "$PG_STANDBY" = sync ] || [ "$PG_STANDBY" = async ] || die "PG_STANDBY='$PG_STANDBY'." "use PG_STANDBY=sync or PG_STANDBY=async."
  if [ -f "$FRONT_STATE" ]; then
    PG_CLUSTER="$(front_field primary.name)"; PG_PORT="$(front_field primary.port)"
    PG_FRONT_PORT="$(front_field port)"
    STANDBY_NAME="$(front_field standby.name)"; STANDBY_PORT="$(front_field standby.port)"
    if [ -z "$STANDBY_NAME" ]; then
      local fenced; fenced="$(front_field fenced.0.name)"
      if [ -n "$fenced" ] && [ ! -f "$ROOT/.data/$fenced/PG_VERSION" ]; then
        STANDBY_NAME="$fenced"; STANDBY_PORT="$(front_field fenced.0.port)"
      elif [ -n "$fenced" ]; then
        say "note: no standby: '$fenced' was fenced by the last failover; rebuild it as the standby with: bin/lib/postgres.sh remove $fenced (deletes its data), then start again"
      fi
    fi
  else
    PG_CLUSTER="${PG_CLUSTER:-postgres-ha-1}"; PG_PORT="${PG_PORT:-55436}"
    PG_FRONT_PORT="${PG_FRONT_PORT:-55440}"
    STANDBY_NAME="postgres-ha-2"; STANDBY_PORT="${PG_STANDBY_PORT:-55437}"
  fi
}

# After the primary is up and the Temporal schemas applied: the standby, the front's files, and DATABASE_URL and
# SQL_PORT pointing at the front. src/dev/cluster.ts starts the front (PG_FRONT_CONFIG) before anything uses it.
standby_attach() {
  local fenced_json="[]"
  if [ -n "$STANDBY_NAME" ]; then
    if [ -f "$ROOT/.data/$STANDBY_NAME/PG_VERSION" ]; then
      PG_RUNNER_PID=$$ bin/lib/postgres.sh start "$STANDBY_NAME" "$STANDBY_PORT"
    else
      PG_RUNNER_PID=$$ bin/lib/postgres.sh standby "$STANDBY_NAME" "$STANDBY_PORT" "$PG_CLUSTER" "$PG_STANDBY"
    fi
    export OWN_POSTGRES_STANDBY="$STANDBY_NAME"
  fi
  [ ! -f "$FRONT_STATE" ] || fenced_json="$(node -e 'const f = require(process.argv[1]); const s = process.argv[2]; console.log(JSON.stringify((f.fenced ?? []).filter((n) => n.name !== s)))' "$FRONT_STATE" "$STANDBY_NAME")"
  mkdir -p "$FRONT_DIR"
  node -e '
    const [dir, port, primary, primaryPort, standby, standbyPort, fenced] = process.argv.slice(1);
    require("./dist/src/dev/postgres-front.js").writePostgresFront(process.cwd(), dir, {
      port: Number(port), socket: `${dir}/postgres-front.sock`,
      primary: { name: primary, port: Number(primaryPort) },
      ...(standby ? { standby: { name: standby, port: Number(standbyPort) } } : {}),
      fenced: JSON.parse(fenced),
    });' "$FRONT_DIR" "$PG_FRONT_PORT" "$PG_CLUSTER" "$PG_PORT" "$STANDBY_NAME" "$STANDBY_PORT" "$fenced_json"
  DATABASE_URL="$(bin/lib/postgres.sh url "$PG_CLUSTER" "$PG_FRONT_PORT" payments_cluster)"
  SQL_PORT="$PG_FRONT_PORT"
  export DATABASE_URL SQL_PORT PG_FRONT_PORT PG_FRONT_CONFIG="$FRONT_DIR/postgres-front.cfg"
  say "PostgreSQL front on 127.0.0.1:$PG_FRONT_PORT → $PG_CLUSTER (127.0.0.1:$PG_PORT)${STANDBY_NAME:+; standby $STANDBY_NAME (127.0.0.1:$STANDBY_PORT, $PG_STANDBY)}"
}
