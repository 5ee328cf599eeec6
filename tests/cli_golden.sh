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
check rules-dir-override 1 "rules: 0 of 0 loaded apply" env KEQ_RULES_DIR="$tmp/none" "$keq" egraph "$tmp/issue.eg"

exit $fail
