// Lazy SMP coordination: what the search threads share besides the transposition table (the
// stop and ponder signals, the deepest completed line, the breadcrumbs), and each thread's side
// of it: which depth it iterates next, when another thread has overtaken it, and taking over
// the deeper line that thread completed. The threads themselves: src/search/threads.*.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "core/types.hpp"
#include "search/params.hpp"
#include "search/root.hpp"

namespace horizon {

// Shared with the thread that drives the search (UCI): stop and ponder flags, and the
// signal the main search thread gives its helpers when it is done.
struct SearchSignals {
    std::atomic<bool> stop{false};
    std::atomic<bool> pondering{false};
    std::atomic<bool> helpers_stop{false};
    std::atomic<int> deepest{0}; // the deepest iteration any thread has completed

    // The first line of the deepest completed iteration (MultiPV 1), published by the
    // thread that completed it: a thread still on that depth or a shallower one abandons
    // its iteration and takes this line as its own.
    struct Line {
        int depth = 0;
        int seldepth = 0;
        Score score = -SCORE_INFINITE;
        std::vector<Move> pv;
    };
    std::mutex line_mutex;
    Line line;

    // Breadcrumbs (see NodeMark): one slot per key's low bits, held by at most one thread.
    struct Crumb {
        std::atomic<std::uint64_t> key{0};
        std::atomic<int> owner{-1}; // the thread id, -1 when free
    };
    static constexpr std::size_t CRUMBS = 1024;
    std::array<Crumb, CRUMBS> crumbs;
    int threads = 1; // the search threads; set while no search runs

    void reset();
    // Records a completed iteration: its line, if deeper than any so far, then `deepest`.
    void publish(int depth, int seldepth, Score score, const std::vector<Move>& pv);
    Line deepest_line();
};

// Lazy SMP breadcrumbs: a thread searching a node near the root (ply < CRUMB_MAX_PLY) marks
// it for as long as it searches it, when its slot is free. Another thread reaching that node
// meanwhile sees it marked() and reduces its late moves one ply more, rather than repeat the
// same work in full. With one thread nothing is marked (and `bench` is unchanged).
class NodeMark {
public:
    NodeMark(SearchSignals& signals, int thread, std::uint64_t key, int ply) {
        if (signals.threads >= 2 && ply < search_params::CRUMB_MAX_PLY) claim(signals, thread, key);
    }
    ~NodeMark() {
        if (held_) held_->owner.store(-1, std::memory_order_relaxed);
    }
    NodeMark(const NodeMark&) = delete;
    NodeMark& operator=(const NodeMark&) = delete;
    bool marked() const { return marked_; }

private:
    void claim(SearchSignals& signals, int thread, std::uint64_t key);

    SearchSignals::Crumb* held_ = nullptr;
    bool marked_ = false;
};

// One search thread's side of Lazy SMP. Odd helpers run one depth ahead of the rest, so the
// table holds deeper results sooner and the threads disagree more on what to search. A thread
// running ahead skips the depths another has completed; one that is not takes over the line
// another thread completed at its depth or deeper (and abandons an iteration so overtaken).
class SmpThread {
public:
    SmpThread(SearchSignals& signals, int thread_id)
        : signals_(signals), main_(thread_id == 0), ahead_(main_ ? 0 : thread_id & 1) {}

    // At the start of a search: the threads share their completed lines, unless MultiPV
    // (whose other lines are not shared).
    void begin(int multipv) { shares_lines_ = multipv == 1; }
    bool shares_lines() const { return shares_lines_; }

    int first_depth() const { return 1 + ahead_; }
    struct Iteration {
        int depth;
        bool adopt; // another thread completed it already: take over its line
    };
    // The iteration to run where the loop over depths from first_depth() stands at `depth`,
    // or none when no depth is left.
    std::optional<Iteration> next_iteration(int depth, int max_depth) const;

    // Polled while searching `root_depth`: another thread has completed it.
    bool overtaken(int root_depth) const {
        return shares_lines_ && root_depth > 1 &&
               signals_.deepest.load(std::memory_order_relaxed) >= root_depth;
    }

    // Takes over the deepest line another thread completed: `moves` as they were before the
    // iteration it overtook (`before`, with the nodes spent since), that line at their head.
    // Returns its depth, or 0 when there is none as deep as `root_depth`.
    int adopt_deeper_line(RootMoves& moves, const RootMoves& before, int root_depth) const;

private:
    SearchSignals& signals_;
    bool main_;
    int ahead_;
    bool shares_lines_ = true;
};

} // namespace horizon
