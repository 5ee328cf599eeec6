#!/usr/bin/env bash
# Golden tests of keq's command line: exit codes and error messages users see.
set -u
keq="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # name, expected exit code, expected text (grep -F) in stdout+stderr, command...
  local name="$1" want_rc="$2" want_text="$3"
  shift 3
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" != "$want_rc" ] || ! grep -qF -- "$want_text" <<<"$out"; then
    echo "FAIL $name: exit $rc (want $want_rc), output:"
    echo "$out" | head -20
    echo "  (wanted text: $want_text)"
    fail=1
  else
    echo "ok   $name"
  fi
}

# Like check, but the text must be the whole first line's start: a loop reading one line gets
# the overall verdict.
check_first() {
  local name="$1" want_rc="$2" want_text="$3"
  shift 3
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" != "$want_rc" ] || [[ "$(head -1 <<<"$out")" != "$want_text"* ]]; then
    echo "FAIL $name: exit $rc (want $want_rc), first line: $(head -1 <<<"$out")"
    echo "  (wanted it to start: $want_text)"
    fail=1
  else
    echo "ok   $name"
  fi
}

check help 0 "usage: keq COMMAND" "$keq" --help
check no-args 4 "usage: keq COMMAND" "$keq"
check unknown-command 4 "unknown command 'frobnicate'" "$keq" frobnicate
check egraph-help 0 "usage: keq egraph FILE" "$keq" egraph --help
check missing-file 4 "/no/such.eg:0:0: cannot read file" "$keq" egraph /no/such.eg
check unknown-option 4 "unknown option --fast" "$keq" egraph x.eg --fast
check bad-semantics 4 "--semantics takes real or ieee" "$keq" egraph x.eg --semantics exact

printf '(prove (+ x 0) x)\n(prove (frob x) x)\n' >"$tmp/bad-term.eg"
check bad-op-in-term 4 "bad-term.eg:2:9: unknown op 'frob'" "$keq" egraph "$tmp/bad-term.eg"

printf '(rule ok (+ ?a 0) ?a :holds real)\n(rule bad (+ ?a 0) ?b :holds real)\n' >"$tmp/bad.rules"
printf '(prove (+ x 0) x)\n' >"$tmp/goal.eg"
check bad-rule-file 4 "bad.rules:2:20: variable ?b on the right is not bound on the left" \
  "$keq" egraph "$tmp/goal.eg" --rules "$tmp/bad.rules"

# Semantics: (+ x 0) = x holds over the reals only (-0 + 0 = +0 in IEEE).
check real-proves 0 "goals: 1 of 1 proved" "$keq" egraph "$tmp/goal.eg"
check ieee-does-not 1 "goals: 0 of 1 proved" "$keq" egraph "$tmp/goal.eg" --semantics ieee

# The canary: an unsound rule merges 1 and 0, the run stops, and the rule is named.
printf '(rule plus-one-is-id (+ ?a 1) ?a :holds real)\n' >"$tmp/unsound.rules"
printf '(prove (* (+ 0 1) y) y)\n' >"$tmp/canary.eg"
check canary 4 "plus-one-is-id" "$keq" egraph "$tmp/canary.eg" --no-default-rules --rules "$tmp/unsound.rules"
check canary-explained 4 "how the two constants became equal" \
  "$keq" egraph "$tmp/canary.eg" --no-default-rules --rules "$tmp/unsound.rules"

# The issue's example, with its explanation naming the rule.
printf '(prove (/ (* x 2) 2) x)\n' >"$tmp/issue.eg"
check issue-example 0 "mul-div-cancel" "$keq" egraph "$tmp/issue.eg" --explain
check rules-dir-missing 4 "the rules folder $tmp/none cannot be read" env KEQ_RULES_DIR="$tmp/none" "$keq" egraph "$tmp/issue.eg"
mkdir -p "$tmp/empty-rules"
check rules-dir-empty 4 "holds no *.rules file" env KEQ_RULES_DIR="$tmp/empty-rules" "$keq" egraph "$tmp/issue.eg"

# keq inspect and keq parse on the bundled references.
ex="$src/examples"
# keq verify uses none of the proofs of an e-graph whose canary tripped (it used them): rules
# that make x * 0.5 both 1 and 2, over a GELU written x / sqrt(2).
mkdir -p "$tmp/canary_rules"
printf '(rule half-is-one (* ?a 0.5) 1 :holds real)\n(rule half-is-two (* ?a 0.5) 2 :holds real)\n' >"$tmp/canary_rules/bad.rules"
check verify-canary-proves-nothing 2 "none of its proofs is used" env KEQ_RULES_DIR="$tmp/canary_rules" \
  "$keq" verify "$ex/gelu_erf_divide_sqrt2/ref.py" "$ex/gelu_erf_divide_sqrt2/cand.py" --dims batch_size=2,dim=5 --no-smt
