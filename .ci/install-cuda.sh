#!/usr/bin/env bash
# Installs Debian's CUDA 11.8 toolkit (nvcc, cudart, cuBLAS, headers) when nvcc is missing.
# Debian ships it in the non-free component; this adds contrib and non-free to the
# deb822 sources that list main, then installs nvidia-cuda-toolkit.
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
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit >/dev/null
echo "install-cuda: $(nvcc --version | tail -1)"
