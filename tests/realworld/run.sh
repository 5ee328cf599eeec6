#!/usr/bin/env bash
# The third-party corpus: each tests/realworld/liger/OP/ pairs our reference (ref.py) with a thin
# candidate that imports liger-kernel's operator from the test venv (scripts/test-venv.sh
# installs liger-kernel 0.8.5 there; no third-party code is in this repository). keq verify
# runs at the default bound; the verdict must be the one in OP/expected. OP/options, where
# present, adds keq options (a --timeout, with the reason in tests/realworld/README.md).
# usage: run.sh SOURCE_DIR KEQ [OP...]    prints one line per operator: verdict, seconds.
set -uo pipefail
src="$1"
keq="$2"
shift 2
python=$(bash "$src/scripts/test-venv.sh") || { echo "FAIL  the test venv could not be made (scripts/test-venv.sh)"; exit 1; }
case "$python" in /*) ;; *) python="$src/$python" ;; esac
venv=$(dirname "$(dirname "$python")")
ops=("$@")
[ ${#ops[@]} -eq 0 ] && ops=($(ls "$src/tests/realworld/liger"))
fail=0
for op in "${ops[@]}"; do
  dir="$src/tests/realworld/liger/$op"
  want=$(cat "$dir/expected")
  opts=$(cat "$dir/options" 2>/dev/null || true)
  start=$(date +%s.%N)
  got=$(timeout 300 "$keq" verify "$dir/ref.py" "$dir/cand.py" --venv "$venv" $opts 2>&1 | head -1)
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  verdict=${got%%:*}
  status=ok
  if [ "$verdict" != "$want" ]; then status=FAIL; fail=1; fi
  # keq's watchdog stopped a stage that did not honour --timeout: a defect, whatever the verdict.
  case "$got" in *"overran --timeout"*) status=FAIL; fail=1 ;; esac
  printf '%-5s %-20s %-15s %6.1fs  %s\n' "$status" "$op" "$verdict" "$secs" "${got:0:160}"
done
exit $fail