check inspect-ok 0 "out0: float32[2, 4]" "$keq" inspect "$ex/matmul_relu/ref.py" --dims batch_size=2,in_features=3,out_features=4
check inspect-parameters 0 "p0: float32[4, 3] nn.Linear.weight" "$keq" inspect "$ex/matmul_relu/ref.py" --dims batch_size=2,in_features=3,out_features=4
check inspect-element 0 "out0[1,3] = (max (+ (sum (* in0[1,0] p0[3,0])" "$keq" inspect "$ex/matmul_relu/ref.py" --dims batch_size=2,in_features=3,out_features=4 --element 1,3
check inspect-input-range 0 "in [0, 1), from torch.rand" "$keq" inspect "$ex/where_mask/ref.py" --dims batch_size=1,dim=2
check inspect-bad-dims 4 "'nope' is not a module-level integer constant" "$keq" inspect "$ex/matmul_relu/ref.py" --dims nope=3
check inspect-unsupported 3 "dropout.py:11:16: nn.Dropout with p > 0" "$keq" inspect "$src/tests/golden/unsupported/dropout.py"
check inspect-syntax-error 4 "error_colon.py:1:5: expected ':' after the if condition" "$keq" inspect "$src/tests/golden/parser/error_colon.py"
check inspect-candidate-launch 0 "out0[0,0] = (maxnum in0[0,0] 0)" "$keq" inspect "$src/tests/golden/candidates/relu_launch.py" --class ModelNew
check inspect-finding 0 "store out of bounds" "$keq" inspect "$src/tests/golden/candidates/off_by_one_mask.py" --class ModelNew
check parse 0 "FunctionDef 'kernel'" "$keq" parse "$src/tests/golden/parser/triton_kernel.py"

