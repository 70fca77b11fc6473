// The per-window exchange of a conservatively synchronized, partitioned run,
// measured between MPI ranks (docs/distributed.md).
//
// A run split over P ranks advances in windows of L cycles, L being the
// smallest link latency across a cut (the lookahead): nothing a rank does in
// window w can reach another rank before window w + 1. At the end of each
// window every rank sends its neighbours the flits and credits that crossed
// the cut in that window and receives theirs; receiving them is the only
// synchronization needed. This program times that step alone: each rank
// exchanges `bytes` with each neighbour (a ring of ranks: two neighbours when
// P > 2, one when P = 2) with MPI_Sendrecv, many times, and reports the mean
// and percentiles of one exchange for each message size.
//
// Usage: mpirun -np 2 bench/mpi_exchange [--iterations N] [--json FILE]
#include <mpi.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Row {
  std::size_t bytes;
  double mean_us;
  double p50_us;
  double p99_us;
};

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
  return v[i];
}

int usage(int rank, const char* why) {
  if (rank == 0) std::fprintf(stderr, "mpi_exchange: %s\nusage: mpi_exchange [--iterations N] [--json FILE]\n", why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iterations = 20000;
  std::string json;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--iterations" && i + 1 < argc) {
      char* end = nullptr;
      iterations = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || iterations < 100) {
        const int status = usage(rank, "--iterations takes an integer of at least 100");
        MPI_Finalize();
        return status;
      }
    } else if (arg == "--json" && i + 1 < argc) {
      json = argv[++i];
    } else {
      const int status = usage(rank, ("unknown argument '" + arg + "'").c_str());
      MPI_Finalize();
      return status;
    }
  }
  if (size < 2) {
    const int status = usage(rank, "needs at least 2 ranks (mpirun -np 2)");
    MPI_Finalize();
    return status;
  }

  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  // What crosses a cut per link and cycle at most: one flit (16-byte Flit,
  // 8-byte arrival cycle, 4-byte link id; a head flit also carries its
  // 32-byte packet record, counted in the per-link average) and one credit
  // (link, VC, cycle): kLinkCycle bytes. Sizes: synchronization alone, then
  // 1 to 2048 link-cycles (a cut of 32 links over a 64-cycle window).
  constexpr std::size_t kLinkCycle = 48;
  std::vector<std::size_t> sizes = {0};
  for (std::size_t lc : {1, 8, 32, 128, 512, 2048}) sizes.push_back(lc * kLinkCycle);
  std::vector<char> send(sizes.back() + 1, 1);
  std::vector<char> recv_right(sizes.back() + 1);
  std::vector<char> recv_left(sizes.back() + 1);
  std::vector<Row> rows;
  std::vector<double> samples(static_cast<std::size_t>(iterations));
  for (const std::size_t bytes : sizes) {
    const int count = static_cast<int>(bytes);
    for (long warm = 0; warm < iterations / 10; ++warm) {
      MPI_Sendrecv(send.data(), count, MPI_BYTE, right, 0, recv_left.data(), count, MPI_BYTE, left, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (size > 2)
        MPI_Sendrecv(send.data(), count, MPI_BYTE, left, 1, recv_right.data(), count, MPI_BYTE, right, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (long it = 0; it < iterations; ++it) {
      const auto t0 = std::chrono::steady_clock::now();
      MPI_Sendrecv(send.data(), count, MPI_BYTE, right, 0, recv_left.data(), count, MPI_BYTE, left, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (size > 2)
        MPI_Sendrecv(send.data(), count, MPI_BYTE, left, 1, recv_right.data(), count, MPI_BYTE, right, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const auto t1 = std::chrono::steady_clock::now();
      samples[static_cast<std::size_t>(it)] = std::chrono::duration<double, std::micro>(t1 - t0).count();
    }
    double sum = 0;
    for (double s : samples) sum += s;
    rows.push_back({bytes, sum / static_cast<double>(iterations), percentile(samples, 0.5), percentile(samples, 0.99)});
  }

  if (rank == 0) {
    std::printf("ranks %d, %ld exchanges per size (rank 0's times)\n", size, iterations);
    std::printf("%10s %12s %12s %12s\n", "bytes", "mean us", "p50 us", "p99 us");
    for (const Row& r : rows) std::printf("%10zu %12.2f %12.2f %12.2f\n", r.bytes, r.mean_us, r.p50_us, r.p99_us);
    if (!json.empty()) {
      nlohmann::json doc = {{"ranks", size}, {"iterations", iterations}, {"link_cycle_bytes", kLinkCycle}};
      for (const Row& r : rows)
        doc["exchanges"].push_back({{"bytes", r.bytes}, {"mean_us", r.mean_us}, {"p50_us", r.p50_us}, {"p99_us", r.p99_us}});
      std::ofstream out(json);
      out << doc.dump(2) << "\n";
      if (!out) {
        std::fprintf(stderr, "mpi_exchange: cannot write %s\n", json.c_str());
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
