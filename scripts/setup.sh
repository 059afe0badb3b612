#!/usr/bin/env bash
# Installs the Debian 12 packages the toolkit needs (idempotent: apt runs only
# when something is missing).  Run as root or with sudo available.
#   scripts/setup.sh           build, test and plot
#   scripts/setup.sh --slurm   also Slurm and munge, for tests/slurm_test.sh
#   scripts/setup.sh --fuzz    also clang, libFuzzer and llvm-symbolizer, for scripts/fuzz.sh
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libtbb-dev libboost-program-options-dev nlohmann-json3-dev libzstd-dev libxxhash-dev libglpk-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-dev python3-matplotlib pybind11-dev help2man bash-completion
  libopenmpi-dev openmpi-bin
)
for arg in "$@"; do
  case "$arg" in
    --slurm) packages+=(slurmctld slurmd slurm-client munge) ;;
    # libFuzzer ships in libclang-rt-14-dev (a mere recommendation of clang);
    # llvm-14 has the symbolizer for readable sanitizer reports.
    --fuzz) packages+=(clang libclang-rt-14-dev llvm-14) ;;
    *) echo "setup.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
