#include "search/search.hpp"

#include <algorithm>
#include <cmath>

#include "eval/evaluate.hpp"
#include "movegen/movegen.hpp"
#include "search/params.hpp"

namespace horizon {

namespace sp = search_params;

namespace {

struct LmrTable {
    int quiet[64][64];
    int noisy[64][64];
    LmrTable() {
        for (int d = 0; d < 64; ++d)
            for (int m = 0; m < 64; ++m) {
                const double l = (d && m) ? std::log(d) * std::log(m) : 0.0;
                quiet[d][m] = (d && m) ? int(sp::LMR_QUIET_BASE + l / sp::LMR_QUIET_DIVISOR) : 0;
                noisy[d][m] = (d && m) ? int(sp::LMR_NOISY_BASE + l / sp::LMR_NOISY_DIVISOR) : 0;
            }
    }
};
const LmrTable LMR;

// A mate or a tablebase result: not a score to prune, reduce or correct by.
bool is_decisive(Score s) { return std::abs(s) >= SCORE_TB_WIN_IN_MAX_PLY; }

// A fail high's score is an overestimate more often than not: it is pulled towards beta, the less
// so the deeper the search that found it. Decisive scores keep their values.
Score softened_fail_high(Score best, Score beta, Depth depth) {
    if (best < beta || is_decisive(best) || is_decisive(beta)) return best;
    return (best * depth + beta) / (depth + 1);
}

bool has_non_pawn_material(const Position& pos, Color c) {
    return pos.pieces(c) & ~pos.pieces(PAWN, KING);
}

PieceType captured_type(const Position& pos, Move m) {
    return m.type() == EN_PASSANT ? PAWN : type_of(pos.piece_on(m.to()));
}

} // namespace

std::string uci_score(Score s) {
    if (s >= SCORE_MATE_IN_MAX_PLY) return "mate " + std::to_string((SCORE_MATE - s + 1) / 2);
    if (s <= -SCORE_MATE_IN_MAX_PLY) return "mate " + std::to_string(-(SCORE_MATE + s) / 2);
    return "cp " + std::to_string(s);
}

// Candidate squares: those another piece of the threatening side supports (counted with the
// checking piece gone from its square, so a piece behind it counts) and no piece of the side to
// move but the king defends; each is tried by passing the move and playing the check. A rook
// checks only from the squares beside the king on its rank and file.
bool mate_threat_beside_king(Position& pos) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square ksq = pos.king_square(us);
    const Bitboard ring = king_attacks(ksq) & ~pos.pieces(them);
    const Bitboard defenders = pos.pieces(us) & ~pos.pieces(us, KING);
    const Bitboard occ = pos.pieces();
    for (const PieceType pt : {QUEEN, ROOK}) {
        const Bitboard squares = pt == QUEEN ? ring : ring & rook_attacks(ksq, 0);
        Bitboard checkers = pos.pieces(them, pt);
        while (checkers) {
            const Square from = pop_lsb(checkers);
            const Bitboard occ_after = occ ^ square_bb(from);
            Bitboard targets = piece_attacks(pt, from, occ) & squares;
            while (targets) {
                const Square s = pop_lsb(targets);
                const Bitboard attackers = pos.attackers_to(s, occ_after) & ~square_bb(from);
                if (!(attackers & pos.pieces(them)) || (attackers & defenders)) continue;
                const Move check(from, s);
                bool mate = false;
                pos.make_null_move();
                if (pos.is_legal(check)) {
                    pos.make_move(check);
                    mate = count_legal_moves(pos) == 0;
                    pos.unmake_move(check);
                }
                pos.unmake_null_move();
                if (mate) return true;
            }
        }
    }
    return false;
}

Searcher::Searcher(TranspositionTable& tt, SearchSignals& signals, int thread_id)
    : tt_(tt), signals_(signals), smp_(signals, thread_id), thread_id_(thread_id),
      history_(std::make_unique<History>()) {
    history_->clear();
}

bool Searcher::should_stop() {
    if (stopped_) return true;
    // The main thread always completes depth 1: there is always a move to play.
    if (is_main() && root_depth_ <= 1) return false;
    const std::uint64_t n = nodes();
    if (limits_->nodes && n >= limits_->nodes) return stopped_ = true;
    // The stop flags at every node (they are written once per search): with many more threads
    // than cores, a thread sees a stop the moment it runs again, not a node batch later.
    if (signals_.stop.load(std::memory_order_relaxed)) return stopped_ = true;
    if (!is_main() && signals_.helpers_stop.load(std::memory_order_relaxed)) return stopped_ = true;
    if ((n & (sp::TIME_CHECK_INTERVAL - 1)) != 0) return false;
    if (smp_.overtaken(root_depth_)) return abandoned_ = stopped_ = true;
    if (!is_main()) return false;
    if (limits_->nodes && context_->total_nodes() >= limits_->nodes) return stopped_ = true;
    return stopped_ = time_->has_limit() && !signals_.pondering.load(std::memory_order_relaxed) &&
                      time_->elapsed_ms() >= time_->hard_ms();
}

// A draw by rule or the end of the stack; nullopt when the node must be searched.
std::optional<Score> Searcher::draw_or_horizon(const Position& pos, int ply) const {
    if (pos.rule50() >= 100) {
        if (pos.in_check() && count_legal_moves(pos) == 0) return mated_in(ply);
        return SCORE_DRAW;
    }
    if (pos.has_insufficient_material() || pos.is_repetition(ply)) return SCORE_DRAW;
    if (ply >= MAX_PLY - 1)
        return pos.in_check() ? SCORE_DRAW : evaluate(pos, *eval_params_, pawns_.get());
    return std::nullopt;
}

// Mate distance pruning: narrows the window to the mates still possible from this ply; true
// when none is left.
bool Searcher::mate_distance_prune(Score& alpha, Score& beta, int ply) {
    alpha = std::max(alpha, mated_in(ply));
    beta = std::min(beta, mate_in(ply + 1));
    return alpha >= beta;
}

std::optional<Score> Searcher::tt_cutoff(const TTData& tt, Depth depth, Score alpha, Score beta) {
    if (tt.depth < depth || tt.score == SCORE_NONE) return std::nullopt;
    if (tt.bound == BOUND_EXACT) return tt.score;
    if (tt.bound == BOUND_LOWER && tt.score >= beta) return tt.score;
    if (tt.bound == BOUND_UPPER && tt.score <= alpha) return tt.score;
    return std::nullopt;
}

