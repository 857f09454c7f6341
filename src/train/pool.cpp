#include "train/pool.hpp"

#include <algorithm>
#include <utility>

namespace horizon {

WorkerPool::WorkerPool(int threads) {
    for (int i = 1; i < std::max(threads, 1); ++i)
        workers_.emplace_back([this, i] { work(i); });
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_)
        t.join();
}

void WorkerPool::call(int index) {
    try {
        (*job_)(index);
    } catch (...) {
        std::lock_guard lock(mutex_);
        if (!failure_) failure_ = std::current_exception();
    }
}

void WorkerPool::work(int index) {
    std::uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
        }
        call(index);
        std::lock_guard lock(mutex_);
        if (--busy_ == 0) finished_.notify_one();
    }
}

void WorkerPool::run(const std::function<void(int)>& job) {
    {
        std::lock_guard lock(mutex_);
        job_ = &job;
        busy_ = int(workers_.size());
        failure_ = nullptr;
        ++generation_;
    }
    wake_.notify_all();
    call(0);
    std::exception_ptr failure;
    {
        std::unique_lock lock(mutex_);
        finished_.wait(lock, [&] { return busy_ == 0; });
        job_ = nullptr;
        failure = std::exchange(failure_, nullptr);
    }
    if (failure) std::rethrow_exception(failure);
}

void WorkerPool::run_slices(std::size_t n,
                            const std::function<void(int, std::size_t, std::size_t)>& job) {
    const std::size_t parts = std::size_t(size());
    run([&](int t) {
        const std::size_t begin = n * std::size_t(t) / parts;
        const std::size_t end = n * (std::size_t(t) + 1) / parts;
        job(t, begin, end);
    });
}

} // namespace horizon
