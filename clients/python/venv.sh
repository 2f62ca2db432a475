#!/usr/bin/env bash
# Makes the Python client's virtualenv under clients/python/.venv: the generator
# (openapi-python-client, PyPI), pytest, and the client itself once it is generated (editable, so
# a regenerated client is the one imported; installed again when its pyproject.toml changes).
# Prints the virtualenv's directory.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="$here/.venv"
want="openapi-python-client==0.29.1 pytest==9.2.0"
if [ ! -f "$dir/.tools" ] || [ "$(cat "$dir/.tools")" != "$want" ]; then
  echo "python client: installing $want into $dir" >&2
  python3 -m venv "$dir" >&2
  "$dir/bin/pip" install -q $want >&2
  echo "$want" > "$dir/.tools"
fi
if [ -f "$here/pyproject.toml" ]; then
  project="$(sha256sum "$here/pyproject.toml" | cut -d' ' -f1)"
  if [ ! -f "$dir/.client" ] || [ "$(cat "$dir/.client")" != "$project" ]; then
    echo "python client: installing clients/python into $dir" >&2
    "$dir/bin/pip" install -q -e "$here" >&2
    echo "$project" > "$dir/.client"
  fi
fi
echo "$dir"