// The static eval is better than two plies ago (four when that one was in check).
bool Searcher::improving(int ply) const {
    const Frame* ss = stack_ + ply + STACK_OFFSET;
    if (ss->static_eval == SCORE_NONE) return false;
    if ((ss - 2)->static_eval != SCORE_NONE) return ss->static_eval > (ss - 2)->static_eval;
    if ((ss - 4)->static_eval != SCORE_NONE) return ss->static_eval > (ss - 4)->static_eval;
    return true;
}

bool Searcher::reverse_futility(Depth depth, Score eval, Score beta, bool improving) {
    return depth <= sp::RFP_MAX_DEPTH && !is_decisive(beta) && eval < SCORE_TB_WIN_IN_MAX_PLY &&
           eval - sp::RFP_MARGIN_PER_DEPTH * (depth - improving) >= beta;
}

// Far below alpha near the leaves: if quiescence agrees, trust it.
std::optional<Score> Searcher::razor(Position& pos, Score eval, Score alpha, Depth depth, int ply) {
    if (depth > sp::RAZOR_MAX_DEPTH || is_decisive(alpha) ||
        eval + sp::RAZOR_BASE + sp::RAZOR_PER_DEPTH * depth > alpha)
        return std::nullopt;
    const Score score = qsearch(pos, alpha - 1, alpha, ply);
    if (score < alpha) return score;
    return std::nullopt;
}

