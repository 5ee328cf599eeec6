#!/usr/bin/env bash
# Set-up command 1: install the dependencies, build keq, and run it on a bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target keq
echo
echo "== build/keq egraph examples/egraph/basics.eg --explain"
build/keq egraph examples/egraph/basics.eg --explain
echo
echo "== build/keq verify examples/softmax_rows/ref.py examples/softmax_rows/cand.py --dims batch_size=2,dim=5"
build/keq verify examples/softmax_rows/ref.py examples/softmax_rows/cand.py --dims batch_size=2,dim=5
