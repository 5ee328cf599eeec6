#!/usr/bin/env bash
# The metamorphic corpus: every correct candidate in examples/ (expected "real: equivalent"),
# rewritten by tests/variants/make_variants.py into equivalent variants, must be proved by
# keq verify --no-smt at the example's configuration. Prints the share proved by transformation
# and every variant not proved. Fails when a variant is refuted (NOT_EQUIVALENT: a soundness
# bug, or a transformation that is not equivalent) or when a verdict is an ERROR.
#   tests/variants/run.sh KEQ SRC [EXAMPLE...]
set -uo pipefail
keq="$1"
src="$2"
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
examples=("$@")
if [ ${#examples[@]} -eq 0 ]; then
  for e in "$src"/examples/*/expected; do
    grep -q "^real: equivalent" "$e" && [ -f "$(dirname "$e")/cand.py" ] && examples+=("$(basename "$(dirname "$e")")")
  done
fi
bad=0
: > "$work/results"
for e in "${examples[@]}"; do
  dir="$src/examples/$e"
  dims=$(grep '^dims:' "$dir/expected" | sed 's/^dims: *//')
  python3 "$src/tests/variants/make_variants.py" "$dir/cand.py" "$work/$e" || { echo "FAIL: $e: variants not made"; bad=1; continue; }
  cp "$dir/cand.py" "$work/$e/original.py"  # the baseline: a variant of an original that needs Z3 is not the transformation's gap
  for v in "$work/$e"/*.py; do
    [ -f "$v" ] || continue
    t=$(basename "$v" .py)
    # In a copy of the example's folder (imports resolve as for cand.py; the source tree stays
    # untouched if the run is killed).
    rm -rf "$work/run" && cp -r "$dir" "$work/run" && cp "$v" "$work/run/cand.py"
    out=$("$keq" verify "$work/run/ref.py" "$work/run/cand.py" ${dims:+--dims "$dims"} --no-smt --timeout 60 2>&1)
    verdict=$(echo "$out" | head -1 | cut -d: -f1)
    echo "$t $e $verdict $(echo "$out" | head -1 | cut -d: -f2- | cut -c1-150)" >> "$work/results"
  done
done
echo "transformation          proved / variants   refuted   (of originals proved by --no-smt)"
awk '$1=="original" && $3=="EQUIVALENT" {base[$2]=1} {rows[NR]=$0}
     END {for (k=1; k<=NR; k++) {split(rows[k], f, " "); t=f[1]; if (t=="original") continue;
            n[t]++; if (f[3]=="EQUIVALENT") p[t]++; if (f[3]=="NOT_EQUIVALENT") r[t]++;
            if (f[2] in base) {nb[t]++; if (f[3]=="EQUIVALENT") pb[t]++}}
          for (t in n) {printf "%-24s %6d / %-8d %7d   %d / %d\n", t, p[t], n[t], r[t], pb[t], nb[t];
                        P+=p[t]; N+=n[t]; R+=r[t]; PB+=pb[t]; NB+=nb[t]}
          printf "%-24s %6d / %-8d %7d   %d / %d  (%.0f%% proved; %.0f%% of those)\n", "all", P, N, R, PB, NB,
                 N ? 100*P/N : 0, NB ? 100*PB/NB : 0}' "$work/results" | sort
echo "originals not proved by --no-smt (their variants count in the first column only):"
awk '$1=="original" && $3!="EQUIVALENT" {print "  " $2 ": " $3}' "$work/results"
echo "variants not proved:"
awk '$1!="original" && $3!="EQUIVALENT" {print "  " $0}' "$work/results"
grep -qE " (NOT_EQUIVALENT|ERROR) " "$work/results" && bad=1
exit $bad
