#!/usr/bin/env bash
# Starts a single Apache Kafka broker in KRaft mode (combined broker + controller) on 127.0.0.1,
# from jars pulled off Maven Central by ./pom.xml, with its log dirs in a temp dir.
#
#   kafka.sh start    fetch jars if missing, format storage, start, wait until it serves, print brokers
#   kafka.sh stop     stop the broker started here (by PID) and remove its data
#   kafka.sh down     stop the broker started here (by PID), keep its data (fault tests)
#   kafka.sh up       start the broker again on the data `down` kept: same topics, offsets, groups
#   kafka.sh status   exit 0 and print brokers when it runs, exit 3 otherwise
#
# Env: KAFKA_PORT (19092), KAFKA_CONTROLLER_PORT (KAFKA_PORT+1),
#      KAFKA_STATE_DIR (${TMPDIR:-/tmp}/intel-kafka-<port>), KAFKA_HEAP (512m),
#      KAFKA_START_TIMEOUT seconds (120).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LIB="$HERE/target/lib"
PORT="${KAFKA_PORT:-19092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-$((PORT + 1))}"
STATE_DIR="${KAFKA_STATE_DIR:-${TMPDIR:-/tmp}/intel-kafka-${PORT}}"
HEAP="${KAFKA_HEAP:-512m}"
TIMEOUT="${KAFKA_START_TIMEOUT:-120}"
PID_FILE="$STATE_DIR/kafka.pid"
BROKERS="127.0.0.1:${PORT}"

NAME=kafka.sh
# shellcheck source=../lib/service.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/service.sh"
check_state_dir

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# the broker logs this line once the KRaft server (controller and broker) is up
serving() { grep -q "Kafka Server started" "$STATE_DIR/logs/server.log" 2>/dev/null && port_open "$PORT"; }

fetch_jars() {
  if compgen -G "$LIB/kafka_2.13-*.jar" >/dev/null && compgen -G "$LIB/kafka-server-*.jar" >/dev/null; then
    return
  fi
  log "fetching broker jars with maven into $LIB"
  (cd "$HERE" && mvn -q -B dependency:copy-dependencies -DoutputDirectory=target/lib -DincludeScope=runtime >&2)
}

JAVA_OPTS=(-Xmx"$HEAP" -Xms128m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true
  -Dlog4j.configuration="file:$STATE_DIR/log4j.properties" -Dkafka.logs.dir="$STATE_DIR/logs"
  -cp "$LIB/*")
java_cmd() { java "${JAVA_OPTS[@]}" "$@"; }

write_config() {
  mkdir -p "$STATE_DIR/data" "$STATE_DIR/logs"
  cat >"$STATE_DIR/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${CONTROLLER_PORT}
listeners=PLAINTEXT://127.0.0.1:${PORT},CONTROLLER://127.0.0.1:${CONTROLLER_PORT}
advertised.listeners=PLAINTEXT://127.0.0.1:${PORT}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=${STATE_DIR}/data
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
delete.topic.enable=true
log.segment.bytes=16777216
log.retention.check.interval.ms=60000
log.cleaner.dedupe.buffer.size=8388608
num.network.threads=2
num.io.threads=4
PROPS
  cat >"$STATE_DIR/log4j.properties" <<PROPS
log4j.rootLogger=WARN, file
log4j.logger.kafka.server.KafkaRaftServer=INFO
log4j.logger.kafka.server.KafkaServer=INFO
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=${STATE_DIR}/logs/server.log
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
PROPS
}

start() {
  if pid_alive && port_open "$PORT"; then
    log "already running (pid $(cat "$PID_FILE"))"
    echo "$BROKERS"
    return 0
  fi
  if port_open "$PORT" && ! pid_alive; then
    # a broker we did not start listens on this port: use it, never stop it
    log "something already listens on $BROKERS (not started by this script)"
    echo "$BROKERS"
    return 0
  fi
  command -v java >/dev/null || { log "java (17+) is required"; return 1; }
  fetch_jars
  if pid_alive; then kill "$(cat "$PID_FILE")" 2>/dev/null || true; sleep 1; fi
  rm -rf "$STATE_DIR"
  write_config
  local started=$SECONDS cluster_id
  cluster_id="$(java_cmd kafka.tools.StorageTool random-uuid | tail -n 1)"
  java_cmd kafka.tools.StorageTool format -t "$cluster_id" -c "$STATE_DIR/server.properties" >"$STATE_DIR/logs/format.log" 2>&1 || {
    log "storage format failed:"; cat "$STATE_DIR/logs/format.log" >&2; return 1; }
  launch "$started"
}

# runs the broker on the state dir's config and waits until it serves
launch() {
  local started=$1
  # a restart (`up`) appends to the same log: "started" must be this run's line
  if [[ -f "$STATE_DIR/logs/server.log" ]]; then mv -f "$STATE_DIR/logs/server.log" "$STATE_DIR/logs/server.log.1"; fi
  # setsid: the broker outlives the shell (and the test runner) that started it
  setsid java "${JAVA_OPTS[@]}" kafka.Kafka "$STATE_DIR/server.properties" \
    >>"$STATE_DIR/logs/stdout.log" 2>&1 </dev/null 9>&- &
  echo $! >"$PID_FILE"
  while ! serving; do
    if ! pid_alive; then
      log "broker exited during start; last log lines:"
      tail -n 40 "$STATE_DIR/logs/stdout.log" "$STATE_DIR/logs/server.log" >&2 2>/dev/null || true
      return 1
    fi
    if ((SECONDS - started > TIMEOUT)); then
      log "broker not serving after ${TIMEOUT}s"
      halt || true
      return 1
    fi
    sleep 0.2
  done
  log "started pid $(cat "$PID_FILE") in $((SECONDS - started))s on $BROKERS"
  echo "$BROKERS"
}

up() {
  if pid_alive && port_open "$PORT"; then
    log "already running (pid $(cat "$PID_FILE"))"
    echo "$BROKERS"
    return 0
  fi
  [[ -f "$STATE_DIR/server.properties" && -f "$STATE_DIR/data/meta.properties" ]] || {
    log "no broker state in $STATE_DIR to start again (use start)"; return 1; }
  launch "$SECONDS"
}

status() {
  if port_open "$PORT"; then
    echo "$BROKERS"
    return 0
  fi
  return 3
}

mkdir -p "$(dirname "$STATE_DIR")"
LOCK="$(dirname "$STATE_DIR")/.intel-kafka-${PORT}.lock"
case "${1:-}" in
  start) exec 9>"$LOCK"; flock 9; start ;;
  stop) exec 9>"$LOCK"; flock 9; stop ;;
  down) exec 9>"$LOCK"; flock 9; halt ;;
  up) exec 9>"$LOCK"; flock 9; up ;;
  status) status ;;
  *) echo "usage: $0 {start|stop|down|up|status}" >&2; exit 2 ;;
esac
