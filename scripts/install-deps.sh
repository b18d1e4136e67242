#!/usr/bin/env bash
# Installs the Debian packages tlmgpu needs, only those missing. Idempotent.
set -euo pipefail
pkgs=(build-essential cmake pkg-config libsystemc-dev libboost-program-options-dev
      nlohmann-json3-dev catch2 zlib1g-dev liblzma-dev libbz2-dev libzstd-dev
      slurm-wlm munge parallel)
# Extra packages one script needs and the main build does not (scripts/fuzz.sh:
# clang and its libFuzzer runtime; tests/cli/report_browser.sh: chromium,
# about 410 MB installed, so opt-in: the test skips without it).
read -r -a extra <<<"${TLMGPU_EXTRA_PKGS:-}"
pkgs+=("${extra[@]}")
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "tlmgpu: installing missing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
