#include "search/threads.hpp"

namespace horizon {

ThreadPool::ThreadPool(TranspositionTable& tt, SearchSignals& signals)
    : tt_(tt), signals_(signals) {
    set_count(1);
}

ThreadPool::~ThreadPool() { end_helpers(); }

void ThreadPool::end_helpers() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    start_cv_.notify_all();
    for (auto& t : helpers_)
        t.join();
    helpers_.clear();
    quit_ = false;
}

void ThreadPool::set_count(int n) {
    n = std::max(n, 1);
    end_helpers();
    while (int(searchers_.size()) > n)
        searchers_.pop_back();
    while (int(searchers_.size()) < n)
        searchers_.push_back(std::make_unique<Searcher>(tt_, signals_, int(searchers_.size())));
    results_.assign(searchers_.size(), SearchResult{});
    signals_.threads = n;
    for (std::size_t i = 1; i < searchers_.size(); ++i)
        helpers_.emplace_back(&ThreadPool::helper_loop, this, i, generation_);
}

void ThreadPool::helper_loop(std::size_t index, std::uint64_t done) {
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            start_cv_.wait(lock, [&] { return quit_ || generation_ != done; });
            if (quit_) return;
            done = generation_;
        }
        SearchResult r = searchers_[index]->run(*root_, *context_);
        std::lock_guard lock(mutex_);
        results_[index] = std::move(r);
        if (--running_ == 0) done_cv_.notify_all();
    }
}

void ThreadPool::clear() {
    for (auto& s : searchers_)
        s->clear();
}

std::uint64_t ThreadPool::nodes() const {
    std::uint64_t n = 0;
    for (const auto& s : searchers_)
        n += s->nodes();
    return n;
}

std::uint64_t ThreadPool::tbhits() const {
    std::uint64_t n = 0;
    for (const auto& s : searchers_)
        n += s->tbhits();
    return n;
}

SearchResult ThreadPool::run(const Position& root, const SearchLimits& limits, TimeManager& time,
                             const std::vector<Move>& searchmoves, int multipv,
                             const std::function<void(const SearchReport&)>& report,
                             const EvalParams* eval_params, const SearchTables* tables) {
    tt_.new_search();
    signals_.helpers_stop = false;
    signals_.reset();
    SearchContext context;
    context.limits = &limits;
    context.time = &time;
    context.searchmoves = &searchmoves;
    context.multipv = multipv;
    context.report = report;
    context.total_nodes = [this] { return nodes(); };
    context.eval_params = eval_params;
    context.tables = tables;
    // The root's ranking by the tables counts as probes too.
    const std::uint64_t root_probes = tables ? tables->root_probes : 0;
    context.total_tbhits = [this, root_probes] { return tbhits() + root_probes; };

    for (auto& s : searchers_)
        s->reset_nodes();
    {
        std::lock_guard lock(mutex_);
        root_ = &root;
        context_ = &context;
        running_ = int(helpers_.size());
        ++generation_;
    }
    start_cv_.notify_all();
    SearchResult main_result = searchers_[0]->run(root, context);
    signals_.helpers_stop = true;
    std::vector<SearchResult> results;
    {
        std::unique_lock lock(mutex_);
        done_cv_.wait(lock, [&] { return running_ == 0; });
        results = results_;
    }
    results[0] = std::move(main_result);

    // The deepest completed iteration wins; among equals, the better score. With several lines
    // the main thread's stand: the helpers' lines are not ranked with them.
    std::size_t best = 0;
    for (std::size_t i = 1; i < results.size() && multipv == 1; ++i) {
        const SearchResult& r = results[i];
        if (!r.best) continue;
        if (r.depth > results[best].depth ||
            (r.depth == results[best].depth && r.score > results[best].score))
            best = i;
    }
    SearchResult result = results[best];
    result.nodes = nodes();
    result.tbhits = tbhits() + root_probes;
    result.score = shown_score(tables, result.best, result.score);
    if (best != 0) {
        // A helper that went deeper, or scored better at the same depth, speaks for the search.
        SearchReport line;
        line.depth = line.seldepth = result.depth;
        line.score = result.score;
        line.pv = result.pv.empty() ? std::vector<Move>{result.best} : result.pv;
        result.lines = {line};
        result.reported = false;
    }
    return result;
}

} // namespace horizon
