// Lazy SMP: N searchers, each with its own stack and histories, over the one shared
// transposition table. Thread 0 reports, manages time and tells the helpers to stop; the
// move played comes from the thread with the deepest completed iteration (then the best
// score). With one thread the search is deterministic, so `bench` identifies it.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "search/search.hpp"

namespace horizon {

class ThreadPool {
public:
    ThreadPool(TranspositionTable& tt, SearchSignals& signals);

    // Number of search threads (at least 1). Call only while no search runs.
    void set_count(int n);
    int count() const { return int(searchers_.size()); }
    Searcher& main() { return *searchers_[0]; }
    void clear();

    // Searches on the calling thread plus count() - 1 helper threads; returns when all
    // threads have stopped. `eval_params` (nullptr: the built-in weights) must stay unchanged
    // until then.
    SearchResult run(const Position& root, const SearchLimits& limits, TimeManager& time,
                     const std::vector<Move>& searchmoves, int multipv,
                     const std::function<void(const SearchReport&)>& report,
                     const EvalParams* eval_params = nullptr);

    std::uint64_t nodes() const;

private:
    TranspositionTable& tt_;
    SearchSignals& signals_;
    std::vector<std::unique_ptr<Searcher>> searchers_;
};

} // namespace horizon
