#!/usr/bin/env bash
# Runs a Temporal cluster without Docker: PostgreSQL from Debian's packages,
# Temporal v1.32.0 as four processes (frontend, history, matching, worker),
# and versitygw as the S3 store, all on loopback, all state in one folder.
#
#   cluster.sh up DIR              start everything not running (first run:
#                                  initdb, schemas, config, namespace, bucket)
#   cluster.sh down DIR            stop everything (the state stays in DIR)
#   cluster.sh start DIR SERVICE   start one service
#   cluster.sh stop DIR SERVICE    stop one service (SIGTERM, then wait)
#   cluster.sh kill DIR SERVICE    SIGKILL one service, as a crash would
#   cluster.sh pid DIR SERVICE     print the pid of a running service
#   cluster.sh status DIR          one line per service: running or stopped
#
# SERVICE is postgres, history, matching, frontend, worker or s3.
# DIR/cluster.env holds what workers and submit need (source it).
#
# Settings, read on the first `up` only and stored in DIR (change them by
# starting over in a new DIR):
#   QUARRY_CLUSTER_FREE_PORTS=1  pick free loopback ports instead of the
#                                standard ones (7233 frontend, 5432 PostgreSQL,
#                                7070 S3, ...); tests and benchmarks use it
#   TEMPORAL_HISTORY_SHARDS      history shard count (default 4; fixed for the
#                                life of the database)
#   TEMPORAL_NAMESPACE           namespace to create (default "default")
#   TEMPORAL_LOG_LEVEL           server log level (default warn)
#   QUARRY_S3_BUCKET             bucket to create (default "quarry")
#   QUARRY_PG_USER               OS user PostgreSQL runs as when this script
#                                runs as root (default nobody: PostgreSQL
#                                refuses to run as root)
# Binaries: temporal-cluster (scripts/cluster/build.sh) and versitygw
# (scripts/deps/versitygw.sh) in DIR/bin, on PATH or in $(go env GOPATH)/bin;
# PostgreSQL's initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin
# (scripts/deps/postgres.sh).
set -euo pipefail

SERVICES=(postgres history matching frontend worker s3)
TEMPORAL_SERVICES=(history matching frontend worker)
READY_TIMEOUT="${QUARRY_CLUSTER_READY_TIMEOUT:-120}"

die() {
	echo "cluster.sh: $*" >&2
	exit 1
}

