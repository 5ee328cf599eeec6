#!/usr/bin/env bash
# The whole test suite in an AddressSanitizer + UBSan build (clang), in build-asan/. Not part of
# CI (a second full build does not fit its budget next to the normal one); run it before a
# release or after touching memory-heavy code. The torch cross-check is skipped here (it needs
# the test venv and checks semantics, not memory).
# usage: scripts/sanitize.sh [ctest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh >/dev/null
CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEQ_SANITIZE=ON \
  -DKEQ_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$(nproc)"
cd build-asan
# Leak checking is off: the interpreter's environments and closures hold each other through
# shared_ptr (cycles LeakSanitizer reports; keq is a short-lived process).
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j"$(nproc)" -E 'torch_crosscheck$' "$@"
