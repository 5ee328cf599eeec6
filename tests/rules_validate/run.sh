#!/usr/bin/env bash
# keq rules validate on the CPU (the fallback CI runs; the GPU runs are in bench/README.md):
# every seeded wrong rule has mismatches with counterexamples and exit 1; the narrow-format rules
# and the shipped rules have none (exit 0), and enumeration covers the formats it claims.
set -uo pipefail
keq="$1"
src="$2"
fail() { echo "FAIL: $*"; exit 1; }

out=$("$keq" rules validate "$src/tests/rules_validate/seeded_wrong.rules" --samples 65536)
rc=$?
echo "$out"
want=$(grep -c "^(rule" "$src/tests/rules_validate/seeded_wrong.rules")
got=$(echo "$out" | grep -cE "^[a-z0-9-]+ +(ieee|real) .* sampled +[0-9]+ [1-9]")
[ $rc -eq 1 ] || fail "seeded wrong rules: exit $rc, expected 1"
[ "$got" = "$want" ] || fail "expected $want rules with mismatches, got $got"
echo "$out" | grep -q "at a = inf: left nan, right 0" || fail "x - x at inf not shown"
echo "$out" | grep -q "at a = inf: left 448, right nan" || fail "saturating cast at inf not shown"

out=$("$keq" rules validate "$src/tests/rules_validate/formats.rules" --samples 65536)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "narrow-format rules: exit $rc, expected 0"
echo "$out" | grep -qE "^e5m2-sum-f16 +ieee +e5m2 x e5m2, all +65536 0 " || fail "e5m2 pairs not enumerated"
echo "$out" | grep -qE "^e4m3-in-f16 +ieee +e4m3, all +256 0 " || fail "e4m3 values not enumerated"

out=$("$keq" rules validate --samples 8192)
rc=$?
echo "$out" | tail -1
[ $rc -eq 0 ] || { echo "$out" | grep -vE " 0 +[0-9.]+ ms| 0 of "; fail "shipped rules: exit $rc"; }

# Bad input is an error (exit 4), not a crash.
"$keq" rules validate --device gpu >/dev/null 2>&1; [ $? -eq 4 ] || fail "--device gpu accepted"
"$keq" rules validate --format f64 >/dev/null 2>&1; [ $? -eq 4 ] || fail "--format f64 accepted"
"$keq" rules validate --samples 0 >/dev/null 2>&1; [ $? -eq 4 ] || fail "--samples 0 accepted"
KEQ_CXX=/nonexistent "$keq" rules validate "$src/tests/rules_validate/formats.rules" >/dev/null 2>&1
[ $? -eq 4 ] || fail "a missing compiler is not an error"
echo "PASS"
