#include "search/search.hpp"

#include <algorithm>
#include <cmath>

#include "eval/evaluate.hpp"
#include "movegen/movegen.hpp"
#include "search/movepick.hpp"
#include "search/params.hpp"

namespace horizon {

namespace sp = search_params;

namespace {

struct LmrTable {
    int r[64][64];
    LmrTable() {
        for (int d = 0; d < 64; ++d)
            for (int m = 0; m < 64; ++m)
                r[d][m] = (d && m) ? int(sp::LMR_BASE + std::log(d) * std::log(m) / sp::LMR_DIVISOR)
                                   : 0;
    }
};
const LmrTable LMR;

bool is_mate_score(Score s) { return std::abs(s) >= SCORE_MATE_IN_MAX_PLY; }

bool has_non_pawn_material(const Position& pos, Color c) {
    return pos.pieces(c) & ~pos.pieces(PAWN, KING);
}

} // namespace

std::string uci_score(Score s) {
    if (s >= SCORE_MATE_IN_MAX_PLY) return "mate " + std::to_string((SCORE_MATE - s + 1) / 2);
    if (s <= -SCORE_MATE_IN_MAX_PLY) return "mate " + std::to_string(-(SCORE_MATE + s) / 2);
    return "cp " + std::to_string(s);
}

Searcher::Searcher(TranspositionTable& tt, SearchSignals& signals) : tt_(tt), signals_(signals) {
    history_.clear();
}

bool Searcher::should_stop() {
    if (stopped_) return true;
    if (root_depth_ <= 1) return false; // depth 1 always completes: there is always a move
    if (limits_->nodes && nodes_ >= limits_->nodes) return stopped_ = true;
    if ((nodes_ & (sp::TIME_CHECK_INTERVAL - 1)) == 0) {
        if (signals_.stop.load(std::memory_order_relaxed)) return stopped_ = true;
        if (time_->has_limit() && !signals_.pondering.load(std::memory_order_relaxed) &&
            time_->elapsed_ms() >= time_->hard_ms())
            return stopped_ = true;
    }
    return false;
}

// A draw by rule or the end of the stack; nullopt when the node must be searched.
std::optional<Score> Searcher::draw_or_horizon(const Position& pos, int ply) const {
    if (pos.rule50() >= 100) {
        if (pos.in_check() && count_legal_moves(pos) == 0) return mated_in(ply);
        return SCORE_DRAW;
    }
    if (pos.has_insufficient_material() || pos.is_repetition(ply)) return SCORE_DRAW;
    if (ply >= MAX_PLY - 1) return pos.in_check() ? SCORE_DRAW : evaluate(pos);
    return std::nullopt;
}

std::optional<Score> Searcher::tt_cutoff(const TTData& tt, Depth depth, Score alpha, Score beta) {
    if (tt.depth < depth || tt.score == SCORE_NONE) return std::nullopt;
    if (tt.bound == BOUND_EXACT) return tt.score;
    if (tt.bound == BOUND_LOWER && tt.score >= beta) return tt.score;
    if (tt.bound == BOUND_UPPER && tt.score <= alpha) return tt.score;
    return std::nullopt;
}

bool Searcher::reverse_futility(Depth depth, Score eval, Score beta) {
    return depth <= sp::RFP_MAX_DEPTH && !is_mate_score(beta) &&
           eval - sp::RFP_MARGIN_PER_DEPTH * depth >= beta;
}

std::optional<Score> Searcher::null_move(Position& pos, Score eval, Score beta, Depth depth,
                                         int ply, bool cut_node) {
    if (depth < sp::NMP_MIN_DEPTH || eval < beta || is_mate_score(beta) ||
        !has_non_pawn_material(pos, pos.side_to_move()) || stack_[ply - 1].move == Move::null())
        return std::nullopt;
    const int r = sp::NMP_BASE_REDUCTION + depth / sp::NMP_DEPTH_DIVISOR;
    stack_[ply].move = Move::null();
    pos.make_null_move();
    const Score score = -search(pos, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
    pos.unmake_null_move();
    if (stopped_) return std::nullopt;
    if (score >= beta) return is_mate_score(score) ? beta : score;
    return std::nullopt;
}

bool Searcher::late_move_prune(Depth depth, int quiets_seen) {
    return depth <= sp::LMP_MAX_DEPTH && quiets_seen > sp::LMP_BASE + depth * depth;
}

int Searcher::lmr_reduction(Depth depth, int move_count, bool pv_node, bool cut_node) {
    if (depth < sp::LMR_MIN_DEPTH || move_count <= sp::LMR_MIN_MOVE) return 0;
    int r = LMR.r[std::min(depth, 63)][std::min(move_count, 63)];
    r -= pv_node;
    r += cut_node;
    return std::clamp(r, 0, depth - 2);
}

void Searcher::update_pv(int ply, Move m) {
    pv_[ply][0] = m;
    const int child = pv_length_[ply + 1];
    for (int i = 0; i < child; ++i) pv_[ply][i + 1] = pv_[ply + 1][i];
    pv_length_[ply] = child + 1;
}

void Searcher::update_quiet_stats(const Position& pos, Move best, const Move* quiets,
                                  int quiet_count, Depth depth, int ply) {
    const Color us = pos.side_to_move();
    const int bonus = history_bonus(depth);
    history_.add_killer(ply, best);
    history_.update_quiet(us, best, bonus);
    for (int i = 0; i < quiet_count; ++i)
        if (quiets[i] != best) history_.update_quiet(us, quiets[i], -bonus);
}

Score Searcher::search(Position& pos, Score alpha, Score beta, Depth depth, int ply,
                       bool cut_node) {
    const bool pv_node = beta - alpha > 1;
    const bool root = ply == 0;
    if (depth <= 0) return qsearch(pos, alpha, beta, ply);

    pv_length_[ply] = 0;
    ++nodes_;
    if (should_stop()) return SCORE_DRAW;
    seldepth_ = std::max(seldepth_, ply);

    if (!root) {
        if (auto s = draw_or_horizon(pos, ply)) return *s;
        // Mate distance pruning.
        alpha = std::max(alpha, mated_in(ply));
        beta = std::min(beta, mate_in(ply + 1));
        if (alpha >= beta) return alpha;
    }

    TTData tt;
    const bool tt_hit = tt_.probe(pos.key(), ply, tt);
    if (tt_hit && !pv_node)
        if (auto s = tt_cutoff(tt, depth, alpha, beta)) return *s;

    const bool in_check = pos.in_check();
    Score eval = SCORE_NONE;
    if (!in_check) {
        eval = tt_hit && tt.eval != SCORE_NONE ? tt.eval : evaluate(pos);
        stack_[ply].static_eval = eval;
        if (tt_hit && tt.score != SCORE_NONE &&
            (tt.bound & (tt.score > eval ? BOUND_LOWER : BOUND_UPPER)))
            eval = tt.score;
    }
    history_.clear_killers(ply + 1);

    if (!pv_node && !in_check) {
        if (reverse_futility(depth, eval, beta)) return eval;
        if (auto s = null_move(pos, eval, beta, depth, ply, cut_node)) return *s;
        if (stopped_) return SCORE_DRAW;
    }

    MovePicker picker(pos, tt_hit ? tt.move : Move::none(), history_, ply, false);
    Score best = -SCORE_INFINITE;
    Move best_move = Move::none();
    Move quiets[64];
    int quiet_count = 0, move_count = 0;

    for (Move m = picker.next(); m; m = picker.next()) {
        if (root && !root_moves_->empty() &&
            std::find(root_moves_->begin(), root_moves_->end(), m) == root_moves_->end())
            continue;
        ++move_count;
        const bool quiet = !pos.is_capture_or_promotion(m);
        const bool gives_check = pos.gives_check(m);

        if (!root && quiet && !in_check && !gives_check && best > -SCORE_MATE_IN_MAX_PLY &&
            late_move_prune(depth, quiet_count))
            continue; // only this move: later quiet moves may still give check

        const Depth new_depth = depth - 1 + (gives_check ? 1 : 0);
        stack_[ply].move = m;
        tt_.prefetch(pos.key());
        pos.make_move(m);
        Score score;
        if (move_count == 1) {
            score = -search(pos, -beta, -alpha, new_depth, ply + 1, false);
        } else {
            const int r = (quiet && !in_check && !gives_check)
                              ? lmr_reduction(depth, move_count, pv_node, cut_node)
                              : 0;
            score = -search(pos, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if (score > alpha && r > 0)
                score = -search(pos, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            if (score > alpha && pv_node)
                score = -search(pos, -beta, -alpha, new_depth, ply + 1, false);
        }
        pos.unmake_move(m);
        if (stopped_) return SCORE_DRAW;

        if (quiet && quiet_count < 64) quiets[quiet_count++] = m;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                if (pv_node) update_pv(ply, m);
                if (alpha >= beta) {
                    if (quiet) update_quiet_stats(pos, m, quiets, quiet_count, depth, ply);
                    break;
                }
            }
        }
    }

    if (move_count == 0) return in_check ? mated_in(ply) : SCORE_DRAW;

    const Bound bound = best >= beta ? BOUND_LOWER : (pv_node && best_move ? BOUND_EXACT : BOUND_UPPER);
    tt_.store(pos.key(), ply, best_move, best, stack_[ply].static_eval, depth, bound);
    return best;
}

Score Searcher::qsearch(Position& pos, Score alpha, Score beta, int ply) {
    pv_length_[ply] = 0;
    ++nodes_;
    if (should_stop()) return SCORE_DRAW;
    seldepth_ = std::max(seldepth_, ply);
    if (auto s = draw_or_horizon(pos, ply)) return *s;

    const bool pv_node = beta - alpha > 1;
    TTData tt;
    const bool tt_hit = tt_.probe(pos.key(), ply, tt);
    if (tt_hit && !pv_node)
        if (auto s = tt_cutoff(tt, 0, alpha, beta)) return *s;

    const bool in_check = pos.in_check();
    Score best = -SCORE_INFINITE;
    Score stand_pat = SCORE_NONE;
    if (!in_check) {
        stand_pat = tt_hit && tt.eval != SCORE_NONE ? tt.eval : evaluate(pos);
        best = stand_pat;
        if (best >= beta) return best;
        alpha = std::max(alpha, best);
    }

    MovePicker picker(pos, tt_hit ? tt.move : Move::none(), history_, ply, true);
    Move best_move = Move::none();
    int move_count = 0;
    for (Move m = picker.next(); m; m = picker.next()) {
        ++move_count;
        if (!in_check) {
            if (!pos.see_ge(m, 0)) continue;
            // Delta pruning: even winning the piece does not reach alpha.
            const PieceType victim = m.type() == EN_PASSANT ? PAWN : type_of(pos.piece_on(m.to()));
            if (m.type() != PROMOTION &&
                stand_pat + Position::see_value(victim) + sp::QS_DELTA_MARGIN <= alpha)
                continue;
        }
        pos.make_move(m);
        const Score score = -qsearch(pos, -beta, -alpha, ply + 1);
        pos.unmake_move(m);
        if (stopped_) return SCORE_DRAW;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                if (pv_node) update_pv(ply, m);
                if (alpha >= beta) break;
            }
        }
    }
    if (in_check && move_count == 0) return mated_in(ply);

