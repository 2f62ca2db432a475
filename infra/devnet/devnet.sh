#!/usr/bin/env bash
# Starts/stops the local devnet (hardhat 2 node on 127.0.0.1:${DEVNET_PORT:-18545}).
# The PID file lives in /tmp/intel-devnet-<port>/node.pid; stop kills by that PID only.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
case "${1:-}" in
  start|stop|deploy) exec "$root/node_modules/.bin/tsx" "$here/cli.ts" "$@" ;;
  *) echo "usage: $0 {start|stop|deploy [trades]}" >&2; exit 2 ;;
esac
