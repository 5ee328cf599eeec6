#!/usr/bin/env bash
# Creates (or reuses) the test virtual environment with the pinned frameworks the cross-checks
# compare against: torch 2.11.0 and triton 3.6.0, the GPU machine's versions (SEMANTICS-FACTS.md).
# keq itself never needs Python; only tests do. Prints the environment's python path.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${KEQ_TEST_VENV:-.venv-test}"
want_torch=2.11.0
want_triton=3.6.0
want_liger=0.8.5  # the third-party corpus (tests/realworld/); --no-deps keeps torch and triton
if [ -x "$venv/bin/python" ] && "$venv/bin/python" - <<PY >/dev/null 2>&1
import torch, triton
assert torch.__version__.split("+")[0] == "$want_torch" and triton.__version__ == "$want_triton"
import importlib.metadata
assert importlib.metadata.version("liger-kernel") == "$want_liger"
PY
then
  echo "$venv/bin/python"
  exit 0
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
"$venv/bin/python" -m pip install -q --disable-pip-version-check "torch==$want_torch" "triton==$want_triton" numpy >&2
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps "liger-kernel==$want_liger" >&2
echo "$venv/bin/python"