    tt_.store(pos.key(), ply, best_move, best, stand_pat, 0,
              best >= beta ? BOUND_LOWER : BOUND_UPPER);
    return best;
}

Score Searcher::aspiration(Position& pos, Score previous, Depth depth) {
    if (depth < sp::ASPIRATION_MIN_DEPTH || is_mate_score(previous))
        return search(pos, -SCORE_INFINITE, SCORE_INFINITE, depth, 0, false);
    int delta = sp::ASPIRATION_DELTA;
    Score alpha = std::max(previous - delta, -SCORE_INFINITE);
    Score beta = std::min(previous + delta, SCORE_INFINITE);
    for (;;) {
        const Score score = search(pos, alpha, beta, depth, 0, false);
        if (stopped_) return score;
        if (score <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = std::max(score - delta, -SCORE_INFINITE);
        } else if (score >= beta) {
            beta = std::min(score + delta, SCORE_INFINITE);
        } else {
            return score;
        }
        delta += delta;
        if (delta > 1000) alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    }
}

std::vector<Move> Searcher::root_pv() const {
    return std::vector<Move>(pv_[0], pv_[0] + pv_length_[0]);
}

SearchResult Searcher::run(const Position& root, const SearchLimits& limits, TimeManager& time,
                           const std::vector<Move>& root_moves,
                           const std::function<void(const SearchReport&)>& report) {
    limits_ = &limits;
    time_ = &time;
    root_moves_ = &root_moves;
    nodes_ = 0;
    stopped_ = false;
    tt_.new_search();
    for (auto& f : stack_) f = Frame{};

    Position pos = root;
    SearchResult result;
    std::vector<Move> best_pv;
    const int max_depth = limits.depth > 0 ? std::min(limits.depth, MAX_PLY - 10) : MAX_PLY - 10;
    Score previous = 0;

    for (int depth = 1; depth <= max_depth; ++depth) {
        root_depth_ = depth;
        seldepth_ = 0;
        const Score score = aspiration(pos, previous, depth);
        if (stopped_ && depth > 1) break;
        std::vector<Move> pv = root_pv();
        if (pv.empty()) break; // no legal move at the root (or none left in searchmoves)
        previous = score;
        best_pv = pv;
        result.score = score;
        result.depth = depth;

        SearchReport r;
        r.depth = depth;
        r.seldepth = std::max(seldepth_, depth);
        r.score = score;
        r.nodes = nodes_;
        r.time_ms = time.elapsed_ms();
        r.hashfull = tt_.hashfull();
        r.pv = pv;
        report(r);

        if (limits.mate > 0 && score >= mate_in(2 * limits.mate - 1)) break;
        // A proven mate well inside the horizon: deeper iterations cannot change it.
        if (is_mate_score(score) && depth > SCORE_MATE - std::abs(score) + 8) break;
        if (time.has_limit() && !time.fixed() && !signals_.pondering.load() &&
            time.elapsed_ms() >= time.soft_ms() * 6 / 10)
            break;
        if (signals_.stop.load()) break;
    }

    result.nodes = nodes_;
    if (!best_pv.empty()) {
        result.best = best_pv[0];
        if (best_pv.size() > 1) {
            result.ponder = best_pv[1];
        } else {
            // Look for a reply in the hash table.
            Position after = root;
            after.make_move(result.best);
            TTData tt;
            if (tt_.probe(after.key(), 1, tt) && tt.move && after.is_legal(tt.move))
                result.ponder = tt.move;
        }
    }
    return result;
}

} // namespace horizon