usage() {
	sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# find_bin NAME: NAME in DIR/bin, on PATH or in $(go env GOPATH)/bin.
find_bin() {
	if [[ -x "$DIR/bin/$1" ]]; then
		echo "$DIR/bin/$1"
		return
	fi
	if command -v "$1" >/dev/null 2>&1; then
		command -v "$1"
		return
	fi
	local gobin
	gobin="$(go env GOPATH 2>/dev/null)/bin/$1"
	[[ -x "$gobin" ]] || die "$1 not found on PATH or in \$(go env GOPATH)/bin: $2"
	echo "$gobin"
}

# pg_bin NAME: a PostgreSQL program, from PATH or Debian's versioned folder.
pg_bin() {
	if command -v "$1" >/dev/null 2>&1; then
		command -v "$1"
		return
	fi
	local p
	p="$(ls -d /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1)"
	[[ -n "$p" ]] || die "PostgreSQL's $1 not found: run scripts/deps/postgres.sh"
	echo "$p"
}

# as_pg CMD...: runs CMD as the PostgreSQL OS user (itself unless root).
as_pg() {
	if [[ "$(id -u)" -eq 0 ]]; then
		setpriv --reuid="$PG_OS_USER" --regid="$(id -g "$PG_OS_USER")" --clear-groups -- "$@"
	else
		"$@"
	fi
}

# port_open PORT: whether something accepts connections on 127.0.0.1:PORT.
port_open() { (: </dev/tcp/127.0.0.1/"$1") 2>/dev/null; }

# wait_port NAME PORT PID: polls until PORT accepts connections; fails when
# PID exits first or READY_TIMEOUT passes.
wait_port() {
	local name="$1" port="$2" pid="$3" deadline=$((SECONDS + READY_TIMEOUT))
	until port_open "$port"; do
		kill -0 "$pid" 2>/dev/null || die "$name exited before serving on port $port; see $DIR/log/$name.log"
		((SECONDS < deadline)) || die "$name not serving on port $port after ${READY_TIMEOUT}s; see $DIR/log/$name.log"
		sleep 0.1
	done
}

# ports: the ports of the cluster, chosen on the first run.
init_ports() {
	[[ -f "$DIR/ports.env" ]] && return
	local names=(PG_PORT FRONTEND_PORT FRONTEND_HTTP_PORT HISTORY_PORT MATCHING_PORT WORKER_PORT
		FRONTEND_MEMBER_PORT HISTORY_MEMBER_PORT MATCHING_MEMBER_PORT WORKER_MEMBER_PORT S3_PORT)
	local values=(5432 7233 7243 7234 7235 7239 6933 6934 6935 6939 7070)
	if [[ "${QUARRY_CLUSTER_FREE_PORTS:-}" == 1 ]]; then
		mapfile -t values < <("$TEMPORAL" free-ports "${#names[@]}")
	fi
	local i
	for i in "${!names[@]}"; do
		echo "${names[$i]}=${values[$i]}"
	done >"$DIR/ports.env.tmp"
	mv "$DIR/ports.env.tmp" "$DIR/ports.env"
}

# secret FILE: a random secret kept in FILE (created on the first run).
secret() {
	if [[ ! -s "$1" ]]; then
		(umask 077 && head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$1.tmp" && mv "$1.tmp" "$1")
	fi
	cat "$1"
}

init_settings() {
	if [[ ! -f "$DIR/settings.env" ]]; then
		cat >"$DIR/settings.env.tmp" <<-EOF
			HISTORY_SHARDS=${TEMPORAL_HISTORY_SHARDS:-4}
			NAMESPACE=${TEMPORAL_NAMESPACE:-default}
			LOG_LEVEL=${TEMPORAL_LOG_LEVEL:-warn}
			BUCKET=${QUARRY_S3_BUCKET:-quarry}
			PG_OS_USER=${QUARRY_PG_USER:-nobody}
		EOF
		mv "$DIR/settings.env.tmp" "$DIR/settings.env"
	fi
	# shellcheck disable=SC1091
	source "$DIR/settings.env"
	# shellcheck disable=SC1091
	source "$DIR/ports.env"
	PG_PASSWORD="$(secret "$DIR/secrets/pg-password")"
	S3_SECRET="$(secret "$DIR/secrets/s3-secret")"
}

# setup CMD: the state of DIR; only `up` creates it, and the other commands
# on a folder without a cluster do nothing (down, status) or fail.
setup() {
	if [[ "$1" != up && ! -f "$DIR/settings.env" ]]; then
		case "$1" in
		down | status) echo "no cluster in $DIR" >&2 && exit 0 ;;
		*) die "no cluster in $DIR: run cluster.sh up $DIR first" ;;
		esac
	fi
	mkdir -p "$DIR"/{log,run,secrets,s3}
	DIR="$(cd "$DIR" && pwd)"
	if [[ "$1" == up || "$1" == start ]]; then
		TEMPORAL="$(find_bin temporal-cluster "run scripts/cluster/build.sh")"
	fi
	init_ports
	init_settings
}

# pid_of SERVICE: the pid of a running service, or nothing. A pid file can
# outlive its process and the pid be reused, so the process must also name
# DIR on its command line (every service is started with a path in DIR).
pid_of() {
	local f="$DIR/run/$1.pid" pid
	if [[ "$1" == postgres ]]; then
		f="$DIR/pg/data/postmaster.pid"
	fi
	[[ -s "$f" ]] || return 0
	pid="$(head -n 1 "$f")"
	[[ "$pid" =~ ^[0-9]+$ ]] || return 0
	if tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF "$DIR/"; then
		echo "$pid"
	fi
}

# spawn NAME CMD...: runs CMD in a session of its own, in the background,
# output appended to log/NAME.log, pid in run/NAME.pid.
spawn() {
	local name="$1"
	shift
	setsid "$@" >>"$DIR/log/$name.log" 2>&1 </dev/null &
	echo $! >"$DIR/run/$name.pid"
}

start_postgres() {
	[[ -n "$(pid_of postgres)" ]] && return
	local initdb pg_ctl
	initdb="$(pg_bin initdb)"
	pg_ctl="$(pg_bin pg_ctl)"
	mkdir -p "$DIR/pg/sock"
	if [[ "$(id -u)" -eq 0 ]]; then
		chmod 0755 "$DIR"
		chown -R "$PG_OS_USER:" "$DIR/pg"
		touch "$DIR/log/postgres.log"
		chown "$PG_OS_USER:" "$DIR/log/postgres.log"
		as_pg test -x "$DIR/pg" ||
			die "PostgreSQL's OS user $PG_OS_USER cannot reach $DIR/pg: put DIR under a folder every user may traverse (e.g. /var/lib or /tmp), or set QUARRY_PG_USER"
	fi
	if [[ ! -f "$DIR/pg/data/PG_VERSION" ]]; then
		local pw="$DIR/pg/initdb-password"
		(umask 077 && echo "$PG_PASSWORD" >"$pw")
		[[ "$(id -u)" -eq 0 ]] && chown "$PG_OS_USER:" "$pw"
		as_pg "$initdb" -D "$DIR/pg/data" -U temporal --pwfile="$pw" --auth=scram-sha-256 \
			-E UTF8 --locale=C >>"$DIR/log/postgres.log" 2>&1 ||
			die "initdb failed; see $DIR/log/postgres.log"
		rm -f "$pw"
	fi
	as_pg "$pg_ctl" -D "$DIR/pg/data" -l "$DIR/log/postgres.log" -w -t "$READY_TIMEOUT" \
		-o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT -c unix_socket_directories=$DIR/pg/sock -c max_connections=200" \
		start >/dev/null || die "PostgreSQL did not start; see $DIR/log/postgres.log"
}

