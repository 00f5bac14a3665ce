#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs a pinned Ray (with its dashboard, which serves the Jobs REST API) into the git-ignored venv .ray-venv/,
# for the fleet-sweep test against a real Ray head on 127.0.0.1 (tests/remote/test_sweep_runs.sh). Costscope itself
# needs no Python: `costscope-cli sweep-runs` speaks to the Jobs API over HTTP. Idempotent; needs PyPI once.
set -euo pipefail
cd "$(dirname "$0")/.."
ray_version=2.40.0
venv=.ray-venv
if [ -x "$venv/bin/ray" ] && "$venv/bin/python" -c "import ray, sys; sys.exit(ray.__version__ != '$ray_version')"; then
  echo "setup_ray: ray $ray_version already in $venv"
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "ray[default]==$ray_version"
echo "setup_ray: ray $ray_version installed in $venv"
