# Shared by the service scripts (infra/kafka/kafka.sh, infra/clickhouse/clickhouse.sh): a server
# started in the background with its PID in $PID_FILE and all its state in $STATE_DIR.
# The sourcing script sets NAME, STATE_DIR and PID_FILE first.

log() { echo "$NAME: $*" >&2; }

# STATE_DIR is wiped on start and stop: only a temp dir or an absolute intel-* dir is accepted
check_state_dir() {
  case "$STATE_DIR" in
    /tmp/?* | /var/tmp/?* | "${TMPDIR:-/tmp}"/?*) ;;
    *) [[ "$STATE_DIR" == /* && "$(basename "$STATE_DIR")" == intel-* ]] || {
      echo "refusing state dir $STATE_DIR: it is wiped on start/stop (use a temp dir or an intel-* dir)" >&2
      exit 2
    } ;;
  esac
}

pid_alive() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null
}

# TERM the server started here (by PID), KILL it after 30 s; its state dir stays (`down`)
halt() {
  if ! pid_alive; then
    log "not running"
    rm -f "$PID_FILE"
    return 0
  fi
  local pid
  pid="$(cat "$PID_FILE")"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 150); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "pid $pid ignored TERM for 30s; killing"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  log "stopped pid $pid"
}

# halt, then remove the state dir
stop() {
  halt
  rm -rf "$STATE_DIR"
}
