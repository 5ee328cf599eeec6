#!/usr/bin/env bash
# keq verify --exhaustive on the CPU (CI's fallback; the H200 runs are in bench/README.md):
# a correct elementwise kernel is EQUIVALENT by exhaustion over every fp32 input, a wrong one is
# NOT_EQUIVALENT at a value the evaluator confirms, an approximation the CPU cannot reproduce
# stays UNKNOWN, and a missing GPU leaves the pairs to the other stages.
set -uo pipefail
keq="$1"
src="$2"
fail() { echo "FAIL: $*"; exit 1; }
ex="$src/examples"
run() { "$keq" verify "$ex/$1/ref.py" "$ex/$1/cand.py" --semantics ieee --dims batch_size=2,dim=3 "${@:2}"; }

out=$(run leaky_relu_ge --exhaustive); rc=$?
echo "$out" | head -4
[ $rc -eq 0 ] || fail "leaky_relu_ge: exit $rc"
echo "$out" | grep -q "^EQUIVALENT: every output element proved by exhaustion" || fail "not by exhaustion"
echo "$out" | grep -q "4294967296 evaluations" || fail "not every fp32 input"

out=$(run relu6_wrong_bound --exhaustive); rc=$?
echo "$out" | head -8
[ $rc -eq 1 ] || fail "relu6_wrong_bound: exit $rc"
echo "$out" | grep -q "confirmed by keq's evaluator" || fail "counterexample not confirmed"
echo "$out" | grep -q "in0\[0, 0\] = 6.00000048" || fail "not the first differing input"

out=$(run triton_div_by_constant --exhaustive); rc=$?
echo "$out" | head -1
[ $rc -eq 2 ] || fail "div.full on the CPU: exit $rc, expected UNKNOWN"
echo "$out" | grep -q "not pin on the CPU, first: div.full" || fail "no reason for the unswept pair"

if ! command -v nvidia-smi >/dev/null 2>&1; then  # no GPU: the sweep does not run
  out=$(KEQ_NVCC=/nonexistent run triton_div_by_constant --exhaustive --device cuda); rc=$?
  echo "$out" | head -1
  [ $rc -eq 2 ] || fail "--device cuda without a GPU: exit $rc, expected UNKNOWN"
  echo "$out" | grep -q "the sweep did not run" || fail "no note that the sweep did not run"
fi

# --timeout bounds the sweep: past it the pairs go on to the other stages.
out=$(run fp16_cast_noclamp --exhaustive --timeout 3); rc=$?
echo "$out" | head -1
echo "$out" | grep -q "did not finish within the time left" || fail "the sweep ran past --timeout"

"$keq" verify "$ex/leaky_relu_ge/ref.py" "$ex/leaky_relu_ge/cand.py" --exhaustive >/dev/null 2>&1
[ $? -eq 4 ] || fail "--exhaustive without --semantics ieee accepted"
echo PASS
