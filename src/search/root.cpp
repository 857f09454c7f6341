#include "search/root.hpp"

#include <algorithm>

#include "movegen/movegen.hpp"

namespace horizon {

namespace {

bool by_score(const RootMove& a, const RootMove& b) { return a.score > b.score; }

} // namespace

void RootMoves::init(const Position& root, const std::vector<Move>& only) {
    moves_.clear();
    MoveList legal;
    generate<GenType::ALL>(root, legal);
    for (Move m : legal)
        if (only.empty() || std::find(only.begin(), only.end(), m) != only.end())
            moves_.emplace_back().move = m;
}

bool RootMoves::searches(Move m, std::size_t first) const {
    return std::any_of(moves_.begin() + std::ptrdiff_t(std::min(first, moves_.size())),
                       moves_.end(), [m](const RootMove& rm) { return rm.move == m; });
}

RootMove* RootMoves::find(Move m) {
    for (RootMove& rm : moves_)
        if (rm.move == m) return &rm;
    return nullptr;
}

void RootMoves::start_iteration() {
    for (RootMove& rm : moves_) {
        rm.previous_score = rm.score != -SCORE_INFINITE ? rm.score : rm.previous_score;
        rm.score = -SCORE_INFINITE;
    }
}

void RootMoves::record(Move m, bool first, Score score, Score alpha, Score beta, int seldepth,
                       std::uint64_t nodes, const Move* pv, int pv_length) {
    RootMove* rm = find(m);
    rm->nodes += nodes;
    if (first || score > alpha) {
        rm->score = score;
        rm->seldepth = seldepth;
        rm->bound = score >= beta ? BOUND_LOWER : score <= alpha ? BOUND_UPPER : BOUND_EXACT;
        rm->pv.assign(1, m);
        rm->pv.insert(rm->pv.end(), pv, pv + pv_length);
    } else {
        rm->score = -SCORE_INFINITE;
    }
}

void RootMoves::rank(int line, bool stopped) {
    std::stable_sort(moves_.begin() + line, moves_.end(), by_score);
    if (!stopped) std::stable_sort(moves_.begin(), moves_.begin() + line + 1, by_score);
}

void RootMoves::restore(const RootMoves& before) {
    std::vector<RootMove> restored = before.moves_; // a copy first: `before` may be *this
    for (RootMove& rm : restored)
        rm.nodes = find(rm.move)->nodes;
    moves_ = std::move(restored);
}

bool RootMoves::put_first(const std::vector<Move>& pv, Score score, int seldepth) {
    RootMove* rm = pv.empty() ? nullptr : find(pv[0]);
    if (!rm) return false;
    rm->score = score;
    rm->bound = BOUND_EXACT;
    rm->seldepth = seldepth;
    rm->pv = pv;
    const auto at = moves_.begin() + (rm - moves_.data());
    std::rotate(moves_.begin(), at, at + 1);
    return true;
}

} // namespace horizon
