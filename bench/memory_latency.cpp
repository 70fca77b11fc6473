// The machine's load latency over working-set sizes (Google Benchmark): a
// dependent chain of loads, one per cache line, through a random cyclic
// permutation of `bytes` of memory, so that neither the out-of-order core
// nor the prefetchers can overlap them. ns per load at each size is what a
// cache miss of the simulator costs when its per-cycle working set has that
// size (README "Simulation speed": why CPU time per flit-hop follows the
// network's size).
//
//   ./build/bench/bench_memory_latency               # 32 KiB .. 1 GiB
//   ./build/bench/bench_memory_latency --benchmark_format=json
//
// The memory is allocated as the simulator's heap is (glibc malloc; collnet
// restarts itself with transparent huge pages, see README): with
// --huge_pages the buffer is advised for huge pages the same way.
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

namespace {

bool huge_pages = false;

struct alignas(64) Line {
  const Line* next;
  char pad[64 - sizeof(const Line*)];
};
static_assert(sizeof(Line) == 64);

struct Aligned {
  void operator()(Line* p) const { std::free(p); }
};

void LoadLatency(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const std::size_t lines = bytes / sizeof(Line);
  std::unique_ptr<Line, Aligned> memory(static_cast<Line*>(std::aligned_alloc(2u << 20, lines * sizeof(Line))));
  if (!memory) {
    state.SkipWithError("allocation failed");
    return;
  }
  if (huge_pages) ::madvise(memory.get(), lines * sizeof(Line), MADV_HUGEPAGE);
  // One cycle through every line in a random order (a seeded shuffle: the
  // same chain on every run).
  std::vector<std::uint32_t> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(lines));
  Line* base = memory.get();
  for (std::size_t i = 0; i < lines; ++i) base[order[i]].next = &base[order[(i + 1) % lines]];
  const Line* p = base;
  for (std::size_t i = 0; i < lines; ++i) p = p->next;  // warm the caches and the page tables
  constexpr std::int64_t kLoadsPerIteration = 4096;
  for (auto _ : state) {
    for (std::int64_t i = 0; i < kLoadsPerIteration; i += 8) {
      p = p->next; p = p->next; p = p->next; p = p->next;
      p = p->next; p = p->next; p = p->next; p = p->next;
    }
    benchmark::DoNotOptimize(p);
  }
  // Seconds per load (printed with its SI prefix: 5.6n is 5.6 ns).
  state.counters["per_load"] = benchmark::Counter(
      kLoadsPerIteration, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.SetLabel(huge_pages ? "huge pages" : "4 KiB pages");
}
BENCHMARK(LoadLatency)->RangeMultiplier(2)->Range(32 << 10, 1 << 30)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  // Our own flag first (Google Benchmark rejects flags it does not know).
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--huge_pages") == 0) huge_pages = true;
    else rest.push_back(argv[i]);
  }
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
