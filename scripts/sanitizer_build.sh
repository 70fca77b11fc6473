# Sourced by scripts/sanitize.sh and scripts/tsan.sh: the preamble and the
# configure step of an instrumented build tree.
#
#   sanitizer_configure DIR TYPE "COMPILE FLAGS" "LINK FLAGS" ["EXTRA CXX FLAGS" [CMAKE ARG ...]]
#
# configures DIR (Ninja, CMAKE_BUILD_TYPE=TYPE) with the flags for C and C++
# (and any further cache settings given),
# without the benchmarks and the Python module (an instrumented module cannot
# be loaded by an uninstrumented python3; its tests run in the README build).
# Sets `jobs` to the cores available and `start` to the time it began.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
if [ -f /etc/profile.d/ccache-collnet.sh ]; then source /etc/profile.d/ccache-collnet.sh; fi
jobs="$(nproc)"

sanitizer_configure() {
  local dir="$1" type="$2" flags="$3" link="$4" extra="${5:-}"
  local cache_args=("${@:6}")
  local upper
  upper="$(echo "$type" | tr '[:lower:]' '[:upper:]')"
  start=$(date +%s)
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" \
    -DCMAKE_CXX_FLAGS_"$upper"="$flags $extra" \
    -DCMAKE_C_FLAGS_"$upper"="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS_"$upper"="$link" \
    -DCOLLNET_BUILD_BENCHMARKS=OFF -DCOLLNET_PYTHON_MODULE=OFF "${cache_args[@]}" >/dev/null
}
