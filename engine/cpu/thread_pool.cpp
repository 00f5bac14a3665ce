// SPDX-License-Identifier: MIT
#include "cpu/thread_pool.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <sched.h>
#endif

namespace costscope::cpu {

unsigned usableCores()
{
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return static_cast<unsigned>(CPU_COUNT(&set));
#endif
    return std::max(1u, std::thread::hardware_concurrency());
}

namespace {
// How long a thread polls before it sleeps; a worker between two nodes of a running graph stays awake.
constexpr auto kSpin = std::chrono::microseconds(100);

void relax()
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

// Polls `done` until it holds or kSpin has passed; true when it held.
template <typename Done>
bool spinUntil(Done done)
{
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (int i = 0;; ++i) {
        if (done())
            return true;
        relax();
        if ((i & 63) == 63 && std::chrono::steady_clock::now() > until)
            return false;
    }
}
} // namespace

ThreadPool::ThreadPool(unsigned threads)
{
    const unsigned n = std::max(threads, 1u);
    for (unsigned i = 1; i < n; ++i)
        m_workers.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& t : m_workers)
        t.join();
}

void ThreadPool::workerLoop(unsigned)
{
    std::uint64_t seen = 0;
    std::unique_lock lock(m_mutex);
    const auto ready = [&] { return m_stop || (m_generation != seen && m_nextChunk < m_chunks); };
    for (;;) {
        if (!ready()) {
            seen = m_generation; // a loop the others finished without us counts as seen
            lock.unlock();
            spinUntil([&] { return m_published.load(std::memory_order_acquire) != seen; });
            lock.lock();
            m_wake.wait(lock, ready);
        }
        if (m_stop)
            return;
        seen = m_generation;
        while (m_nextChunk < m_chunks) {
            const std::int64_t c = m_nextChunk++;
            const auto* task = m_task;
            const std::int64_t n = m_n, chunks = m_chunks;
            lock.unlock();
            (*task)(n * c / chunks, n * (c + 1) / chunks);
            lock.lock();
            if (--m_pending == 0)
                m_done.notify_all();
        }
    }
}

void ThreadPool::parallelFor(std::int64_t n, std::int64_t grain,
                             const std::function<void(std::int64_t, std::int64_t)>& fn)
{
    if (n <= 0)
        return;
    const std::int64_t wanted = n / std::max<std::int64_t>(grain, 1);
    const std::int64_t chunks = std::min<std::int64_t>(size(), std::max<std::int64_t>(1, wanted));
    if (chunks <= 1 || m_workers.empty()) {
        fn(0, n);
        return;
    }
    std::lock_guard caller(m_callerMutex);
    std::unique_lock lock(m_mutex);
    m_task = &fn;
    m_n = n;
    m_chunks = chunks;
    m_nextChunk = 0;
    m_pending = chunks;
    ++m_generation;
    m_published.store(m_generation, std::memory_order_release);
    m_wake.notify_all();
    while (m_nextChunk < m_chunks) {
        const std::int64_t c = m_nextChunk++;
        lock.unlock();
        fn(n * c / chunks, n * (c + 1) / chunks);
        lock.lock();
        --m_pending;
    }
    if (m_pending != 0) {
        lock.unlock();
        spinUntil([&] { return m_pending.load(std::memory_order_acquire) == 0; });
        lock.lock();
    }
    m_done.wait(lock, [&] { return m_pending == 0; });
    m_task = nullptr;
}

} // namespace costscope::cpu
