#!/usr/bin/env bash
# Runs `keq inspect --dims default` (then `--dims scaled` where that fails) on every KernelBench-style reference in a folder (level1/,
# level2/ of a KernelBench checkout, say) and tallies the outcome: ok, UNSUPPORTED (with the
# construct), ERROR, or over the time limit. KernelBench's files are not part of this repository;
# point the script at a copy.
# usage: measure.sh KEQ DIR [SECONDS]
set -uo pipefail
keq="$1"
dir="$2"
limit="${3:-20}"
ok=0 unsupported=0 error=0 slow=0
for f in $(ls "$dir"/*.py | sort -V); do
  start=$(date +%s.%N)
  # As keq verify's default bound does: distinct small sizes, else the file's own scaled down.
  out=$(timeout "$limit" "$keq" inspect "$f" --dims default --max-chars 80 2>&1)
  rc=$?
  for mode in scaled scaled:8 scaled:32; do
    [ $rc -ne 0 ] && [ $rc -ne 3 ] || break
    out=$(timeout "$limit" "$keq" inspect "$f" --dims $mode --max-chars 80 2>&1)
    rc=$?
  done
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  name=$(basename "$f")
  case $rc in
    0) ok=$((ok + 1)); printf "ok          %-8s %6.2fs\n" "$name" "$secs" ;;
    3) unsupported=$((unsupported + 1))
       printf "UNSUPPORTED %-8s %s\n" "$name" "$(echo "$out" | grep -m1 UNSUPPORTED | sed 's/^UNSUPPORTED: [^ ]*: //')" ;;
    124) slow=$((slow + 1)); printf "TIMEOUT     %-8s over %ss\n" "$name" "$limit" ;;
    *) error=$((error + 1)); printf "ERROR       %-8s %s\n" "$name" "$(echo "$out" | grep -m1 -E 'ERROR|error' | cut -c1-160)" ;;
  esac
done
echo "total: ok $ok, unsupported $unsupported, error $error, over ${limit}s $slow"
