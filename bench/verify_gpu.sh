#!/usr/bin/env bash
# keq verify on a GPU machine (bench/README.md, "keq verify --exhaustive and GPU replay"): keq
# built on the development machine travels with its shared libraries in $1; results go to $2.
#   bash bench/verify_gpu.sh .devcarry "$OUT"
set -uo pipefail
carry="$1"
out="$2/verify_gpu.txt"
export LD_LIBRARY_PATH="$carry/lib" KEQ_RULES_DIR="$PWD/rules"
keq="$carry/keq"
: > "$out"
for e in leaky_relu_ge relu6_wrong_bound fp16_cast_clamp fp16_cast_noclamp triton_div_by_constant \
         gelu_tanh_scale; do
  echo "== $e: keq verify --semantics ieee --exhaustive --device cuda" | tee -a "$out"
  /usr/bin/time -f "%e s wall" timeout 120 "$keq" verify "examples/$e/ref.py" "examples/$e/cand.py" \
    --semantics ieee --exhaustive --device cuda --dims batch_size=2,dim=3 >> "$out" 2>&1
  echo "exit $?" | tee -a "$out"
done
for e in fp8_per_token_satcast fp8_per_token_recip_mul fp8_per_token_no_eps fp8_per_tensor_fake_quant; do
  dims=$(grep '^dims:' "examples/$e/expected" | sed 's/^dims: //')
  echo "== $e: keq verify --semantics ieee --device cuda --dims $dims" | tee -a "$out"
  /usr/bin/time -f "%e s wall" timeout 120 "$keq" verify "examples/$e/ref.py" "examples/$e/cand.py" \
    --semantics ieee --device cuda --dims "$dims" >> "$out" 2>&1
  echo "exit $?" | tee -a "$out"
done
