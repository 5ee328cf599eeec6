#!/usr/bin/env bash
# The runner's measurements on a GPU machine (bench/README.md, "The CUDA runner"): keq built on
# the development machine travels with its shared libraries in $1 (keq, lib/); results go to $2.
#   bash bench/runner_gpu.sh .devcarry "$OUT"
set -uo pipefail
carry="$1"
out="$2"
export LD_LIBRARY_PATH="$carry/lib" KEQ_RULES_DIR="$PWD/rules"
keq="$carry/keq"
t=tests/rules_validate
nvidia-smi -L | tee "$out/device.txt"
nvcc --version | tail -2 >> "$out/device.txt"
run() {  # name, then keq rules validate's arguments
  local name="$1"
  shift
  echo "== $name: keq rules validate $*"
  /usr/bin/time -f "%e s wall" timeout 300 "$keq" rules validate "$@" > "$out/$name.txt" 2>&1
  echo "exit $?" >> "$out/$name.txt"
  tail -2 "$out/$name.txt"
}
run ops --ops --device cuda --samples 65536
run shipped --device cuda
run seeded_wrong --device cuda "$t/seeded_wrong.rules"
run formats_exhaustive --device cuda --exhaustive "$t/formats.rules" "$t/ue8m0.rules"
run shipped_f32_exhaustive --device cuda --exhaustive
run shipped_f16_exhaustive --device cuda --format f16 --exhaustive
run ue8m0_exhaustive --device cuda --exhaustive "$t/ue8m0.rules"
(cd tests/fixtures/gpu && timeout 300 python measure_lowerings.py > "$out/lowerings.txt" 2>&1)
