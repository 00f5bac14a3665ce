// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace costscope::cpu {

// A fixed set of worker threads for data-parallel loops. The calling thread takes part, so a pool of N threads
// has N - 1 workers. Plans on different threads may share a pool: their loops take turns. A loop body must not
// start another parallelFor on the same pool.
// Workers and the caller spin briefly (kSpin) before sleeping on a condition variable: a graph's nodes follow each
// other within microseconds, and waking a sleeping thread through the kernel cost 10 to 40 us a loop on the
// development VM, more than many small nodes' work.
// The cores this process may run on: its CPU affinity mask (taskset, a container's cpuset), at least 1.
// std::thread::hardware_concurrency counts every online core: a pool of 16 threads pinned to 2 cores time-shares
// them, spinning, and its times swing by 3x from run to run.
unsigned usableCores();

class ThreadPool {
public:
    explicit ThreadPool(unsigned threads = usableCores());
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    unsigned size() const { return static_cast<unsigned>(m_workers.size()) + 1; }
    // Calls fn(begin, end) over disjoint ranges covering [0, n); ranges hold at least `grain` items except the
    // last. Runs inline when one chunk suffices.
    void parallelFor(std::int64_t n, std::int64_t grain, const std::function<void(std::int64_t, std::int64_t)>& fn);

private:
    void workerLoop(unsigned index);

    std::vector<std::thread> m_workers;
    std::mutex m_callerMutex; // one loop at a time
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    const std::function<void(std::int64_t, std::int64_t)>* m_task = nullptr;
    std::int64_t m_n = 0;
    std::int64_t m_chunks = 0;
    std::int64_t m_nextChunk = 0;
    std::atomic<std::int64_t> m_pending = 0;   // written under m_mutex, read by the caller's spin
    std::uint64_t m_generation = 0;
    std::atomic<std::uint64_t> m_published = 0; // m_generation, for the workers' spin
    bool m_stop = false;
};

} // namespace costscope::cpu
