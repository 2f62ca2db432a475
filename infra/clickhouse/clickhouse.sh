#!/usr/bin/env bash
# Starts a throwaway ClickHouse server (Debian's clickhouse-server, 18.16) on 127.0.0.1 with its
# data in a temp dir, for tests and local distributed runs.
#
#   clickhouse.sh start    install if missing, start if not running, wait for /ping, print the URL
#   clickhouse.sh stop     stop the server started here (by PID) and remove its data
#   clickhouse.sh down     stop the server started here (by PID), keep its data (fault tests)
#   clickhouse.sh up       start the server again on the data `down` kept
#   clickhouse.sh status   exit 0 and print the URL when it answers, exit 3 otherwise
#
# Env: CLICKHOUSE_HTTP_PORT (18123), CLICKHOUSE_TCP_PORT (19000),
#      CLICKHOUSE_STATE_DIR (${TMPDIR:-/tmp}/intel-clickhouse-<http port>),
#      CLICKHOUSE_START_TIMEOUT seconds (60).
set -euo pipefail

HTTP_PORT="${CLICKHOUSE_HTTP_PORT:-18123}"
TCP_PORT="${CLICKHOUSE_TCP_PORT:-19000}"
STATE_DIR="${CLICKHOUSE_STATE_DIR:-${TMPDIR:-/tmp}/intel-clickhouse-${HTTP_PORT}}"
TIMEOUT="${CLICKHOUSE_START_TIMEOUT:-60}"
PID_FILE="$STATE_DIR/clickhouse.pid"
CONFIG="$STATE_DIR/config.xml"
URL="http://127.0.0.1:${HTTP_PORT}"
USERS_XML=/etc/clickhouse-server/users.xml

NAME=clickhouse.sh
# shellcheck source=../lib/service.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/service.sh"
check_state_dir

pings() { [[ "$(curl -fsS --max-time 2 "$URL/ping" 2>/dev/null || true)" == Ok.* ]]; }

install_if_missing() {
  if command -v clickhouse-server >/dev/null 2>&1 && [[ -f "$USERS_XML" ]]; then return; fi
  log "installing clickhouse-server with apt-get"
  local sudo=""
  [[ "$(id -u)" == 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clickhouse-server clickhouse-client >&2
}

write_config() {
  mkdir -p "$STATE_DIR/data/" "$STATE_DIR/tmp/" "$STATE_DIR/user_files/" "$STATE_DIR/format_schemas/"
  cat >"$CONFIG" <<XML
<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>$STATE_DIR/server.log</log>
    <errorlog>$STATE_DIR/server.err.log</errorlog>
    <size>10M</size>
    <count>2</count>
  </logger>
  <http_port>$HTTP_PORT</http_port>
  <tcp_port>$TCP_PORT</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>$STATE_DIR/data/</path>
  <tmp_path>$STATE_DIR/tmp/</tmp_path>
  <user_files_path>$STATE_DIR/user_files/</user_files_path>
  <format_schema_path>$STATE_DIR/format_schemas/</format_schema_path>
  <users_config>$USERS_XML</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>
</yandex>
XML
}

start() {
  if pid_alive && pings; then
    log "already running (pid $(cat "$PID_FILE"))"
    echo "$URL"
    return 0
  fi
  if pings; then
    # a server we did not start answers on this port: use it, never stop it
    log "a server already answers on $URL (not started by this script)"
    echo "$URL"
    return 0
  fi
  install_if_missing
  if pid_alive; then kill "$(cat "$PID_FILE")" 2>/dev/null || true; sleep 1; fi
  rm -rf "$STATE_DIR"
  write_config
  launch "$SECONDS"
}

# runs the server on the state dir's config and waits for /ping
launch() {
  local started=$1
  # setsid: the server outlives the shell (and the test runner) that started it
  setsid clickhouse-server --config-file="$CONFIG" >>"$STATE_DIR/stdout.log" 2>&1 </dev/null 9>&- &
  echo $! >"$PID_FILE"
  while ! pings; do
    if ! pid_alive; then
      log "server exited during start; last log lines:"
      tail -n 30 "$STATE_DIR/stdout.log" "$STATE_DIR/server.err.log" >&2 2>/dev/null || true
      return 1
    fi
    if ((SECONDS - started > TIMEOUT)); then
      log "no /ping answer after ${TIMEOUT}s"
      halt || true
      return 1
    fi
    sleep 0.2
  done
  log "started pid $(cat "$PID_FILE") in $((SECONDS - started))s on $URL"
  echo "$URL"
}

up() {
  if pid_alive && pings; then
    log "already running (pid $(cat "$PID_FILE"))"
    echo "$URL"
    return 0
  fi
  [[ -f "$CONFIG" && -d "$STATE_DIR/data" ]] || { log "no server state in $STATE_DIR to start again (use start)"; return 1; }
  launch "$SECONDS"
}

status() {
  if pings; then
    echo "$URL"
    return 0
  fi
  return 3
}

mkdir -p "$(dirname "$STATE_DIR")"
LOCK="$(dirname "$STATE_DIR")/.intel-clickhouse-${HTTP_PORT}.lock"
case "${1:-}" in
  start) exec 9>"$LOCK"; flock 9; start ;;
  stop) exec 9>"$LOCK"; flock 9; stop ;;
  down) exec 9>"$LOCK"; flock 9; halt ;;
  up) exec 9>"$LOCK"; flock 9; up ;;
  status) status ;;
  *) echo "usage: $0 {start|stop|down|up|status}" >&2; exit 2 ;;
esac
