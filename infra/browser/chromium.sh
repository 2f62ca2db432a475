#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests, once (idempotent). Prints its path.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  echo "chromium: installing Debian's package (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends chromium >&2
fi
command -v chromium