# keq verify: one check per verdict and exit code.
check verify-help 0 "usage: keq verify REF.py CAND.py" "$keq" verify --help
check verify-equivalent 0 "EQUIVALENT: every output element proved" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --dims batch_size=2,dim=5
check verify-counterexample 1 "reference: 65504" "$keq" verify "$ex/fp16_cast_noclamp/ref.py" "$ex/fp16_cast_noclamp/cand.py" --dims batch_size=2,dim=3
# The counterexample says what in0, in1 are: forward's arguments, and where one is computed from
# the tensor get_inputs() drew (targets = randint(0, 2) * 2 - 1), that tensor's values.
check verify-counterexample-names 1 "in1: torch.randint in get_inputs(); forward's argument \`targets\` is computed from it" "$keq" verify "$src/tests/realworld/llm_style/hinge_loss/ref.py" "$src/tests/realworld/llm_style/hinge_loss/cand.py"
# An argument computed from two drawn tensors (anchor = torch.rand(...) * scale) names both.
check verify-counterexample-names-two-sources 1 "in0: torch.rand in get_inputs(); forward's argument \`anchor\` is computed from it and in1" "$keq" verify "$src/tests/realworld/llm_style/triplet_margin_eps_inside_sqrt/ref.py" "$src/tests/realworld/llm_style/triplet_margin_eps_inside_sqrt/cand.py"
# A candidate without the reference's bias and LayerNorm: those are variables of their own, named.
check verify-unmatched-parameters 1 "note: parameters: Model creates 4 parameters and ModelNew 1: Model's float32[4] (nn.Linear.bias at" "$keq" verify "$src/tests/golden/params/ref.py" "$src/tests/golden/params/cand_weight_only.py"
# A running minimum seeded with 1e30: only a row wholly past it differs, which a uniform point at
# twice the program's largest constant finds (UNKNOWN under --no-smt before).
check verify-sentinel-uniform-point 1 "counterexample (witness search (uniform point))" "$keq" verify "$ex/row_min_finite_sentinel/ref.py" "$ex/row_min_finite_sentinel/cand.py" --no-smt
check verify-finding 1 "cand.py:16:5: write-write race" "$keq" verify "$ex/row_sum_split_store_race/ref.py" "$ex/row_sum_split_store_race/cand.py" --dims rows=2,cols=10
# A pair the e-graph leaves to Z3 (tanh written through exp, clamped).
check verify-smt-proves 0 "Z3 proved 1" "$keq" verify "$ex/relu_difference_identity/ref.py" "$ex/relu_difference_identity/cand.py" --dims batch_size=2,dim=3
check verify-no-smt-unknown 2 "by the e-graph and the witness search (--no-smt)" "$keq" verify "$ex/relu_difference_identity/ref.py" "$ex/relu_difference_identity/cand.py" --dims batch_size=2,dim=3 --no-smt
check verify-no-egraph-unknown 2 "UNKNOWN: 5 output pairs neither proved nor refuted before the timeout" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --dims batch_size=2,dim=5 --no-egraph --timeout 3
check verify-unsupported 3 "UNSUPPORTED: $src/tests/golden/unsupported/dropout.py:11:16: nn.Dropout with p > 0" "$keq" verify "$src/tests/golden/unsupported/dropout.py" "$ex/softmax_rows/cand.py" --dims ""
check verify-default-bound 1 "bound: batch_size=5,features=6,dim1=7 (default bound)" "$keq" verify "$ex/layernorm_no_where_tail/ref.py" "$ex/layernorm_no_where_tail/cand.py"
check verify-missing-file 4 "ERROR: " "$keq" verify /no/ref.py "$ex/softmax_rows/cand.py" --dims batch_size=2
# Every command reports a missing file the same way, and none aborts (inspect and parse did).
check inspect-missing-file 4 "keq inspect: error: /no/ref.py: no such file" "$keq" inspect /no/ref.py
check parse-missing-file 4 "keq parse: error: /no/ref.py: no such file" "$keq" parse /no/ref.py
# One option parser: a value that is not one is an error naming the option, never a silent 0.
check verify-seed-bad 4 "--seed takes a non-negative integer (got 'abc')" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --seed abc
check verify-option-needs-value 4 "--jobs needs a value" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --jobs
check inspect-max-chars-bad 4 "--max-chars takes a non-negative integer" "$keq" inspect "$ex/softmax_rows/ref.py" --max-chars lots
check verify-unknown-option 4 "unknown option --fast" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --fast
check_first verify-timeout-whole-run 2 "UNKNOWN: " "$keq" verify "$ex/layernorm_blocked/ref.py" "$ex/layernorm_blocked/cand.py" --timeout 0.001
# E[x^2] - E[x]^2 against sum (x - m)^2 over 300 columns, past the products' budget (the
# normal forms' unit tests hold the wrong variants apart).
check verify-one-pass-variance-wide 0 "EQUIVALENT: every output element proved by the e-graph" "$keq" verify "$src/tests/golden/nf_variance/ref.py" "$src/tests/golden/nf_variance/cand.py" --dims rows=2,cols=300 --no-smt
check verify-nf-budget-noted 0 "note: normal forms: 1 products of sums past the 1024-term budget took their wide factors as atoms (not expanded)" "$keq" verify "$src/tests/golden/nf_budget/ref.py" "$src/tests/golden/nf_budget/cand.py" --dims batch=1,n=70
# The fma's single rounding against mul-then-add: one ulp apart, shown with both bit patterns
# (which point shows it is the witness search's choice).
check verify-ieee-fma 1 "difference: 2.98023224e-08 (bits 0x3ea147ae vs 0x3ea147af)" "$keq" verify "$ex/scale_shift_fma/ref.py" "$ex/scale_shift_fma/cand.py" --dims batch_size=2,dim=5 --semantics ieee
check verify-ieee-approx 2 "first: exp (an approximation)" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --dims batch_size=1,dim=1 --semantics ieee
check verify-semantics-bad 4 "--semantics takes real or ieee" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --semantics fast
check verify-nonfinite-clamp 1 "in0[0, 0] = nan" "$keq" verify "$ex/fp16_cast_clamp/ref.py" "$ex/fp16_cast_clamp/cand.py" --dims batch_size=2,dim=3 --nonfinite-inputs
# Inputs range over what get_inputs() draws, and the report says so; --any-inputs widens floats.
check verify-input-range-named 0 "note: inputs: in0 (torch.rand at $src/tests/golden/inputs/ref.py:16:13) ranges over [0, 1), what get_inputs() draws" "$keq" verify "$src/tests/golden/inputs/ref.py" "$src/tests/golden/inputs/cand.py" --dims batch_size=2,dim=3
check_first verify-same-terms 0 "EQUIVALENT: every output element proved: both sides build the same terms" "$keq" verify "$src/tests/golden/inputs/ref.py" "$src/tests/golden/inputs/cand_same_terms.py" --dims batch_size=2,dim=3
check verify-any-inputs 1 "in0[0, 0] = 40" "$keq" verify "$src/tests/golden/inputs/ref.py" "$src/tests/golden/inputs/cand.py" --dims batch_size=2,dim=3 --any-inputs
check verify-nonfinite-no-z3 2 "the Z3 encoding covers finite inputs only" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --dims batch_size=2,dim=3 --nonfinite-inputs
check verify-explain 0 "; <= leaky-ge-gt" "$keq" verify "$ex/leaky_relu_ge/ref.py" "$ex/leaky_relu_ge/cand.py" --dims batch_size=2,dim=3 --explain 0:1,2
check verify-explain-bad 4 "--explain takes OUTPUT:I,J" "$keq" verify "$ex/leaky_relu_ge/ref.py" "$ex/leaky_relu_ge/cand.py" --explain 0:x
check verify-autotune-every-config 0 "autotune: relu_kernel config 3 of 3 (BLOCK=64, num_warps=4)" "$keq" verify "$ex/relu_autotune/ref.py" "$ex/relu_autotune/cand.py" --dims batch_size=3,dim=7
check verify-autotune-one-config 1 "config 2 of 2 (BLOCK=8" "$keq" verify "$ex/row_sum_autotune_block_too_small/ref.py" "$ex/row_sum_autotune_block_too_small/cand.py" --dims batch_size=2,dim=12 --autotune-config 2
check verify-jobs 0 "Z3 proved 1" "$keq" verify "$ex/relu_difference_identity/ref.py" "$ex/relu_difference_identity/cand.py" --dims batch_size=2,dim=3 --jobs 2
check_first verify-two-configs 1 "NOT_EQUIVALENT: a counterexample that replay confirms (configuration 2 of 2)" "$keq" verify "$ex/softmax_rows_tail_zero/ref.py" "$ex/softmax_rows_tail_zero/cand.py" --dims batch_size=1,dim=4 --dims batch_size=2,dim=5
# Every configuration proved: the first line says all of them, not "configuration 1 of 2".
check_first verify-two-configs-equivalent 0 "EQUIVALENT: every output element proved by the e-graph (all 2 configurations; reason and details: configuration 1)" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --dims batch_size=1,dim=4 --dims batch_size=2,dim=5
# A kernel of the candidate that never ran (a path for other ranks) is named in the coverage lines.
check verify-kernel-never-ran 0 "candidates/relu_with_unlaunched_path.py:16:1: @triton.jit relu_rows_kernel never ran (launched or called): nothing of it was checked at this bound" "$keq" verify "$ex/relu_mask_off_by_one/ref.py" "$src/tests/golden/candidates/relu_with_unlaunched_path.py" --dims batch_size=2,dim=3
check verify-coverage-warning 0 "layernorm/cand.py:12:9: mask never false: no masked-off (tail) lane" "$keq" verify "$ex/layernorm/ref.py" "$ex/layernorm/cand.py" --dims batch_size=2,features=3,dim1=4
# The first line is the overall verdict, even when an early configuration is equivalent.
check_first verify-first-line-overall 1 "NOT_EQUIVALENT: " "$keq" verify "$ex/row_sum_autotune_block_too_small/ref.py" "$ex/row_sum_autotune_block_too_small/cand.py"
check verify-provenance 1 "keq 0.3.0; rules " "$keq" verify "$ex/row_sum_autotune_block_too_small/ref.py" "$ex/row_sum_autotune_block_too_small/cand.py"

