#!/usr/bin/env bash
# The real-world corpora, one folder per pair: our reference (ref.py), a candidate (cand.py) and
# the verdict keq must give (expected); options, where present, adds keq options (a --timeout,
# with the reason in tests/realworld/README.md).
#   liger/: thin candidates that import liger-kernel's operators from the test venv
#           (scripts/test-venv.sh installs liger-kernel 0.8.5 there; no third-party code is here).
#   llm_style/: candidates written the way LLM-generated KernelBench submissions are.
#   production/: thin candidates that import operators of production libraries (mamba-ssm,
#           flash-attn, torchao, xformers, unsloth, fla-core), read from the pinned releases
#           scripts/production-libs.sh fetches from PyPI into .cache/ (none of it is committed).
# keq verify runs at the default bound.
# usage: run.sh SOURCE_DIR KEQ CORPUS [OP...]    prints one line per pair: verdict, seconds.
set -uo pipefail
src="$1"
keq="$2"
corpus="$3"
shift 3
venv_opts=()
if [ "$corpus" = liger ]; then
  python=$(bash "$src/scripts/test-venv.sh") || { echo "FAIL  the test venv could not be made (scripts/test-venv.sh)"; exit 1; }
  case "$python" in /*) ;; *) python="$src/$python" ;; esac
  venv_opts=(--venv "$(dirname "$(dirname "$python")")")
fi
if [ "$corpus" = production ]; then
  libs=$(bash "$src/scripts/production-libs.sh") || { echo "FAIL  the production libraries could not be fetched (scripts/production-libs.sh)"; exit 1; }
  case "$libs" in /*) ;; *) libs="$src/$libs" ;; esac
  venv_opts=(--python-path "$libs")
fi
ops=("$@")
[ ${#ops[@]} -eq 0 ] && ops=($(ls "$src/tests/realworld/$corpus"))
fail=0
for op in "${ops[@]}"; do
  dir="$src/tests/realworld/$corpus/$op"
  want=$(cat "$dir/expected")
  opts=$(cat "$dir/options" 2>/dev/null || true)
  start=$(date +%s.%N)
  got=$(timeout 300 "$keq" verify "$dir/ref.py" "$dir/cand.py" "${venv_opts[@]}" $opts 2>&1 | head -1)
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  verdict=${got%%:*}
  status=ok
  if [ "$verdict" != "$want" ]; then status=FAIL; fail=1; fi
  # keq's watchdog stopped a stage that did not honour --timeout: a defect, whatever the verdict.
  case "$got" in *"overran --timeout"*) status=FAIL; fail=1 ;; esac
  printf '%-5s %-26s %-15s %6.1fs  %s\n' "$status" "$op" "$verdict" "$secs" "${got:0:160}"
done
exit $fail
