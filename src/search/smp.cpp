#include "search/smp.hpp"

#include <algorithm>

namespace horizon {

void SearchSignals::reset() {
    std::lock_guard lock(line_mutex);
    line = Line{};
    deepest = 0;
}

void SearchSignals::publish(int depth, int seldepth, Score score, const std::vector<Move>& pv) {
    std::lock_guard lock(line_mutex);
    if (depth > line.depth && !pv.empty()) line = Line{depth, seldepth, score, pv};
    if (depth > deepest.load(std::memory_order_relaxed)) deepest = depth;
}

SearchSignals::Line SearchSignals::deepest_line() {
    std::lock_guard lock(line_mutex);
    return line;
}

void NodeMark::claim(SearchSignals& signals, int thread, std::uint64_t key) {
    SearchSignals::Crumb& c = signals.crumbs[key & (SearchSignals::CRUMBS - 1)];
    int owner = -1;
    if (c.owner.compare_exchange_strong(owner, thread, std::memory_order_relaxed)) {
        c.key.store(key, std::memory_order_relaxed);
        held_ = &c;
    } else {
        // The slot may have changed hands since: a stale mark costs one ply on a few moves.
        marked_ = owner != thread && c.key.load(std::memory_order_relaxed) == key;
    }
}

std::optional<SmpThread::Iteration> SmpThread::next_iteration(int depth, int max_depth) const {
    const int deepest = signals_.deepest.load(std::memory_order_relaxed);
    if (depth > 1 && (ahead_ || !shares_lines_)) depth = std::max(depth, deepest + 1 + ahead_);
    if (depth > max_depth) {
        // A helper with no depth left to run ahead on joins the last one (go depth).
        if (main_ || deepest >= max_depth) return std::nullopt;
        depth = max_depth;
    }
    return Iteration{depth, depth > 1 && shares_lines_ && deepest >= depth};
}

int SmpThread::adopt_deeper_line(RootMoves& moves, const RootMoves& before, int root_depth) const {
    moves.restore(before);
    const SearchSignals::Line line = signals_.deepest_line();
    if (line.depth < root_depth || !moves.put_first(line.pv, line.score, line.seldepth)) return 0;
    return line.depth;
}

} // namespace horizon