# DESIGN.md's table "When a program cannot run": a candidate CPython rejects does not run
# (NOT_EQUIVALENT with CPython's message); a reference it rejects, or a missing file, is an ERROR.
cand="$ex/relu_mask_off_by_one/cand.py"
ref="$ex/relu_mask_off_by_one/ref.py"
printf 'import torch\nif True:\n\tx = 1\n        y = 2\n' >"$tmp/tab.py"
check_first cannot-run-taberror 1 "NOT_EQUIVALENT: the candidate does not run: Python rejects it: $tmp/tab.py:4:9: TabError: inconsistent use of tabs and spaces" "$keq" verify "$ref" "$tmp/tab.py" --dims batch_size=2,dim=3
check_first cannot-run-taberror-reference 4 "ERROR: the reference: $tmp/tab.py:4:9: TabError" "$keq" verify "$tmp/tab.py" "$cand" --dims batch_size=2,dim=3
printf 'x = "\xff"\n' >"$tmp/latin.py"
check cannot-run-non-utf8 1 "Non-UTF-8 code starting with '\\xff'" "$keq" verify "$ref" "$tmp/latin.py" --dims batch_size=2,dim=3
printf '# -*- coding: latin-1 -*-\nx = "\xff"\n' >"$tmp/latin_declared.py"
check parse-coding-line 0 "Module" "$keq" parse "$tmp/latin_declared.py"
python3 -c "print('x = ' + '(' * 201 + '1' + ')' * 201)" >"$tmp/parens.py"
check cannot-run-parens 1 "too many nested parentheses" "$keq" verify "$ref" "$tmp/parens.py" --dims batch_size=2,dim=3
python3 -c "print('x = ' + ' + '.join(['1'] * 50000))" >"$tmp/chain.py"
check cannot-run-deep-chain 1 "RecursionError: maximum recursion depth exceeded during compilation" "$keq" verify "$ref" "$tmp/chain.py" --dims batch_size=2,dim=3
check parse-deep-chain 4 "RecursionError" "$keq" parse "$tmp/chain.py"
# A candidate without ModelNew (the reference passed twice) is a bad invocation, ERROR at once:
# the default bound does not try its other sizes (it ran the reference up to its largest, to the
# --timeout).
check_first no-model-new 4 "ERROR: $ref: no ModelNew defined (keq verify reads a KernelBench pair" timeout 20 "$keq" verify "$ref" "$ref"
# A candidate of its own that runs and defines no ModelNew (an LLM's answer cut off after its
# kernel, as a DLBlas L2 41 program is) cannot run what KernelBench runs: NOT_EQUIVALENT.
printf 'import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr):\n    pass\n' >"$tmp/kernel_only.py"
check_first no-model-new-candidate 1 "NOT_EQUIVALENT: the candidate does not run: $tmp/kernel_only.py: no ModelNew defined" timeout 20 "$keq" verify "$ref" "$tmp/kernel_only.py"
check_first not-a-regular-file 4 "ERROR: /dev/zero: not a regular file" "$keq" verify "$ref" /dev/zero --dims batch_size=2,dim=3
printf 'x = 1\0\n' >"$tmp/nul.py"
check_first not-text 4 "ERROR: $tmp/nul.py: not a text file" "$keq" verify "$ref" "$tmp/nul.py" --dims batch_size=2,dim=3
python3 -c "print('(prove ' + '(neg ' * 30000 + 'x' + ')' * 30000 + ' x)')" >"$tmp/deep.eg"
check egraph-deep-sexp 4 "nested deeper than" "$keq" egraph "$tmp/deep.eg"

