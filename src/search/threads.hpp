// Lazy SMP: N searchers, each with its own stack and histories, over the one shared
// transposition table. Thread 0 reports, manages time and tells the helpers to stop; the
// move played comes from the thread with the deepest completed iteration (then the best
// score). With one thread the search is deterministic, so `bench` identifies it.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "search/search.hpp"

namespace horizon {

class ThreadPool {
public:
    ThreadPool(TranspositionTable& tt, SearchSignals& signals);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // Number of search threads (at least 1). Call only while no search runs.
    void set_count(int n);
    int count() const { return int(searchers_.size()); }
    Searcher& main() { return *searchers_[0]; }
    void clear();

    // Searches on the calling thread plus count() - 1 helper threads; returns when all
    // threads have stopped. `eval_params` (nullptr: the built-in weights) and `tables`
    // (nullptr: none) must stay unchanged until then.
    SearchResult run(const Position& root, const SearchLimits& limits, TimeManager& time,
                     const std::vector<Move>& searchmoves, int multipv,
                     const std::function<void(const SearchReport&)>& report,
                     const EvalParams* eval_params = nullptr, const SearchTables* tables = nullptr);

    std::uint64_t nodes() const;
    std::uint64_t tbhits() const;

private:
    // Runs searchers_[index] once for each generation after `done`.
    void helper_loop(std::size_t index, std::uint64_t done);
    void end_helpers();

    TranspositionTable& tt_;
    SearchSignals& signals_;
    std::vector<std::unique_ptr<Searcher>> searchers_;
    // The helper threads live from set_count to the next set_count (or the destructor) and
    // wait between searches: starting a thread per search cost 13 ms under Wine.
    std::vector<std::thread> helpers_; // helpers_[i - 1] runs searchers_[i]

    std::mutex mutex_;
    std::condition_variable start_cv_, done_cv_;
    std::uint64_t generation_ = 0; // one more for each search handed to the helpers
    int running_ = 0;              // helpers still searching the current generation
    bool quit_ = false;
    const Position* root_ = nullptr; // the current search, for the helpers
    const SearchContext* context_ = nullptr;
    std::vector<SearchResult> results_;
};

} // namespace horizon
