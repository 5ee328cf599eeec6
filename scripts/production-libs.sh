#!/usr/bin/env bash
# Fetches the production kernel libraries that tests/realworld/production/ reads, pinned by
# version and sha256, from PyPI's files (sdists, or a wheel where the sdist will not build its
# metadata without CUDA or the package is pure Python), and lays their Python packages out in one folder for keq's
# --python-path. Nothing is built or installed: keq reads the sources. No third-party code
# lands in the repository: the folder is .cache/production-libs (or $KEQ_PRODUCTION_LIBS).
# Prints the folder. Idempotent; a lock serializes concurrent callers.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${KEQ_PRODUCTION_LIBS:-.cache/production-libs}"
files="https://files.pythonhosted.org/packages"
# name  url  sha256  package folder inside the archive
libs=(
  "mamba_ssm $files/af/48/aa7bec0efc7453fa0512276c0069c854bf684219050294266534bfef34bb/mamba_ssm-2.3.2.post1.tar.gz 104cc47e9101e5401a675fa2b784f2952b9b037f3b1dd83b5ac544394e95d028 mamba_ssm-2.3.2.post1/mamba_ssm"
  "flash_attn $files/6c/b1/b77625e3d11260d2bd6a4fc249a4be9a3da97ff848e2222e810c4f0e0211/flash_attn-2.8.3.post2.tar.gz d0f9f0b08a986cdeadbffcf5ec8b3a8f514366c68ad1853d3ab061bc83cc340b flash_attn-2.8.3.post2/flash_attn"
  "xformers $files/de/5a/6e27734bd793adc44d0b8d294e67cfacf4ec590572c1aef51d683fc7a791/xformers-0.0.35.tar.gz f7fc183a58e4bf0e2ae339a18fb1b1d4a37854c0f2545b4f360fef001646ab76 xformers-0.0.35/xformers"
  "unsloth $files/c4/1b/c8d6f64fb4b45625cb2842bd4fad7e7c8fb4c54afc16e0a9ef444ef10079/unsloth-2026.10.9-py3-none-any.whl feb40b99bc4f8c543a36cbd0fe6e1410d6e4ac16bd4d0c731f607adce3d63bb0 unsloth"
  "unsloth_zoo $files/d2/19/9ef6283f40056d44dd0bed2bb08d3b59fba70bb007cda9e872d66888af33/unsloth_zoo-2026.10.9-py3-none-any.whl f68e0576b0e9bd2ef85f19bf665132c576b52ee4df923fbb16c81538a3cde676 unsloth_zoo"
  "fla_core $files/23/08/a1a16725117cddded90bb11afed4b31f23d97f7f554775e66af998818ef9/fla_core-0.6.0-py3-none-any.whl b0708b70e0b119cd58a0a5146ea56cb175cef6ed969d8ac60267e3e077ce3ebd fla"
  "torchao $files/19/55/ed9ad98f0f09d5a1124d09830043d13a39e63539f9590d2bdb6d71cbc4a4/torchao-0.18.0-cp310-abi3-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl 6540b148e40ba81cbd4de86392225a076a1591146e9cebb099b3b234ba9feebe torchao"
)
ready() {
  for lib in "${libs[@]}"; do
    read -r name _ sha _ <<<"$lib"
    [ -f "$dest/.$name.$sha" ] || return 1
  done
}
if ready; then echo "$dest"; exit 0; fi
mkdir -p "$dest"
exec 9>"$dest/.lock"
flock 9
if ready; then echo "$dest"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for lib in "${libs[@]}"; do
  read -r name url sha inside <<<"$lib"
  [ -f "$dest/.$name.$sha" ] && continue
  file="$tmp/${url##*/}"
  curl -fsSL --retry 3 -o "$file" "$url" >&2
  echo "$sha  $file" | sha256sum -c --quiet - >&2
  rm -rf "${dest:?}/$name"
  case "$file" in
    *.tar.gz)
      tar xzf "$file" -C "$tmp"
      mv "$tmp/$inside" "$dest/$name"
      ;;
    *.whl)  # a wheel is a zip: its package and .dist-info (importlib.metadata reads it)
      python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
        "$file" "$dest"
      ;;
  esac
  touch "$dest/.$name.$sha"
done
echo "$dest"