# sql ARGS...: Temporal's SQL tool against this cluster's PostgreSQL.
sql() {
	"$TEMPORAL" sql --plugin postgres12 --ep 127.0.0.1 -p "$PG_PORT" -u temporal --pw "$PG_PASSWORD" "$@" \
		>>"$DIR/log/schema.log" 2>&1 || die "temporal sql $*: failed; see $DIR/log/schema.log"
}

# setup_schema: creates both databases on the first run; applies the
# versioned updates of the embedded schemas on every run (a no-op when
# current, an upgrade after a server upgrade).
setup_schema() {
	local db
	for db in temporal visibility; do
		local name="temporal" schema="postgresql/v12/temporal"
		if [[ "$db" == visibility ]]; then
			name="temporal_visibility" schema="postgresql/v12/visibility"
		fi
		if [[ ! -f "$DIR/pg/$db.created" ]]; then
			sql --db "$name" create-database
			sql --db "$name" setup-schema -v 0.0
			touch "$DIR/pg/$db.created"
		fi
		sql --db "$name" update-schema --schema-name "$schema"
	done
}

write_config() {
	cat >"$DIR/temporal.yaml.tmp" <<-EOF
		# Written by scripts/cluster/cluster.sh; the shard count is fixed for the
		# life of the database.
		log:
		  stdout: true
		  level: $LOG_LEVEL
		persistence:
		  defaultStore: default
		  visibilityStore: visibility
		  numHistoryShards: $HISTORY_SHARDS
		  datastores:
		    default:
		      sql:
		        pluginName: postgres12
		        databaseName: temporal
		        connectAddr: 127.0.0.1:$PG_PORT
		        connectProtocol: tcp
		        user: temporal
		        password: "$PG_PASSWORD"
		        maxConns: 20
		        maxIdleConns: 20
		        maxConnLifetime: 1h
		    visibility:
		      sql:
		        pluginName: postgres12
		        databaseName: temporal_visibility
		        connectAddr: 127.0.0.1:$PG_PORT
		        connectProtocol: tcp
		        user: temporal
		        password: "$PG_PASSWORD"
		        maxConns: 4
		        maxIdleConns: 4
		        maxConnLifetime: 1h
		global:
		  membership:
		    maxJoinDuration: 30s
		    broadcastAddress: 127.0.0.1
		services:
		  frontend:
		    rpc: {grpcPort: $FRONTEND_PORT, membershipPort: $FRONTEND_MEMBER_PORT, httpPort: $FRONTEND_HTTP_PORT, bindOnLocalHost: true}
		  history:
		    rpc: {grpcPort: $HISTORY_PORT, membershipPort: $HISTORY_MEMBER_PORT, bindOnLocalHost: true}
		  matching:
		    rpc: {grpcPort: $MATCHING_PORT, membershipPort: $MATCHING_MEMBER_PORT, bindOnLocalHost: true}
		  worker:
		    rpc: {grpcPort: $WORKER_PORT, membershipPort: $WORKER_MEMBER_PORT, bindOnLocalHost: true}
		clusterMetadata:
		  enableGlobalNamespace: false
		  failoverVersionIncrement: 10
		  masterClusterName: active
		  currentClusterName: active
		  clusterInformation:
		    active:
		      enabled: true
		      initialFailoverVersion: 1
		      rpcName: frontend
		      rpcAddress: 127.0.0.1:$FRONTEND_PORT
		dcRedirectionPolicy:
		  policy: noop
	EOF
	chmod 0600 "$DIR/temporal.yaml.tmp"
	mv "$DIR/temporal.yaml.tmp" "$DIR/temporal.yaml"
}

# port_of SERVICE: the gRPC (or S3) port a service serves on.
port_of() {
	case "$1" in
	history) echo "$HISTORY_PORT" ;;
	matching) echo "$MATCHING_PORT" ;;
	frontend) echo "$FRONTEND_PORT" ;;
	worker) echo "$WORKER_PORT" ;;
	s3) echo "$S3_PORT" ;;
	postgres) echo "$PG_PORT" ;;
	esac
}

