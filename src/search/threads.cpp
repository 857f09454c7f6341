#include "search/threads.hpp"

#include <thread>

namespace horizon {

ThreadPool::ThreadPool(TranspositionTable& tt, SearchSignals& signals)
    : tt_(tt), signals_(signals) {
    set_count(1);
}

void ThreadPool::set_count(int n) {
    n = std::max(n, 1);
    while (int(searchers_.size()) > n) searchers_.pop_back();
    while (int(searchers_.size()) < n)
        searchers_.push_back(std::make_unique<Searcher>(tt_, signals_, int(searchers_.size())));
}

void ThreadPool::clear() {
    for (auto& s : searchers_) s->clear();
}

std::uint64_t ThreadPool::nodes() const {
    std::uint64_t n = 0;
    for (const auto& s : searchers_) n += s->nodes();
    return n;
}

SearchResult ThreadPool::run(const Position& root, const SearchLimits& limits, TimeManager& time,
                             const std::vector<Move>& searchmoves, int multipv,
                             const std::function<void(const SearchReport&)>& report,
                             const EvalParams* eval_params) {
    tt_.new_search();
    signals_.helpers_stop = false;
    signals_.deepest = 0;
    SearchContext context;
    context.limits = &limits;
    context.time = &time;
    context.searchmoves = &searchmoves;
    context.multipv = multipv;
    context.report = report;
    context.total_nodes = [this] { return nodes(); };
    context.eval_params = eval_params;

    for (auto& s : searchers_) s->reset_nodes();
    std::vector<SearchResult> results(searchers_.size());
    std::vector<std::thread> helpers;
    for (std::size_t i = 1; i < searchers_.size(); ++i)
        helpers.emplace_back([&, i] { results[i] = searchers_[i]->run(root, context); });
    results[0] = searchers_[0]->run(root, context);
    signals_.helpers_stop = true;
    for (auto& t : helpers) t.join();

    // The deepest completed iteration wins; among equals, the better score.
    std::size_t best = 0;
    for (std::size_t i = 1; i < results.size(); ++i) {
        const SearchResult& r = results[i];
        if (!r.best) continue;
        if (r.depth > results[best].depth ||
            (r.depth == results[best].depth && r.score > results[best].score))
            best = i;
    }
    SearchResult result = results[best];
    result.nodes = nodes();
    return result;
}

} // namespace horizon
