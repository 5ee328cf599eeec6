#!/usr/bin/env bash
# Installs keq's build and test dependencies from Debian's packages. Idempotent: packages already
# present are left alone, and apt-get runs only when something is missing.
set -euo pipefail
pkgs=(g++ cmake make libz3-dev libabsl-dev libprotobuf-dev protobuf-compiler libbenchmark-dev
      libgtest-dev libgmock-dev libmpfr-dev libgmp-dev clang libclang-rt-14-dev python3)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
