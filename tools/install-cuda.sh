#!/usr/bin/env bash
# Installs the distribution's CUDA toolkit (nvcc, cudart, cuBLAS, headers) when nvcc
# is missing: package nvidia-cuda-toolkit, CUDA 11.8 on Debian 12. Debian ships it in
# non-free (this adds contrib and non-free to the sources that list main), Ubuntu in
# multiverse (this adds multiverse where it is missing). `make test` and `make bench`
# run it themselves when nvcc is missing and they run as root on Debian or Ubuntu.
set -euo pipefail
if command -v nvcc >/dev/null 2>&1; then
  echo "install-cuda: $(nvcc --version | tail -1)"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-cuda: nvcc is missing and this is not root; install nvidia-cuda-toolkit (Debian non-free) yourself" >&2
  exit 1
fi
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  if grep -q '^Components: main$' "$f"; then
    sed -i 's/^Components: main$/Components: main contrib non-free/' "$f"
  fi
done
if [ -f /etc/apt/sources.list ]; then
  sed -i -E '/^deb .*debian/ s/ main$/ main contrib non-free/' /etc/apt/sources.list
fi
# Ubuntu: deb822 sources list "Components: main restricted universe ..."; the
# toolkit is in multiverse.
if grep -qs '^ID=ubuntu' /etc/os-release; then
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    if grep -q '^Components: main' "$f" && ! grep -q '^Components:.*multiverse' "$f"; then
      sed -i 's/^Components: main\(.*\)$/Components: main\1 multiverse/' "$f"
    fi
  done
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit >/dev/null
echo "install-cuda: $(nvcc --version | tail -1)"
