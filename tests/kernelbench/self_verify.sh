#!/usr/bin/env bash
# Verifies every KernelBench-style reference in a folder against itself (issue 15: each within
# 30 s at keq verify's default bound): the candidate is the file with `ModelNew = Model` appended,
# written to a scratch folder. Prints each file's first line and seconds, then a tally by verdict
# and the slowest. KernelBench's files are not part of this repository; point the script at a copy.
# usage: self_verify.sh KEQ DIR [SECONDS [keq verify options...]]
set -uo pipefail
keq="$1"
dir="$2"
limit="${3:-120}"
shift $(($# < 3 ? $# : 3))
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
declare -A count
over=0 slowest=0 slowest_name=""
for f in $(ls "$dir"/*.py | sort -V); do
  name=$(basename "$f")
  { cat "$f"; printf '\n\nModelNew = Model\n'; } >"$scratch/$name"
  start=$(date +%s.%N)
  out=$(timeout "$limit" "$keq" verify "$f" "$scratch/$name" "$@" 2>&1)
  rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  verdict=$(head -1 <<<"$out" | cut -d: -f1)
  [ $rc -eq 124 ] && verdict="TIMEOUT"
  count[$verdict]=$((${count[$verdict]:-0} + 1))
  (($(echo "$secs > 30" | bc))) && over=$((over + 1))
  if (($(echo "$secs > $slowest" | bc))); then slowest=$secs slowest_name=$name; fi
  printf "%-12s %-8s %6.2fs %s\n" "$verdict" "$name" "$secs" "$(head -1 <<<"$out" | cut -c1-150)"
done
tally=""
for v in "${!count[@]}"; do tally+="$v ${count[$v]}, "; done
printf "total: %sover 30 s %d, slowest %s %.2fs\n" "$tally" "$over" "$slowest_name" "$slowest"
