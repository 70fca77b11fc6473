// The worker thread a piece of code runs on (key `threads`, clocked.hpp):
// 0 on the main thread (which also runs worker 0's partition of a threaded
// cycle and everything outside the parallel phase), 1 .. threads-1 on the
// others. State that several partitions update (packet records, network
// activity) keeps one lane per worker and indexes it with this.
#pragma once

namespace collnet::systemc {

inline thread_local constinit unsigned current_worker = 0;

}  // namespace collnet::systemc
