#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, AddressSanitizer + UBSan) in build-fuzz/ and runs each
# for SECONDS (default 60; CI runs 30 to keep the suite under its 30 minutes, the acceptance
# runs are `scripts/fuzz.sh 600`).
# Seeds: examples/ and tests/golden (Python), rules/*.rules, examples/egraph/*.eg. Crashes are
# written to build-fuzz/crashes/TARGET/ and fail the run. Prints executions, coverage (edges
# and features) per target, and for the parser the share of inputs that parsed.
# usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_python_parser fuzz_interpreter fuzz_rules fuzz_sexp)
bash scripts/install-deps.sh >/dev/null
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEQ_FUZZ=ON \
  -DKEQ_BUILD_TESTS=OFF -DKEQ_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]}" >/dev/null
seed() {  # target, source globs...
  local dir="build-fuzz/corpus/$1"
  shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/$(echo "$f" | tr / _)"; done
}
status=0
printf '%-20s %12s %8s %8s %s\n' target executions edges features notes
for t in "${targets[@]}"; do
  case "$t" in
    fuzz_python_parser | fuzz_interpreter)
      seed "$t" examples/*/*.py tests/golden/parser/*.py tests/golden/candidates/*.py
      dict=(-dict=tests/fuzz/python.dict) ;;
    fuzz_rules) seed "$t" rules/*.rules; dict=() ;;
    fuzz_sexp) seed "$t" examples/egraph/*.eg; dict=() ;;
  esac
  mkdir -p "build-fuzz/crashes/$t"
  log="build-fuzz/$t.log"
  if ! ASAN_OPTIONS=detect_leaks=0 "build-fuzz/tests/fuzz/$t" "build-fuzz/corpus/$t" "${dict[@]}" \
      -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1 \
      -artifact_prefix="build-fuzz/crashes/$t/" >"$log" 2>&1; then
    echo "FAIL $t: see $log and build-fuzz/crashes/$t/"
    tail -30 "$log"
    status=1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo ?)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo ?)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo ?)
  note=$(grep -o 'keq-fuzz: .*' "$log" | tail -1 || true)
  printf '%-20s %12s %8s %8s %s\n' "$t" "$runs" "$cov" "$ft" "${note#keq-fuzz: }"
done
exit $status
