#!/usr/bin/env bash
# Installs Schemathesis (PyPI) for the fuzz test into a virtualenv under the project, once. Prints
# the path of its executable.
set -euo pipefail
dir="$(cd "$(dirname "$0")" && pwd)/.venv"
version=4.32.5
if [ ! -x "$dir/bin/schemathesis" ] || ! "$dir/bin/schemathesis" --version 2>/dev/null | grep -q "$version"; then
  echo "schemathesis: installing $version into $dir" >&2
  python3 -m venv "$dir" >&2
  "$dir/bin/pip" install -q "schemathesis==$version" >&2
fi
echo "$dir/bin/schemathesis"