# Sizes past keq's limits are UNSUPPORTED "size limit" naming the size; --timeout and
# --max-memory stop a heavy run with UNKNOWN (the outer `timeout 60` only guards against a hang).
base="$src/examples/host_integer_past_64_bits"
size_case() {  # name, python expression for the candidate's factor, expected exit, text
  sed "s|factor = (2\*\*64 + 1) % 7|factor = $2|" "$base/cand.py" >"$tmp/size_$1.py"
  check "size-$1" "$3" "$4" timeout 60 "$keq" verify "$base/ref.py" "$tmp/size_$1.py" --dims batch_size=2,dim=3 --timeout 5 --max-memory 2G
}
size_case range 'len(range(10**12))' 3 "a range of 1000000000000 elements (size limit"
size_case zeros "torch.zeros(10**9, 10**9).sum()" 3 "torch.zeros of shape [1000000000, 1000000000]: 1000000000000000000 elements (size limit"
size_case arange 'torch.arange(10**10).sum()' 3 "torch.arange of 10000000000 elements (size limit"
size_case list 'len([0] * 10**10)' 3 "repeated of 10000000000 elements (size limit"
size_case power '10 ** (10 ** 9)' 3 "has more than 65536 bits (size limit)"
size_case negative 'torch.zeros(-1).sum()' 1 "Trying to create tensor with negative dimension -1"
sed 's/(triton.cdiv(n, 32),)/(2000000000,)/' "$base/cand.py" >"$tmp/grid.py"
check size-grid 3 "a grid of 2000000000 programs (size limit" timeout 60 "$keq" verify "$base/ref.py" "$tmp/grid.py" --dims batch_size=2,dim=3 --timeout 5
sed 's/BLOCK=32)/BLOCK=2**30)/; s/triton.cdiv(n, 32)/triton.cdiv(n, 2**30)/' "$base/cand.py" >"$tmp/block.py"
check size-block 1 "numel (1073741824) exceeds triton maximum tensor numel" timeout 60 "$keq" verify "$base/ref.py" "$tmp/block.py" --dims batch_size=2,dim=3 --timeout 5
# A 512^3 matmul is 134 million products on each side: past any budget these tests give it.
# (A 2000-wide LayerNorm served here until its cost became linear in the width.)
big_matmul=("$ex/matmul_relu_k_tiles/ref.py" "$ex/matmul_relu_k_tiles/cand.py" --dims batch_size=512,in_features=512,out_features=512)
# The report names the stage the time ran out in (it said only "stopped", with no stage times).
check_first budget-timeout 2 "UNKNOWN: stopped: the --timeout was reached in the running the programs stage" timeout 60 "$keq" verify "${big_matmul[@]}" --timeout 5 --max-memory 2G
check_first budget-memory 2 "UNKNOWN: stopped: the memory budget (--max-memory 300 MiB) was reached" timeout 60 "$keq" verify "${big_matmul[@]}" --timeout 50 --max-memory 300M
check max-memory-bad 4 "--max-memory takes a size" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --max-memory lots
printf 'import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n    def forward(self, x):\n        return torch.softmax(x, dim=1)\n\n\nbatch_size = 16\ndim = 2 ** 14\n\n\ndef get_inputs():\n    return [torch.randn(batch_size, dim)]\n\n\ndef get_init_inputs():\n    return []\n' >"$tmp/pow_ref.py"
check size-as-expression-is-a-dimension 0 "bound: batch_size=2,dim=3 (default bound)" "$keq" verify "$tmp/pow_ref.py" "$ex/softmax_rows/cand.py"

