#!/usr/bin/env bash
# keq rules check: the shipped rules have no refuted rule, every real one is proved (IEEE ones
# may be unknown, with the reason),
# and every rule in false.rules is refuted with a counterexample.
set -uo pipefail
keq="$1"
src="$2"
out=$("$keq" rules check)
rc=$?
echo "$out" | tail -1
if [ $rc -ne 0 ] && [ $rc -ne 2 ]; then
  echo "$out" | grep -E "REFUTED|error"
  echo "FAIL: a shipped rule is refuted (exit $rc)"
  exit 1
fi
# Every shipped real rule is proved (issue 14's acceptance); IEEE ones may stay unknown.
unproved=$(echo "$out" | grep -E "^[^ ]+ +real +" | grep -v " proved ")
if [ -n "$unproved" ]; then
  echo "$unproved"
  echo "FAIL: a shipped real rule is not proved"
  exit 1
fi
out=$("$keq" rules check "$src/tests/rules_check/false.rules")
rc=$?
want=$(grep -c "^(rule" "$src/tests/rules_check/false.rules")
got=$(echo "$out" | grep -c " REFUTED ")
echo "$out"
if [ $rc -ne 1 ] || [ "$got" != "$want" ]; then
  echo "FAIL: expected $want refuted rules and exit 1, got $got and exit $rc"
  exit 1
fi
