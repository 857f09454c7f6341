// Root-move bookkeeping for one search thread: the moves searched at the root (the legal
// moves, or those of `go searchmoves`), what the last iterations learned of each, and their
// ranking after each line of an iteration (MultiPV).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/position.hpp"
#include "search/tt.hpp"

namespace horizon {

// A root move with what the last iterations learned of it.
struct RootMove {
    Move move;
    Score score = -SCORE_INFINITE; // -SCORE_INFINITE: not (fully) searched in this iteration
    Score previous_score = -SCORE_INFINITE;
    Bound bound = BOUND_EXACT;
    int seldepth = 0;
    std::uint64_t nodes = 0;
    std::vector<Move> pv;
};

class RootMoves {
public:
    // The legal moves of `root`, or those of them in `only` when it is not empty.
    void init(const Position& root, const std::vector<Move>& only);

    bool empty() const { return moves_.empty(); }
    std::size_t size() const { return moves_.size(); }
    RootMove& operator[](std::size_t i) { return moves_[i]; }
    const RootMove& operator[](std::size_t i) const { return moves_[i]; }
    // Whether m is a root move at index `first` or later: one the root searches for line
    // `first` (the lines before it have their moves already).
    bool searches(Move m, std::size_t first) const;
    RootMove* find(Move m);

    // Before an iteration: each move's last score becomes its previous one.
    void start_iteration();
    // After root move m was searched at the root, its first move (first) or a later one, with
    // `score` against the window (alpha, beta); `pv` follows m in its line.
    void record(Move m, bool first, Score score, Score alpha, Score beta, int seldepth,
                std::uint64_t nodes, const Move* pv, int pv_length);
    // After line `line` (0 for the first) was searched: ranks the moves from it on by score and,
    // unless the search stopped, the lines before it too (search instability can make a later
    // line score above an earlier one).
    void rank(int line, bool stopped);

    // Back to `before` (a copy taken earlier), with the nodes spent on each move since.
    void restore(const RootMoves& before);
    // Makes `pv` (with its score and seldepth) the first line, exact; false when `pv` is empty
    // or its first move is not a root move.
    bool put_first(const std::vector<Move>& pv, Score score, int seldepth);

private:
    std::vector<RootMove> moves_;
};

} // namespace horizon