# Reproducible: the same command gives the same report (timings aside: the "time:" line lists
# the stages that took a millisecond or more), whatever --jobs is.
reproducible() {  # name, command...
  local name="$1"
  shift
  local first="" out k ok=1
  for k in 1 2 3 4 5; do
    out=$("$@" --jobs $(((k % 2) + 1)) 2>&1 | sed -E '/^time: /d; s/[0-9]+\.[0-9]+ s\b/T s/g')
    if [ -z "$first" ]; then first="$out"; elif [ "$out" != "$first" ]; then ok=0; fi
  done
  if [ "$ok" = 1 ] && grep -q "counterexample" <<<"$first"; then
    echo "ok   $name"
  else
    echo "FAIL $name: reports differ between runs, or no counterexample"
    diff <(echo "$first") <(echo "$out") | head -20
    fail=1
  fi
}
reproducible reproducible-witness "$keq" verify "$ex/gelu_truncated_constant/ref.py" "$ex/gelu_truncated_constant/cand.py" --seed 1
reproducible reproducible-z3-model "$keq" verify "$ex/relu6_wrong_bound/ref.py" "$ex/relu6_wrong_bound/cand.py" --seed 1
reproducible reproducible-minimized "$keq" verify "$ex/layernorm_unbiased_var/ref.py" "$ex/layernorm_unbiased_var/cand.py" --seed 1
reproducible reproducible-default-bound "$keq" verify "$ex/layernorm_no_where_tail/ref.py" "$ex/layernorm_no_where_tail/cand.py" --seed 1