std::optional<Score> Searcher::null_move(Position& pos, Score eval, Score beta, Depth depth,
                                         int ply, bool cut_node) {
    Frame* ss = stack_ + ply + STACK_OFFSET;
    if (depth < sp::NMP_MIN_DEPTH || eval < beta || ss->static_eval < beta || is_decisive(beta) ||
        ply < nmp_min_ply_ || !has_non_pawn_material(pos, pos.side_to_move()) ||
        (ss - 1)->move == Move::null())
        return std::nullopt;
    const int r = sp::NMP_BASE_REDUCTION + depth / sp::NMP_DEPTH_DIVISOR +
                  std::min((eval - beta) / sp::NMP_EVAL_DIVISOR, sp::NMP_EVAL_REDUCTION_MAX);
    ss->move = Move::null();
    ss->sacrifice = false;
    ss->piece = NO_PIECE;
    ss->continuation = nullptr;
    pos.make_null_move();
    Score score = -search(pos, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
    pos.unmake_null_move();
    if (stopped_ || score < beta) return std::nullopt;
    if (is_decisive(score)) score = beta;
    if (depth < sp::NMP_VERIFY_DEPTH || nmp_min_ply_) return score;
    // Deep: verify with a normal search in which this side may not pass again soon.
    nmp_min_ply_ = ply + 3 * (depth - r) / 4;
    const Score verified = search(pos, beta - 1, beta, depth - r, ply, false);
    nmp_min_ply_ = 0;
    if (!stopped_ && verified >= beta) return score;
    return std::nullopt;
}

// ProbCut: a good capture that, searched PROBCUT_REDUCTION plies shallower, beats beta by a
// margin is taken as proof that the node fails high. Quiescence screens each capture first.
std::optional<Score> Searcher::probcut(Position& pos, Score beta, Depth depth, int ply,
                                       bool cut_node, bool improving, bool tt_hit,
                                       const TTData& tt) {
    Frame* ss = stack_ + ply + STACK_OFFSET;
    if (depth < sp::PROBCUT_MIN_DEPTH || is_decisive(beta) || (ss - 1)->sacrifice)
        return std::nullopt;
    const Score pc_beta = beta + sp::PROBCUT_MARGIN - sp::PROBCUT_IMPROVING * int(improving);
    // The table already holds a search nearly as deep that stayed below it.
    if (tt_hit && tt.score != SCORE_NONE && tt.depth >= depth - (sp::PROBCUT_REDUCTION - 1) &&
        tt.score < pc_beta)
        return std::nullopt;
    MovePicker picker(pos, tt_hit ? tt.move : Move::none(), *history_);
    const Depth probe_depth = depth - sp::PROBCUT_REDUCTION;
    for (Move m = picker.next(); m; m = picker.next()) {
        if (!pos.see_ge(m, pc_beta - ss->static_eval)) continue;
        play(pos, ply, m, 0);
        Score score = -qsearch(pos, -pc_beta, -pc_beta + 1, ply + 1);
        if (score >= pc_beta && !stopped_)
            score = -search(pos, -pc_beta, -pc_beta + 1, probe_depth, ply + 1, !cut_node);
        pos.unmake_move(m);
        if (stopped_) return std::nullopt;
        if (score >= pc_beta) {
            tt_.store(pos.key(), ply, m, score, ss->raw_eval, probe_depth + 1, BOUND_LOWER);
            return score;
        }
    }
    return std::nullopt;
}

Depth Searcher::internal_iterative_reduction(Depth depth, bool has_tt_move, bool pv_node,
                                             bool cut_node) {
    return (depth >= sp::IIR_MIN_DEPTH && !has_tt_move && (pv_node || cut_node)) ? depth - 1
                                                                                 : depth;
}

bool Searcher::late_move_prune(Depth depth, int move_count, bool improving) {
    return depth <= sp::LMP_MAX_DEPTH &&
           move_count >= (sp::LMP_BASE + depth * depth) / (2 - int(improving));
}

// Low-depth pruning of one move: late-move pruning (from there on, every quiet that does not
// check is skipped: skip_quiets), then futility and history pruning of quiets that do not
// check, futility pruning of captures that do not, and SEE pruning of every move. On the principal
// variation a move that gives check is kept whatever SEE says: it may be a sacrifice for a mating
// attack.
inline bool Searcher::prune_move(const Position& pos, const MoveInfo& mi, Depth depth,
                                 Score static_eval, Score alpha, bool improving, bool pv_node,
                                 bool& skip_quiets) const {
    const int base_r = LMR.quiet[std::min(depth, 63)][std::min(mi.move_count, 63)];
    const int lmr_depth = std::max(depth - 1 - base_r, 0);
    if (mi.quiet) {
        if (!skip_quiets && late_move_prune(depth, mi.move_count, improving)) skip_quiets = true;
        if (!mi.gives_check && (skip_quiets || futility_prune(lmr_depth, static_eval, alpha) ||
                                history_prune(mi.history, depth, lmr_depth)))
            return true;
    }
    if (pv_node && mi.gives_check) return false;
    if (!mi.quiet && !mi.gives_check && capture_futility(pos, mi.move, depth, static_eval, alpha))
        return true;
    return see_prune(pos, mi, depth, lmr_depth);
}

// A capture at low depth that cannot lift the static eval to alpha even with its victim won.
bool Searcher::capture_futility(const Position& pos, Move m, Depth depth, Score static_eval,
                                Score alpha) {
    return depth <= sp::CFP_MAX_DEPTH && static_eval != SCORE_NONE && m.type() != PROMOTION &&
           static_eval + sp::CFP_BASE + sp::CFP_PER_DEPTH * depth +
                   Position::see_value(captured_type(pos, m)) <=
               alpha;
}

// A quiet move at low (reduced) depth whose static eval plus a margin stays below alpha.
bool Searcher::futility_prune(int lmr_depth, Score static_eval, Score alpha) {
    return lmr_depth <= sp::FP_MAX_DEPTH && static_eval != SCORE_NONE &&
           static_eval + sp::FP_BASE + sp::FP_PER_DEPTH * lmr_depth <= alpha;
}

// A quiet move at low (reduced) depth with a bad history.
bool Searcher::history_prune(int history, Depth depth, int lmr_depth) {
    return lmr_depth < sp::HP_MAX_DEPTH && history < sp::HP_PER_DEPTH * depth;
}

// A move at low depth that loses material: more, the deeper (quiets by their reduced depth; a
// quiet check, like a capture, by the depth itself).
bool Searcher::see_prune(const Position& pos, const MoveInfo& mi, Depth depth, int lmr_depth) {
    if (mi.quiet && !mi.gives_check)
        return lmr_depth <= sp::SEE_PRUNE_MAX_DEPTH &&
               !pos.see_ge(mi.move, sp::SEE_QUIET_PER_DEPTH_SQ * lmr_depth * lmr_depth);
    return depth <= sp::SEE_PRUNE_MAX_DEPTH &&
           !pos.see_ge(mi.move, sp::SEE_NOISY_PER_DEPTH * depth);
}

// A node where the TT move may be singular: a deep enough lower bound from the table.
inline bool Searcher::singular_candidate(bool tt_hit, const TTData& tt, Depth depth,
                                         int ply) const {
    return ply > 0 && !stack_[ply + STACK_OFFSET].excluded && tt_hit && depth >= sp::SE_MIN_DEPTH &&
           tt.move && (tt.bound & BOUND_LOWER) && tt.depth >= depth - sp::SE_TT_DEPTH_MARGIN &&
           !is_decisive(tt.score) && ply < 2 * root_depth_;
}

// Searches every move but the TT move at about half depth below the TT score. Returns the
// extension of the TT move; sets multi_cut when even without it the node fails high.
int Searcher::singular_extension(Position& pos, const TTData& tt, Score beta, Depth depth, int ply,
                                 bool cut_node, bool pv_node, std::optional<Score>& multi_cut) {
    Frame* ss = stack_ + ply + STACK_OFFSET;
    const Score singular_beta = std::max(tt.score - sp::SE_MARGIN_PER_DEPTH * depth, -SCORE_MATE);
    ss->excluded = tt.move;
    const Score score =
        search(pos, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
    ss->excluded = Move::none();
    if (stopped_) return 0;
    if (score < singular_beta) {
        if (!pv_node && score < singular_beta - sp::SE_DOUBLE_MARGIN &&
            ss->double_extensions < sp::SE_DOUBLE_LIMIT)
            return 2;
        return 1;
    }
    if (singular_beta >= beta) {
        multi_cut = singular_beta;
        return 0;
    }
    // Not singular: the TT move is one good move of several. Where it is expected to fail
    // high anyway (its table score reaches beta, or the node is expected to cut), it need not
    // be searched as deep.
    return tt.score >= beta || cut_node ? -sp::SE_NEGATIVE_EXTENSION : 0;
}

// A move that gives check, not too far past the root depth.
inline int Searcher::check_extension(const MoveInfo& mi, int ply) const {
    return mi.gives_check && ply < 2 * root_depth_;
}

// Late-move reductions: moves after the first (after the second in a PV node), from
// LMR_MIN_DEPTH; one ply more where another thread is searching the node (`marked`).
inline int Searcher::late_move_reduction(const MoveInfo& mi, Depth depth, bool pv_node,
                                         bool cut_node, bool improving, bool tt_capture,
                                         bool marked, bool refuted_often) const {
    if (depth < sp::LMR_MIN_DEPTH || mi.move_count <= 1 + int(pv_node) || full_width_) return 0;
    const int d = std::min(depth, 63), m = std::min(mi.move_count, 63);
    int r;
    if (mi.quiet) {
        r = LMR.quiet[d][m];
        r += !improving;
        r += tt_capture;
        r -= mi.killer_or_counter;
    } else {
        r = LMR.noisy[d][m];
    }
    r -= mi.history / sp::LMR_HISTORY_DIVISOR;
    r -= pv_node;
    r += cut_node;
    r += refuted_often;
    r -= mi.gives_check;
    return std::max(r, 0) + int(marked);
}

OrderingContext Searcher::ordering_context(int ply) const {
    const Frame* ss = stack_ + ply + STACK_OFFSET;
    OrderingContext oc;
    oc.killers[0] = history_->killers[ply][0];
    oc.killers[1] = history_->killers[ply][1];
    const Frame* prev = ss - 1;
    oc.counter =
        prev->piece != NO_PIECE ? history_->counter[prev->piece][prev->move.to()] : Move::none();
    const Frame* back[3] = {ss - 1, ss - 2, ss - 4};
    for (int i = 0; i < 3; ++i)
        oc.continuation[i] = back[i]->continuation ? back[i]->continuation : history_->sentinel();
    oc.threats = ss->threats;
    return oc;
}

// The quiet move that led to this node, judged by how it changed the static eval: a move after
// which the mover stands better than before it gains butterfly history, one after which it
// stands worse loses some.
inline void Searcher::eval_change_history(const Position& pos, int ply) {
    const Frame* ss = stack_ + ply + STACK_OFFSET;
    const Frame* prev = ss - 1;
    if (prev->piece == NO_PIECE || prev->static_eval == SCORE_NONE ||
        ss->static_eval == SCORE_NONE || pos.captured_piece() != NO_PIECE ||
        prev->move.type() == PROMOTION)
        return;
    const int change = -(prev->static_eval + ss->static_eval); // for the side that moved
    const int bonus =
        std::clamp(sp::EVAL_HISTORY_MULT * change, -sp::EVAL_HISTORY_MAX, sp::EVAL_HISTORY_MAX);
    history_->update_quiet(~pos.side_to_move(), prev->move, prev->threats.all, bonus);
}

void Searcher::update_continuation(int ply, Piece pc, Square to, int bonus) {
    const Frame* ss = stack_ + ply + STACK_OFFSET;
    for (int k : {1, 2, 4})
        if ((ss - k)->continuation)
            apply_gravity<sp::HISTORY_MAX>((*(ss - k)->continuation)[pc][to], bonus);
}

// A beta cutoff: reward the move that caused it, penalise the ones tried before it.
void Searcher::update_histories(const Position& pos, int ply, Move best, Depth depth,
                                const TriedMoves& tried) {
    const Frame* ss = stack_ + ply + STACK_OFFSET;
    const int bonus = history_bonus(depth);
    const Color us = pos.side_to_move();
    if (!pos.is_capture_or_promotion(best)) {
        history_->add_killer(ply, best);
        const Frame* prev = ss - 1;
        if (prev->piece != NO_PIECE) history_->counter[prev->piece][prev->move.to()] = best;
        const auto update = [&](Move m, int b) {
            const Piece pc = pos.moved_piece(m);
            history_->update_quiet(us, m, ss->threats.all, b);
            history_->update_pawn(pos.pawn_key(), pc, m.to(), b);
            update_continuation(ply, pc, m.to(), b);
        };
        update(best, bonus);
        for (int i = 0; i < tried.quiet_count; ++i)
            update(tried.quiets[i], -bonus);
    } else {
        history_->update_capture(pos.moved_piece(best), best.to(), captured_type(pos, best), bonus);
    }
    for (int i = 0; i < tried.noisy_count; ++i) {
        const Move m = tried.noisies[i];
        history_->update_capture(pos.moved_piece(m), m.to(), captured_type(pos, m), -bonus);
    }
}

Score Searcher::raw_static_eval(const Position& pos, bool tt_hit, const TTData& tt) {
    return tt_hit && tt.eval != SCORE_NONE ? tt.eval : evaluate(pos, *eval_params_, pawns_.get());
}

// A TT score is a better guess than the static eval when its bound points past it.
Score Searcher::refined_by_tt(Score eval, bool tt_hit, const TTData& tt) {
    if (tt_hit && tt.score != SCORE_NONE &&
        (tt.bound & (tt.score > eval ? BOUND_LOWER : BOUND_UPPER)))
        return tt.score;
    return eval;
}

namespace {
History::CorrectionKeys correction_keys(const Position& pos) {
    return {pos.pawn_key(), {pos.non_pawn_key(WHITE), pos.non_pawn_key(BLACK)}};
}
} // namespace

Score Searcher::corrected(const Position& pos, Score raw_eval) const {
    const Score s = raw_eval + history_->correction_cp(pos.side_to_move(), correction_keys(pos));
    return std::clamp(s, -SCORE_EVAL_MAX, SCORE_EVAL_MAX);
}

// Learns how far the static eval was off, where the result says something about it: a
// quiet (or no) best move, and a bound on the right side of the static eval.
void Searcher::update_correction(const Position& pos, const Frame* ss, Score best, Move best_move,
                                 Bound bound, Depth depth) {
    if (pos.in_check() || ss->raw_eval == SCORE_NONE || is_decisive(best)) return;
    if (best_move && pos.is_capture_or_promotion(best_move)) return;
    if ((bound == BOUND_LOWER && best <= ss->static_eval) ||
        (bound == BOUND_UPPER && best >= ss->static_eval))
        return;
    history_->update_correction(pos.side_to_move(), correction_keys(pos), best - ss->raw_eval,
                                depth);
}

void Searcher::update_pv(int ply, Move m) {
    pv_[ply][0] = m;
    const int child = pv_length_[ply + 1];
    for (int i = 0; i < child; ++i)
        pv_[ply][i + 1] = pv_[ply + 1][i];
    pv_length_[ply] = child + 1;
}

// The helpers of search() below run at every node or every move: `inline`, so that GCC folds
// them back into search() (it kept five of them out of line otherwise, a few % of bench speed).

// The static eval of the node at `ply`, kept in its frame (SCORE_NONE in check), and the eval
// the pruning rules read: refined by the TT score where its bound points past it.
inline Score Searcher::node_eval(const Position& pos, int ply, bool in_check, bool tt_hit,
                                 const TTData& tt) {
    Frame* ss = stack_ + ply + STACK_OFFSET;
    if (in_check) {
        ss->static_eval = ss->raw_eval = SCORE_NONE;
        return SCORE_NONE;
    }
    if (ss->excluded) return ss->static_eval; // the same node: already evaluated
    ss->raw_eval = raw_static_eval(pos, tt_hit, tt);
    ss->static_eval = corrected(pos, ss->raw_eval);
    return refined_by_tt(ss->static_eval, tt_hit, tt);
}

inline Searcher::MoveInfo Searcher::move_info(const Position& pos, Move m, int move_count,
                                              const OrderingContext& oc,
                                              const Position::CheckInfo& check_info) const {
    MoveInfo mi;
    mi.move = m;
    mi.quiet = !pos.is_capture_or_promotion(m);
    mi.gives_check = pos.gives_check(m, check_info);
    mi.move_count = move_count;
    mi.killer_or_counter =
        mi.quiet && (m == oc.killers[0] || m == oc.killers[1] || m == oc.counter);
    mi.history = mi.quiet
                     ? MovePicker::quiet_history(pos, *history_, oc, m)
                     : history_->capture_score(pos.moved_piece(m), m.to(), captured_type(pos, m));
    return mi;
}

// Plays m from the node at `ply`, entering it in that node's frame.
inline void Searcher::play(Position& pos, int ply, Move m, int extension, bool sacrifice) {
    Frame* ss = stack_ + ply + STACK_OFFSET;
    ss->move = m;
    ss->sacrifice = sacrifice;
    ss->piece = pos.moved_piece(m);
    ss->continuation = history_->continuation_of(ss->piece, m.to());
    (ss + 1)->double_extensions = ss->double_extensions + (extension >= 2);
    tt_.prefetch(pos.key_after(m));
    pos.make_move(m);
}

// Principal variation search of the move just played: the first move with the full window;
// a later one with a null window, reduced by `reduction` at first, at full depth (one ply
// more if it beat the best score by a margin) when it beats alpha, and in a PV node with the
// full window when it still does.
inline Score Searcher::search_move(Position& pos, Score alpha, Score beta, Depth new_depth,
                                   int reduction, int ply, bool first, bool pv_node, bool cut_node,
                                   Score best) {
    if (first) return -search(pos, -beta, -alpha, new_depth, ply + 1, false);
    // At least one ply, at most new_depth (which is 0 at a frontier node: then quiescence).
    // Not std::clamp: its bounds would be reversed there.
    const Depth reduced = std::min(std::max(new_depth - reduction, 1), new_depth);
    Score score = -search(pos, -alpha - 1, -alpha, reduced, ply + 1, true);
    if (score > alpha && reduced < new_depth) {
        if (score > best + sp::LMR_DEEPER_MARGIN && ply > 0) ++new_depth;
        score = -search(pos, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
    }
    if (score > alpha && pv_node) score = -search(pos, -beta, -alpha, new_depth, ply + 1, false);
    return score;
}

// Stores what the node at `ply` found in the table and learns from it how far its static eval
// was off.
inline void Searcher::store_result(const Position& pos, int ply, Score best, Move best_move,
                                   Depth depth, bool pv_node, Score beta) {
    const Frame* ss = stack_ + ply + STACK_OFFSET;
    const Bound bound =
        best >= beta ? BOUND_LOWER : (pv_node && best_move ? BOUND_EXACT : BOUND_UPPER);
    tt_.store(pos.key(), ply, best_move, best, ss->raw_eval, depth, bound);
    update_correction(pos, ss, best, best_move, bound, depth);
}

Score tb_score(TbWdl wdl, int ply, bool rule50) {
    if (!rule50) wdl = tb_wdl_without_rule50(wdl);
    switch (wdl) {
    case TbWdl::WIN:
        return tb_win_in(ply);
    case TbWdl::LOSS:
        return tb_loss_in(ply);
    case TbWdl::CURSED_WIN:
        return SCORE_DRAW + 1;
    case TbWdl::BLESSED_LOSS:
        return SCORE_DRAW - 1;
    case TbWdl::DRAW:
        break;
    }
    return SCORE_DRAW;
}

Score shown_score(const SearchTables* tb, Move first, Score searched) {
    if (!tb || is_mate_score(searched)) return searched;
    for (const auto& [move, score] : tb->root_scores)
        if (move == first) return score;
    return searched;
}

// The tables' verdict on a position they hold with the fifty-move counter at zero (only
// then does a WDL table answer for the game). A verdict that settles the window is stored and
// returned; in a PV node one that does not bounds what the moves may return instead.
std::optional<Score> Searcher::tablebase_probe(const Position& pos, Score& alpha, Score beta,
                                               Depth depth, int ply, bool pv_node, Score& floor,
                                               Score& cap) {
    const SearchTables* tb = context_->tables;
    if (!tb || pos.rule50() != 0 || pos.castling_rights()) return std::nullopt;
    const int pieces = popcount(pos.pieces());
    if (pieces > tb->cardinality || (pieces == tb->cardinality && depth < tb->probe_depth))
        return std::nullopt;
    const auto wdl = tb->tables->probe_wdl(pos);
    if (!wdl) return std::nullopt;
    tbhits_.store(tbhits_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    const Score score = tb_score(*wdl, ply, tb->rule50);
    const Bound bound = score >= SCORE_TB_WIN_IN_MAX_PLY    ? BOUND_LOWER
                        : score <= -SCORE_TB_WIN_IN_MAX_PLY ? BOUND_UPPER
                                                            : BOUND_EXACT;
    if (bound == BOUND_EXACT || (bound == BOUND_LOWER ? score >= beta : score <= alpha)) {
        tt_.store(pos.key(), ply, Move::none(), score, SCORE_NONE,
                  std::min(MAX_PLY - 1, depth + sp::TB_DEPTH_BONUS), bound);
        return score;
    }
    if (pv_node) {
        if (bound == BOUND_LOWER) {
            floor = score;
            alpha = std::max(alpha, score);
        } else {
            cap = score;
        }
    }
    return std::nullopt;
}

Score Searcher::search(Position& pos, Score alpha, Score beta, Depth depth, int ply,
                       bool cut_node) {
    const bool pv_node = beta - alpha > 1;
    const bool root = ply == 0;
    // Straight below a null move, quiescence also tries quiet checks: the threat the null move
    // would otherwise miss is often a quiet mate.
    if (depth <= 0)
        return qsearch(pos, alpha, beta, ply, stack_[ply + STACK_OFFSET - 1].move == Move::null());

    Frame* ss = stack_ + ply + STACK_OFFSET;
    pv_length_[ply] = 0;
    count_node();
    if (should_stop()) return SCORE_DRAW;
    seldepth_ = std::max(seldepth_, ply);

    if (!root) {
        if (auto s = draw_or_horizon(pos, ply)) return *s;
        if (mate_distance_prune(alpha, beta, ply)) return alpha;
    }

    // The excluded search of a singular test neither cuts on nor writes this node's entry.
    const Move excluded = ss->excluded;
    TTData tt;
    const bool tt_hit = !excluded && tt_.probe(pos.key(), ply, tt);
    const Move tt_move =
        root ? root_moves_[std::size_t(pv_index_)].move : (tt_hit ? tt.move : Move::none());
    if (tt_hit && !pv_node)
        if (auto s = tt_cutoff(tt, depth, alpha, beta)) return *s;
    Score floor = -SCORE_INFINITE, cap = SCORE_INFINITE; // what the tables allow
    if (!root && !excluded)
        if (auto s = tablebase_probe(pos, alpha, beta, depth, ply, pv_node, floor, cap)) return *s;

    const bool in_check = pos.in_check();
    const Score eval = node_eval(pos, ply, in_check, tt_hit, tt);
    const bool is_improving = improving(ply);
    history_->clear_killers(ply + 1);
    (ss + 1)->cutoffs = 0;
    if (!excluded) eval_change_history(pos, ply);

    if (!pv_node && !in_check && !excluded && !full_width_) {
        // Not while the opponent threatens mate beside the king: the eval counts nothing of it,
        // and a null move there must fail.
        bool mate_threat = false;
        if (reverse_futility(depth, eval, beta, is_improving)) {
            mate_threat = mate_threat_beside_king(pos);
            if (!mate_threat) return eval;
        }
        if (auto s = razor(pos, eval, alpha, depth, ply)) return *s;
        if (!mate_threat)
            if (auto s = null_move(pos, eval, beta, depth, ply, cut_node)) return *s;
        if (stopped_) return SCORE_DRAW;
        if (auto s = probcut(pos, beta, depth, ply, cut_node, is_improving, tt_hit, tt)) return *s;
        if (stopped_) return SCORE_DRAW;
    }
    if (!root && !excluded && !full_width_)
        depth = internal_iterative_reduction(depth, bool(tt_move), pv_node, cut_node);

    // Only nodes that reach their moves need the attack map (ordering and history updates).
    ss->threats = pos.attack_tiers(~pos.side_to_move());
    const OrderingContext oc = ordering_context(ply);
    MovePicker picker(pos, tt_move, *history_, oc);
    const Position::CheckInfo check_info = pos.check_info();
    const bool tt_capture = tt_move && pos.is_capture_or_promotion(tt_move);
    const bool singular = singular_candidate(tt_hit, tt, depth, ply);
    const NodeMark mark(signals_, thread_id_, pos.key(), ply);
    Score best = floor;
    Move best_move = Move::none();
    TriedMoves tried;
    int move_count = 0;
    bool skip_quiets = false;
    // Moves are pruned by count and margin only where the side to move has pieces: with king
    // and pawns alone the few moves there are may each be the only one that holds.
    const bool may_prune = !root && !full_width_ && has_non_pawn_material(pos, pos.side_to_move());

    // The root too takes its moves in the picker's order (its line's best move first, then
    // captures, killers, quiets by history), leaving out moves it does not search.
    for (;;) {
        const Move m = picker.next();
        if (!m) break;
        if (m == excluded || (root && !root_moves_.searches(m, std::size_t(pv_index_)))) continue;
        const MoveInfo mi = move_info(pos, m, ++move_count, oc, check_info);
        if (may_prune && best > -SCORE_TB_WIN_IN_MAX_PLY &&
            prune_move(pos, mi, depth, ss->static_eval, alpha, is_improving, pv_node, skip_quiets))
            continue;

        int extension = 0;
        if (singular && m == tt.move) {
            std::optional<Score> multi_cut;
            extension = singular_extension(pos, tt, beta, depth, ply, cut_node, pv_node, multi_cut);
            if (multi_cut) return *multi_cut;
            if (stopped_) return SCORE_DRAW;
        } else {
            extension = check_extension(mi, ply);
        }

        const std::uint64_t nodes_before = nodes();
        // Only a reply deep enough for ProbCut needs to know (the SEE costs time).
        play(pos, ply, m, extension,
             depth > sp::PROBCUT_MIN_DEPTH && !pos.see_ge(m, -sp::PROBCUT_SACRIFICE));
        const int r = late_move_reduction(mi, depth, pv_node, cut_node, is_improving, tt_capture,
                                          mark.marked(), (ss + 1)->cutoffs > sp::CUTOFFS_MANY);
        const Score score = search_move(pos, alpha, beta, depth - 1 + extension, r, ply,
                                        move_count == 1, pv_node, cut_node, best);
        pos.unmake_move(m);
        if (stopped_) return SCORE_DRAW;
        if (root)
            root_moves_.record(m, move_count == 1, score, alpha, beta, seldepth_,
                               nodes() - nodes_before, pv_[1], pv_length_[1]);

        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node) update_pv(ply, m);
                if (score >= beta) {
                    ++ss->cutoffs;
                    update_histories(pos, ply, m, depth, tried);
                    break;
                }
                alpha = score;
            }
        }
        if (m != best_move) tried.add(m, mi.quiet);
    }

    if (move_count == 0) return excluded ? alpha : in_check ? mated_in(ply) : SCORE_DRAW;
    if (!root) best = softened_fail_high(best, beta, depth);
    best = std::min(best, cap);
    if (!excluded && !(root && pv_index_ > 0))
        store_result(pos, ply, best, best_move, depth, pv_node, beta);
    return best;
}

Score Searcher::qsearch(Position& pos, Score alpha, Score beta, int ply, bool checks) {
    pv_length_[ply] = 0;
    count_node();
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
    Score raw_eval = SCORE_NONE;
    if (!in_check) {
        raw_eval = raw_static_eval(pos, tt_hit, tt);
        stand_pat = corrected(pos, raw_eval);
        best = refined_by_tt(stand_pat, tt_hit, tt);
        if (best >= beta) return best;
        alpha = std::max(alpha, best);
    }

    MovePicker picker(pos, tt_hit ? tt.move : Move::none(), *history_, checks && !in_check);
    Move best_move = Move::none();
    int move_count = 0;
    for (Move m = picker.next(); m; m = picker.next()) {
        ++move_count;
        if (!in_check) {
            if (!pos.see_ge(m, 0)) continue;
            // Futility: a capture that wins nothing cannot lift a hopeless stand pat. (A quiet
            // check is here for the mate it may threaten, not for material: it stays.)
            if (m.type() != PROMOTION && pos.is_capture_or_promotion(m) &&
                stand_pat + sp::QS_FUTILITY_MARGIN <= alpha && !pos.see_ge(m, 1)) {
                best = std::max(best, stand_pat + sp::QS_FUTILITY_MARGIN);
                continue;
            }
        }
        tt_.prefetch(pos.key_after(m));
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
    // A move's cutoff is softened as a one-ply search's would be; the stand pat's is not.
    if (best_move) best = softened_fail_high(best, beta, 1);

    tt_.store(pos.key(), ply, best_move, best, raw_eval, 0,
              best >= beta ? BOUND_LOWER : BOUND_UPPER);
    return best;
}

Score Searcher::aspiration(Position& pos, Score previous, Depth depth) {
    if (depth < sp::ASPIRATION_MIN_DEPTH || is_decisive(previous))
        return search(pos, -SCORE_INFINITE, SCORE_INFINITE, depth, 0, false);
    int delta = sp::ASPIRATION_DELTA;
    Score alpha = std::max(previous - delta, -SCORE_INFINITE);
    Score beta = std::min(previous + delta, SCORE_INFINITE);
    // After a fail high the next try is a ply shallower, up to ASPIRATION_FAIL_HIGH_PLIES: the
    // score is already above the window, and a shallower search finds how far sooner. The
    // iteration is still reported as `depth`, the depth the root was asked to reach.
    int fail_highs = 0;
    for (;;) {
        const Score score = search(pos, alpha, beta, std::max(depth - fail_highs, 1), 0, false);
        if (stopped_) return score;
        if (score <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = std::max(score - delta, -SCORE_INFINITE);
            fail_highs = 0;
        } else if (score >= beta) {
            beta = std::min(score + delta, SCORE_INFINITE);
            fail_highs = std::min(fail_highs + 1, sp::ASPIRATION_FAIL_HIGH_PLIES);
        } else {
            return score;
        }
        delta += delta / 2;
        if (delta > sp::ASPIRATION_WIDEN_LIMIT) alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    }
}

// Root move `rm` as line `multipv` of iteration `depth`, with the search's nodes and time now.
SearchReport Searcher::line_report(const RootMove& rm, int depth, int multipv) const {
    const bool fresh = rm.score != -SCORE_INFINITE;
    SearchReport r;
    r.depth = depth;
    r.seldepth = std::max(rm.seldepth, depth);
    r.multipv = multipv;
    r.score = fresh ? rm.score : rm.previous_score;
    r.bound = fresh ? rm.bound : BOUND_EXACT;
    r.nodes = context_->total_nodes();
    r.time_us = time_->search_elapsed_us();
    r.time_ms = r.time_us / 1000;
    r.hashfull = tt_.hashfull();
    r.pv = rm.pv;
    if (r.pv.empty()) r.pv.assign(1, rm.move);
    if (context_->tables) {
        r.tbhits = context_->total_tbhits();
        r.score = shown_score(context_->tables, r.pv[0], r.score);
    }
    return r;
}

void Searcher::report_lines(int depth) {
    final_lines_.clear();
    for (int k = 0; k < multipv_; ++k)
        final_lines_.push_back(line_report(root_moves_[std::size_t(k)], depth, k + 1));
    for (const SearchReport& r : final_lines_)
        context_->report(r);
    final_reported_ = true;
}

// The main thread, stopped in iteration `depth` after completing `lines` of its lines: the
// search ends on those lines, at this depth, then on the lines last reported whose moves they
// do not hold, at theirs (each ranked among the lines of its own depth). With one line, it
// also counts when only its first move was searched: that move beat the previous best (or is
// it, with a fresh score).
void Searcher::keep_interrupted(int depth, int lines) {
    if (multipv_ == 1 && root_moves_[0].score != -SCORE_INFINITE && depth > 1) lines = 1;
    if (lines == 0) return;
    completed_pv_ = root_moves_[0].pv;
    completed_score_ = root_moves_[0].score;
    std::vector<SearchReport> kept;
    for (int k = 0; k < lines; ++k)
        kept.push_back(line_report(root_moves_[std::size_t(k)], depth, k + 1));
    for (const SearchReport& r : final_lines_) {
        if (int(kept.size()) == multipv_) break;
        if (std::none_of(kept.begin(), kept.end(),
                         [&](const SearchReport& k) { return k.pv[0] == r.pv[0]; })) {
            kept.push_back(r);
            kept.back().multipv = int(kept.size());
        }
    }
    final_lines_ = std::move(kept);
    final_reported_ = false;
}

// After an iteration: whether the next one would overrun the time this move deserves.
bool Searcher::time_to_stop_iterating(Score score, Move best) {
    stability_ = best == last_best_ ? stability_ + 1 : 0;
    last_best_ = best;
    const Score drop = last_score_ == SCORE_NONE ? 0 : last_score_ - score;
    last_score_ = score;
    if (!time_->has_limit() || time_->fixed() || signals_.pondering.load()) return false;

    double scale = sp::STABILITY_SCALE[std::min(stability_, 4)] / 100.0;
    scale *= 1.0 + std::clamp(drop, 0, sp::SCORE_DROP_CAP) / sp::SCORE_DROP_DIVISOR;
    const double share = double(root_moves_[0].nodes) / double(std::max<std::uint64_t>(1, nodes()));
    scale *= (sp::NODE_SHARE_BASE - share) * sp::NODE_SHARE_SLOPE;
    return double(time_->elapsed_ms()) >=
           double(time_->soft_ms()) * scale * sp::NEXT_ITERATION_SHARE;
}

void Searcher::iterate(Position& pos) {
    int max_depth = limits_->depth > 0 ? std::min(limits_->depth, MAX_PLY - 10) : MAX_PLY - 10;
    // go mate N: a full-width search to 2N - 1 plies finds every mate in N, to 2N plies
    // every mate in N against the side to move.
    if (full_width_) max_depth = std::min(max_depth, 2 * limits_->mate);

    RootMoves before; // Lazy SMP: the root moves before an iteration another thread overtakes
    for (int depth = smp_.first_depth(); depth <= max_depth; ++depth) {
        const auto next = smp_.next_iteration(depth, max_depth);
        if (!next) break;
        depth = root_depth_ = next->depth;
        int adopted = next->adopt ? smp_.adopt_deeper_line(root_moves_, root_moves_, depth) : 0;
        int lines = multipv_; // the lines completed
        if (!adopted) {
            if (smp_.shares_lines()) before = root_moves_;
            lines = search_lines(pos, depth);
            if (abandoned_ && !signals_.stop.load()) {
                stopped_ = abandoned_ = false;
                adopted = smp_.adopt_deeper_line(root_moves_, before, depth);
                if (!adopted) continue;
                lines = multipv_;
            }
        }
        if (adopted) depth = adopted;
        if (!complete_iteration(depth, lines)) break;
    }
}

// One iteration: each of the multipv_ lines in turn, in an aspiration window around its
// previous score. Returns how many lines it completed (all unless stopped).
int Searcher::search_lines(Position& pos, Depth depth) {
    root_moves_.start_iteration();
    int completed = 0;
    for (pv_index_ = 0; pv_index_ < multipv_ && !stopped_; ++pv_index_) {
        seldepth_ = 0;
        const Score previous = root_moves_[std::size_t(pv_index_)].previous_score;
        aspiration(pos, previous == -SCORE_INFINITE ? 0 : previous, depth);
        root_moves_.rank(pv_index_, stopped_);
        completed += !stopped_;
    }
    pv_index_ = 0;
    return completed;
}

// After iteration `depth` (searched or taken over, `lines` of its lines completed): keeps its
// result, shares it with the other threads and, on the main thread, reports it. False when the
// search ends here.
bool Searcher::complete_iteration(int depth, int lines) {
    const RootMove& first = root_moves_[0];
    if (stopped_) {
        if (is_main()) keep_interrupted(depth, lines);
        return false;
    }
    completed_depth_ = depth;
    completed_score_ = first.score;
    completed_pv_ = first.pv;
    signals_.publish(depth, first.seldepth, first.score, first.pv);
    if (!is_main()) return !signals_.helpers_stop.load() && !signals_.stop.load();
    report_lines(depth);
    return !last_iteration(depth, first.move);
}

// The main thread after a completed iteration: whether it is the last one (the mate asked for,
// a proven mate, a forced move, the time, or stop).
bool Searcher::last_iteration(int depth, Move best) {
    const Score score = completed_score_;
    // go mate N: a mate in N for either side is proven (the search is full width).
    if (limits_->mate > 0 &&
        (score >= mate_in(2 * limits_->mate - 1) || score <= mated_in(2 * limits_->mate)))
        return true;
    // A proven mate well inside the horizon: deeper iterations cannot change it.
    if (is_mate_score(score) && depth > SCORE_MATE - std::abs(score) + 8) return true;
    // Under a game clock one move to choose from (one legal, or one allowed by searchmoves) is
    // played at once; a fixed movetime is the user's to spend, as for any other position.
    const bool clock = time_->has_limit() && !time_->fixed() && !signals_.pondering.load();
    if (clock && root_moves_.size() == 1 && depth >= 2) return true; // a forced move
    if (time_to_stop_iterating(score, best)) return true;
    return signals_.stop.load();
}

int Searcher::eval_change_probe(const Position& root, Move m, Score before, Score after) {
    Position pos = root;
    Frame* prev = stack_ + STACK_OFFSET;
    prev->static_eval = before;
    prev->threats = pos.attack_tiers(~pos.side_to_move());
    play(pos, 0, m, 0);
    (prev + 1)->static_eval = after;
    eval_change_history(pos, 1);
    pos.unmake_move(m);
    return history_->quiet_score(pos.side_to_move(), m, prev->threats.all);
}

Searcher::SingularProbe Searcher::singular_probe(const Position& root, Depth depth, Score beta,
                                                 bool cut_node) {
    // No limits, no clock, every move: the probe's own, for as long as it runs.
    const SearchLimits no_limits{};
    TimeManager clock;
    const std::vector<Move> all_moves;
    SearchContext context;
    context.limits = &no_limits;
    context.time = &clock;
    context.searchmoves = &all_moves;
    context.total_nodes = [this] { return nodes(); };
    begin(context);
    root_depth_ = depth;

    SingularProbe probe;
    Position pos = root;
    TTData tt;
    if (tt_.probe(pos.key(), 1, tt) && tt.move && (tt.bound & BOUND_LOWER) && !pos.in_check()) {
        Frame* ss = stack_ + 1 + STACK_OFFSET;
        ss->raw_eval = raw_static_eval(pos, true, tt);
        ss->static_eval = corrected(pos, ss->raw_eval);
        probe.ran = true;
        probe.static_eval_before = ss->static_eval;
        probe.extension =
            singular_extension(pos, tt, beta, depth, 1, cut_node, false, probe.multi_cut);
        probe.excluded_after = ss->excluded;
        probe.static_eval_after = ss->static_eval;
    }
    // They pointed at this call's locals.
    context_ = nullptr;
    limits_ = nullptr;
    time_ = nullptr;
    return probe;
}

void Searcher::begin(const SearchContext& context) {
    context_ = &context;
    limits_ = context.limits;
    time_ = context.time;
    eval_params_ = context.eval_params ? context.eval_params : &default_eval_params();
    stopped_ = abandoned_ = false;
    full_width_ = limits_->mate > 0;
    nmp_min_ply_ = 0;
    for (auto& f : stack_)
        f = Frame{};
}

SearchResult Searcher::run(const Position& root, const SearchContext& context) {
    begin(context); // the node count was zeroed by the pool before any thread started
    completed_depth_ = 0;
    completed_score_ = -SCORE_INFINITE;
    completed_pv_.clear();
    final_lines_.clear();
    final_reported_ = false;
    last_best_ = Move::none();
    stability_ = 0;
    last_score_ = SCORE_NONE;

    root_moves_.init(root, *context.searchmoves);
    multipv_ = std::min<int>(std::max(1, context.multipv), int(root_moves_.size()));
    smp_.begin(multipv_);

    SearchResult result;
    if (!root_moves_.empty()) {
        Position pos = root;
        iterate(pos);
    }
    result.nodes = nodes();
    // The depth of the line it ends on: one more than the last completed iteration when it
    // kept lines of the interrupted one (the helpers are weighed against that).
    result.depth = final_lines_.empty() ? completed_depth_ : final_lines_.front().depth;
    result.score = completed_score_;
    result.pv = completed_pv_;
    result.lines = final_lines_;
    result.reported = final_reported_;
    if (!completed_pv_.empty()) {
        result.best = completed_pv_[0];
        if (completed_pv_.size() > 1) {
            result.ponder = completed_pv_[1];
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
