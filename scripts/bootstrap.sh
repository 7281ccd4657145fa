#!/usr/bin/env bash
# Make .venv ready: Python 3.12, the project installed (editable) with its test tools.
# Re-installs only when pyproject.toml changed since the last run.
set -euo pipefail
cd "$(dirname "$0")/.."

find_python() {
  local candidates=("${PYTHON:-}" python3.12 /usr/local/bin/python3.12 /usr/bin/python3.12)
  candidates+=("$HOME"/.pyenv/versions/3.12*/bin/python3.12 /root/.pyenv/versions/3.12*/bin/python3.12)
  for c in "${candidates[@]}"; do
    [ -n "$c" ] || continue
    if "$c" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' >/dev/null 2>&1; then
      echo "$c"
      return 0
    fi
  done
  echo "Rabbithole needs Python 3.12: install it (e.g. 'apt-get install python3.12 python3.12-venv' or" \
       "'pyenv install 3.12') or point PYTHON=/path/to/python3.12" >&2
  return 1
}

stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  if [ ! -x .venv/bin/python ]; then
    python=$(find_python)
    echo "creating .venv with $python" >&2
    "$python" -m venv .venv
  fi
  echo "installing Rabbithole and its dependencies into .venv (first run: a few minutes)" >&2
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[test]"
  rm -f .venv/.installed-*
  touch "$stamp"
fi