check verify-time-by-stage 0 "time: running the programs" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --dims batch_size=2,dim=2000 --no-smt
# A frontend's note is printed once as a note, with its file:line (it was "note: f:l: note: ...").
check verify-note-once 0 "note: $src/bench/scaling/matmul/cand.py:22:16: tl.dot on fp32 rounds" "$keq" verify "$src/bench/scaling/matmul/ref.py" "$src/bench/scaling/matmul/cand.py" --dims M=4,N=4,K=4
check verify-json-stages 0 '"stage": "e-graph"' bash -c "'$keq' verify '$ex/softmax_rows/ref.py' '$ex/softmax_rows/cand.py' --dims batch_size=2,dim=3 --json '$tmp/st.json' >/dev/null; cat '$tmp/st.json'"
check verify-json-provenance 0 '"provenance": "keq 0.3.0; rules ' bash -c "'$keq' verify '$ex/fp16_cast_noclamp/ref.py' '$ex/fp16_cast_noclamp/cand.py' --dims batch_size=2,dim=3 --json '$tmp/p.json' >/dev/null; cat '$tmp/p.json'"
check verify-repro 1 "repro: $tmp/repro.py" "$keq" verify "$ex/fp16_cast_noclamp/ref.py" "$ex/fp16_cast_noclamp/cand.py" --dims batch_size=2,dim=3 --repro "$tmp/repro.py"
check verify-repro-content 0 'VALUES = {' cat "$tmp/repro.py"
check verify-repro-training-mode 0 'EVAL = False' cat "$tmp/repro.py"
# Under --eval the script runs both models in eval mode: it ran them in training mode, where
# this pair's candidate runs torch's ops and the script said "equal" (found on an H100).
check verify-repro-eval 1 "repro: $tmp/repro_eval.py" "$keq" verify "$ex/kernel_only_in_eval/ref.py" "$ex/kernel_only_in_eval/cand.py" --dims batch_size=2,in_features=3,out_features=4 --eval --repro "$tmp/repro_eval.py"
check verify-repro-eval-content 0 'EVAL = True' cat "$tmp/repro_eval.py"

# A scalar accumulator over a 100,000-wide row builds a term as deep as the row: it once
# overflowed the stack in pair dedup, then grew past the machine's memory; now the budget stops it.
python3 -c "
import sys
src = open(sys.argv[1]).read()
print(src.replace('return torch.relu(x)', 'return x.sum().reshape(1)').replace('batch_size = 16', 'dim0 = 1').replace('dim = 16384', 'dim = 100000').replace('torch.randn(batch_size, dim)', 'torch.randn(dim)'))
" "$ex/relu_mask_off_by_one/ref.py" >"$tmp/wide_ref.py"
cat >"$tmp/wide_cand.py" <<'PY'
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, n):
    acc = 0.0
    for i in range(0, n):
        acc += tl.load(x_ptr + i)
    tl.store(out_ptr, acc)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty(1, device=x.device)
        row_sum[(1,)](x, out, x.numel())
        return out
PY
check_first wide-row-stops-at-budget 2 "UNKNOWN: stopped: the" timeout 120 "$keq" verify "$tmp/wide_ref.py" "$tmp/wide_cand.py" --dims dim=100000 --timeout 5 --max-memory 2G

# Only errors the frameworks surely raise make a candidate "not run": a NameError does; a Python
# builtin keq lacks, or keq's own argument checks, are UNSUPPORTED.
sed 's|factor = (2\*\*64 + 1) % 7|factor = undefined_name|' "$base/cand.py" >"$tmp/nameerror.py"
check_first cannot-run-nameerror 1 "NOT_EQUIVALENT: the candidate raises at this configuration, where the reference runs: $tmp/nameerror.py:21:18: NameError: name 'undefined_name' is not defined" "$keq" verify "$base/ref.py" "$tmp/nameerror.py" --dims batch_size=2,dim=3
sed 's|factor = (2\*\*64 + 1) % 7|factor = id(3) % 7|' "$base/cand.py" >"$tmp/builtin.py"
check_first builtin-not-modelled 3 "UNSUPPORTED: $tmp/builtin.py:21:18: the Python builtin 'id' is not modelled" "$keq" verify "$base/ref.py" "$tmp/builtin.py" --dims batch_size=2,dim=3
sed 's|factor = (2\*\*64 + 1) % 7|factor = torch.cat([y, y.to(torch.float16)]).shape[0]|' "$base/cand.py" >"$tmp/keqcheck.py"
check_first model-refusal-unsupported 3 "UNSUPPORTED: the candidate stops in keq's model, which torch/Triton may not do" "$keq" verify "$base/ref.py" "$tmp/keqcheck.py" --dims batch_size=2,dim=3

# torch.autograd.Function: Fn.apply runs forward(ctx, ...) with @staticmethod; backward is read only.
check_first autograd-function 0 "EQUIVALENT: " "$keq" verify "$ex/relu_mask_off_by_one/ref.py" "$src/tests/golden/candidates/autograd_function.py" --dims batch_size=2,dim=3
sed 's/tl.maximum(x, 0.0)/tl.maximum(x, 0.5)/' "$src/tests/golden/candidates/autograd_function.py" >"$tmp/autograd_bug.py"
check_first autograd-function-bug 1 "NOT_EQUIVALENT: a counterexample that replay confirms" "$keq" verify "$ex/relu_mask_off_by_one/ref.py" "$tmp/autograd_bug.py" --dims batch_size=2,dim=3

