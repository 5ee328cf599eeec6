#!/usr/bin/env bash
# Creates (or reuses) the test virtual environment with the pinned frameworks the cross-checks
# compare against: torch 2.11.0 and triton 3.6.0, the GPU machine's versions (SEMANTICS-FACTS.md).
# keq itself never needs Python; only tests do. Prints the environment's python path.
# Several tests call this at once under ctest -j: a lock makes one of them install, the rest wait.
# An environment made without pip (venv --without-pip, or copied in by a CI cache) gets pip from
# ensurepip, else the interpreter's own pip installs into it (--python).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${KEQ_TEST_VENV:-.venv-test}"
want_torch=2.11.0
want_triton=3.6.0
want_liger=0.8.5  # the third-party corpus (tests/realworld/); --no-deps keeps torch and triton
want_einops=0.8.1  # KernelBench's references import it; keq models it (frontends/torch/einops.cc)
# Triton 3.6's interpreter turns a scalar argument's 1-element array into an int (a kernel's
# range(0, n_cols, BLOCK)); numpy 2.4 made that a TypeError, so a --repro under TRITON_INTERPRET=1
# failed on any loop over a runtime size.
want_numpy=2.3.5
ready() {
  [ -x "$venv/bin/python" ] && "$venv/bin/python" - <<PY >/dev/null 2>&1
import torch, triton
assert torch.__version__.split("+")[0] == "$want_torch" and triton.__version__ == "$want_triton"
import importlib.metadata
assert importlib.metadata.version("liger-kernel") == "$want_liger"
assert importlib.metadata.version("einops") == "$want_einops"
assert importlib.metadata.version("numpy") == "$want_numpy"
PY
}
if ready; then echo "$venv/bin/python"; exit 0; fi
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if ready; then echo "$venv/bin/python"; exit 0; fi  # another test installed it while we waited
[ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
  "$venv/bin/python" -m ensurepip >&2 || true
fi
if "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
  pip=("$venv/bin/python" -m pip)
else
  pip=(python3 -m pip --python "$venv/bin/python")
fi
"${pip[@]}" install -q --disable-pip-version-check "torch==$want_torch" "triton==$want_triton" \
  "numpy==$want_numpy" >&2
"${pip[@]}" install -q --disable-pip-version-check --no-deps "liger-kernel==$want_liger" \
  "einops==$want_einops" >&2
ready || { echo "test-venv.sh: $venv still lacks the pinned torch/triton/liger-kernel/einops" >&2; exit 1; }
echo "$venv/bin/python"