start_temporal() {
	local svc="$1"
	[[ -n "$(pid_of "$svc")" ]] && return
	spawn "$svc" "$TEMPORAL" server --config-file "$DIR/temporal.yaml" --service "$svc"
	wait_port "$svc" "$(port_of "$svc")" "$(cat "$DIR/run/$svc.pid")"
}

start_s3() {
	[[ -n "$(pid_of s3)" ]] && return
	local vgw
	vgw="$(find_bin versitygw "run scripts/deps/versitygw.sh")"
	# versitygw's posix backend serves each top-level folder as a bucket.
	mkdir -p "$DIR/s3/$BUCKET"
	ROOT_ACCESS_KEY=quarry ROOT_SECRET_KEY="$S3_SECRET" VGW_REGION=us-east-1 \
		spawn s3 "$vgw" --port "127.0.0.1:$S3_PORT" --quiet --health /health posix "$DIR/s3"
	wait_port s3 "$S3_PORT" "$(cat "$DIR/run/s3.pid")"
}

write_env() {
	cat >"$DIR/cluster.env.tmp" <<-EOF
		# Written by scripts/cluster/cluster.sh: source it before worker and submit.
		export TEMPORAL_ADDRESS=127.0.0.1:$FRONTEND_PORT
		export TEMPORAL_NAMESPACE=$NAMESPACE
		export AWS_ENDPOINT_URL=http://127.0.0.1:$S3_PORT
		export AWS_ACCESS_KEY_ID=quarry
		export AWS_SECRET_ACCESS_KEY=$S3_SECRET
		export AWS_REGION=us-east-1
		export QUARRY_OUTPUT=s3://$BUCKET
	EOF
	chmod 0600 "$DIR/cluster.env.tmp"
	mv "$DIR/cluster.env.tmp" "$DIR/cluster.env"
}

start_one() {
	case "$1" in
	postgres) start_postgres ;;
	s3) start_s3 ;;
	history | matching | frontend | worker) start_temporal "$1" ;;
	*) die "unknown service \"$1\": want one of ${SERVICES[*]}" ;;
	esac
}

up() {
	start_postgres
	setup_schema
	write_config
	local svc
	for svc in "${TEMPORAL_SERVICES[@]}"; do
		start_temporal "$svc"
	done
	"$TEMPORAL" namespace --address "127.0.0.1:$FRONTEND_PORT" --namespace "$NAMESPACE" \
		--timeout "${READY_TIMEOUT}s" 2>>"$DIR/log/namespace.log" ||
		die "namespace $NAMESPACE not served; see $DIR/log/namespace.log and $DIR/log/frontend.log"
	start_s3
	write_env
	echo "cluster up: frontend 127.0.0.1:$FRONTEND_PORT, namespace $NAMESPACE, S3 http://127.0.0.1:$S3_PORT bucket $BUCKET; source $DIR/cluster.env"
}

# stop_one SERVICE SIGNAL: signals a service and waits until it is gone.
stop_one() {
	local svc="$1" sig="$2" pid deadline=$((SECONDS + READY_TIMEOUT))
	case " ${SERVICES[*]} " in *" $svc "*) ;; *) die "unknown service \"$svc\": want one of ${SERVICES[*]}" ;; esac
	pid="$(pid_of "$svc")"
	[[ -n "$pid" ]] || return 0
	if [[ "$svc" == postgres && "$sig" == TERM ]]; then
		as_pg "$(pg_bin pg_ctl)" -D "$DIR/pg/data" -m fast -w -t "$READY_TIMEOUT" stop >/dev/null
		return
	fi
	kill -s "$sig" "$pid" 2>/dev/null || true
	while kill -0 "$pid" 2>/dev/null; do
		((SECONDS < deadline)) || die "$svc (pid $pid) still running ${READY_TIMEOUT}s after SIG$sig"
		sleep 0.05
	done
}

down() {
	local svc
	for svc in s3 worker frontend matching history postgres; do
		stop_one "$svc" TERM
	done
}

status() {
	local svc pid
	for svc in "${SERVICES[@]}"; do
		pid="$(pid_of "$svc")"
		if [[ -n "$pid" ]]; then
			echo "$svc running pid $pid port $(port_of "$svc")"
		else
			echo "$svc stopped"
		fi
	done
}

[[ $# -ge 2 ]] || usage
cmd="$1"
DIR="$2"
shift 2
setup "$cmd"
case "$cmd" in
up) up ;;
down) down ;;
status) status ;;
start) [[ $# -eq 1 ]] || usage && start_one "$1" ;;
stop) [[ $# -eq 1 ]] || usage && stop_one "$1" TERM ;;
kill) [[ $# -eq 1 ]] || usage && stop_one "$1" KILL ;;
pid) [[ $# -eq 1 ]] || usage && pid_of "$1" ;;
*) usage ;;
esac