# An assert that rejects some sizes: the default bound chooses sizes both sides accept and says
# which it skipped; at sizes the user chose, it is UNKNOWN with the assert's message.
check bound-skips-assert-rejected 0 "note: bound: skipped batch_size=2,dim=3: the candidate's assert rejects this configuration" "$keq" verify "$base/ref.py" "$src/tests/golden/candidates/assert_multiple_of_4.py"
check_first assert-rejects-chosen-sizes 2 "UNKNOWN: the candidate's assert rejects this configuration" "$keq" verify "$base/ref.py" "$src/tests/golden/candidates/assert_multiple_of_4.py" --dims batch_size=3,dim=3

# Host code's device queries are answered as the H200 would, and the report names each one.
check host-device-queries 0 "note: host assumption: torch.cuda.get_device_properties() is an H200's (9.0, 132 SMs)" "$keq" verify "$ex/relu_mask_off_by_one/ref.py" "$src/tests/golden/candidates/device_queries.py" --dims batch_size=2,dim=3

# torch.finfo / torch.iinfo answer as torch 2.11 does: e4m3fn's range proves the quantization;
# e5m2's (57344), read by the same host code, is caught.
check finfo-e4m3-range 0 "EQUIVALENT: every output element proved" "$keq" verify "$ex/fp8_per_token_satcast/ref.py" "$src/tests/golden/candidates/finfo_bounds.py" --dims batch_size=3,dim=5
sed 's/dtype=torch.float8_e4m3fn):/dtype=torch.float8_e5m2):/' "$src/tests/golden/candidates/finfo_bounds.py" >"$tmp/finfo_e5m2.py"
check finfo-e5m2-range-caught 1 "NOT_EQUIVALENT" "$keq" verify "$ex/fp8_per_token_satcast/ref.py" "$tmp/finfo_e5m2.py" --dims batch_size=3,dim=5
sed 's/torch.finfo(self.dtype)/torch.finfo(torch.int32)/' "$src/tests/golden/candidates/finfo_bounds.py" >"$tmp/finfo_int.py"
check finfo-of-int-raises 1 "TypeError: torch.finfo() requires a floating point input type" "$keq" verify "$ex/fp8_per_token_satcast/ref.py" "$tmp/finfo_int.py" --dims batch_size=3,dim=5

# An fp8 operand made in get_inputs by randn(...).to(float8_e4m3fn) is finite e4m3 values, said so.
check fp8-inputs-are-finite 0 "note: host assumption: in0 (torch.randn cast to float8_e4m3fn in get_inputs) takes finite float8_e4m3fn values" "$keq" verify "$ex/fp8_block_scaled_matmul/ref.py" "$ex/fp8_block_scaled_matmul/cand.py" --dims M=3,N=40,K=80,block_n=16,block_k=32

# A reference with two modules and no Model, answered by a ModelNew: keq cannot choose, says how
# to name the class, and --ref-class / --cand-class pick them.
kb="$src/tests/golden/kernelbook_two_modules"
check ref-class-needed 4 "--ref-class and --cand-class name others" "$keq" verify "$kb/ref.py" "$kb/cand.py"
check_first ref-class-chosen 0 "EQUIVALENT" "$keq" verify "$kb/ref.py" "$kb/cand.py" --ref-class Halver
check_first ref-class-other 1 "NOT_EQUIVALENT: a counterexample" "$keq" verify "$kb/ref.py" "$kb/cand.py" --ref-class Doubler
check ref-class-missing 4 "ref.py: no Nope defined" "$keq" verify "$kb/ref.py" "$kb/cand.py" --ref-class Nope
check cand-class-missing 1 "cand.py: no Missing defined" "$keq" verify "$kb/ref.py" "$kb/cand.py" --ref-class Halver --cand-class Missing

check verify-json 0 '"referenceValue": "65504"' bash -c "'$keq' verify '$ex/fp16_cast_noclamp/ref.py' '$ex/fp16_cast_noclamp/cand.py' --dims batch_size=2,dim=3 --json '$tmp/r.json' >/dev/null; cat '$tmp/r.json'"
check verify-json-unwritable 4 "cannot write /no/such/dir/r.json" "$keq" verify "$ex/softmax_rows/ref.py" "$ex/softmax_rows/cand.py" --dims batch_size=2,dim=5 --json /no/such/dir/r.json

exit $fail
