#!/usr/bin/env bash
# Cross-check keq's torch semantics against PyTorch: set up the test venv (reused when present),
# record torch's outputs for every example and op snippet, then compare keq's terms.
# usage: run.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1"
build="$2"
python=$(bash "$src/scripts/test-venv.sh")
case "$python" in /*) ;; *) python="$src/$python" ;; esac
out="$build/crosscheck"
rm -rf "$out"
mkdir -p "$out"
"$python" "$src/tests/crosscheck/torch_outputs.py" "$out" "$src/examples"
KEQ_CROSSCHECK_DIR="$out" "$build/tests/crosscheck_test" --gtest_filter=*Cpu*
# Triton's own compile-time checks reject every kernel keq rejects (frontends/triton/compile_checks.h).
TRITON_INTERPRET=1 "$python" "$src/tests/crosscheck/triton_rejects.py" "$src/tests/golden/triton_rejects"
# And the rules only its compiler applies, compiling for an sm_90 target (no GPU needed).
env -u TRITON_INTERPRET "$python" "$src/tests/crosscheck/triton_compile_rejects.py" "$src/tests/golden/triton_compile_rejects"
# keq verify --repro: the script it writes rebuilds the counterexample, and torch with Triton's
# interpreter computes two different values there ("differ"). row_min_sentinel_near_flt_max's
# counterexample is past float32's range, where both sides are inf ("equal", as keq's note says;
# its inputs are the largest float32, which the script must write exactly).
# layernorm_shift_in_padded_lanes's counterexample sets a 0-d parameter (its index is ()).
# initialized_copy_weight_missing_clamp: a Parameter made from a tensor an initializer filled
# (CAND_PARAMS maps torch's Parameters to keq's numbering, where that tensor is one too).
# softmax_looped_sum_pads_with_zero loops over a runtime n_cols, which the interpreter runs only
# with numpy before 2.4 (scripts/test-venv.sh pins it). cosine_loss_eps_added_to_norms sets
# input_shape, which its file writes as a 1-tuple. squeezed_bias_parameter_subtracted's candidate
# holds the reference's (C, 1, 1) draw squeezed to (C,), which the script fills in that shape.
# layernorm_weight_sized_by_constant's counterexample is for the models as built (its weights
# hold what __init__ gives them, which the script leaves).
for case in fp16_cast_noclamp:differ gelu_truncated_constant:differ relu6_wrong_bound:differ \
            leaky_relu_wrong_slope:differ rmsnorm_eps_outside_sqrt:differ \
            layernorm_unbiased_var:differ dropped_linear_bias:differ \
            transposed_weight_missing_clamp:differ initialized_copy_weight_missing_clamp:differ \
            bias_shape_from_channels:differ \
            layernorm_shift_in_padded_lanes:differ row_min_sentinel_near_flt_max:equal \
            softmax_looped_sum_pads_with_zero:differ cosine_loss_eps_added_to_norms:differ \
            squeezed_bias_parameter_subtracted:differ layernorm_weight_sized_by_constant:differ; do
  ex=${case%%:*} expected=${case##*:}
  "$build/keq" verify "$src/examples/$ex/ref.py" "$src/examples/$ex/cand.py" --repro "$out/repro_$ex.py" >/dev/null || true
  result=$(TRITON_INTERPRET=1 "$python" "$out/repro_$ex.py" 2>/dev/null | tail -1)
  if [ "$result" != "$expected" ]; then
    echo "FAIL repro $ex: the script printed '$result', not '$expected'"
    exit 1
  fi
  echo "ok   repro $ex ($result)"
done
# A forward argument computed from get_inputs()'s draw (the softmax of a randn): the script
# sets the draw and computes the argument from it, so the candidate's value is keq's (it once
# wrote the draw's values into the softmax's output).
ex=kl_div_targets_clamped
"$build/keq" verify "$src/examples/$ex/ref.py" "$src/examples/$ex/cand.py" --dims batch_size=2,dim=3 \
  --repro "$out/repro_$ex.py" >/dev/null || true
result=$(TRITON_INTERPRET=1 "$python" "$out/repro_$ex.py" 2>/dev/null | grep '^candidate:' || true)
case "$result" in
  "candidate: 5.5909"*) echo "ok   repro $ex ($result, as keq's)" ;;
  *) echo "FAIL repro $ex: the script printed '$result', not keq's candidate 5.5909"; exit 1 ;;
esac
