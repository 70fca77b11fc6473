#!/usr/bin/env bash
# Measures the per-window exchange of a run split over two MPI ranks on this
# machine (bench/mpi_exchange.cpp) and writes docs/mpi-exchange.json, then the
# partitioning model's table and plot (scripts/distributed_model.py):
# docs/distributed.md explains both. Installs Open MPI (Debian openmpi-bin,
# libopenmpi-dev) when it is missing; the README build does not need it.
# Run on a quiet machine: two ranks poll, so other load inflates the tail.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v mpirun >/dev/null || ! [ -e /usr/include/x86_64-linux-gnu/mpi.h -o -e /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends openmpi-bin libopenmpi-dev
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build --target bench_mpi_exchange
mpirun --allow-run-as-root --oversubscribe -np 2 build/bench/bench_mpi_exchange --iterations "${ITERATIONS:-20000}" \
  --json docs/mpi-exchange.json
/usr/bin/python3 scripts/distributed_model.py docs/mpi-exchange.json --out docs/distributed.png
