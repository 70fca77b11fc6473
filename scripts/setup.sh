#!/usr/bin/env bash
# Installs the Debian packages collnet needs. Idempotent, no prompts.
# Run as root (or with sudo available). Safe to run again: packages already
# present are skipped, so a second run costs one dpkg query per package.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  libsystemc-dev verilator gtkwave xvfb xauth imagemagick yosys z3 nextpnr-ice40 fpga-icestorm
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libfmt-dev libpugixml-dev
  protobuf-compiler libprotobuf-dev python3-protobuf
  python3 python3-matplotlib python3-yaml python3-scipy zlib1g-dev
  pybind11-dev python3-pybind11 python3-pytest python3-pandas python3-numpy
  mkdocs mkdocs-material
  slurm-wlm munge
  clang libclang-rt-14-dev
  libtsan2 valgrind heaptrack
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
echo "setup: installing ${missing[*]}"
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
