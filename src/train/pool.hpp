// The tuner's threads: a fixed set that runs one job at a time over slices of the data.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace horizon {

// A fixed set of threads that run one job at a time: run(job) calls job(t) for every
// t in 0..size()-1 (t = 0 on the calling thread) and returns when all have finished.
class WorkerPool {
public:
    explicit WorkerPool(int threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int size() const { return int(workers_.size()) + 1; }
    void run(const std::function<void(int)>& job);
    // Splits [0, n) into size() contiguous slices: job(t, begin, end).
    void run_slices(std::size_t n, const std::function<void(int, std::size_t, std::size_t)>& job);

private:
    void work(int index);
    void call(int index);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, finished_;
    const std::function<void(int)>* job_ = nullptr;
    std::uint64_t generation_ = 0;
    int busy_ = 0;
    bool stop_ = false;
    std::exception_ptr failure_;
};

} // namespace horizon
