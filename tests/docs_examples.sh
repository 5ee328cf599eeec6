#!/usr/bin/env bash
# docs/architecture.md's worked examples are true: the page quotes each docs/examples/ file as it
# is, and keq proves what the page says it proves.
set -u
keq="$1"
src="$2"
doc="$src/docs/architecture.md"
fail=0
for f in "$src"/docs/examples/*; do
  while IFS= read -r line; do
    if ! grep -qxF -- "$line" "$doc"; then
      echo "FAIL $(basename "$f"): docs/architecture.md does not quote the line: $line"
      fail=1
    fi
  done <"$f"
done
# The seed rule the page shows is the one in rules/.
rule=$(grep -F "(rule log1p-def" "$doc")
grep -qxF -- "$rule" "$src/rules/explog.rules" || { echo "FAIL: the page's log1p-def is not rules/explog.rules'"; fail=1; }
out=$("$keq" egraph "$src/docs/examples/softplus.eg" --explain 2>&1)
rc=$?
if [ $rc != 0 ] || ! grep -qF "; log1p-def" <<<"$out"; then
  echo "FAIL softplus.eg: exit $rc, output:"
  echo "$out"
  fail=1
fi
[ $fail = 0 ] && echo "ok   docs examples"
exit $fail
