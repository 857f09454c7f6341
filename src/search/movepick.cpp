#include "search/movepick.hpp"

#include <algorithm>

namespace horizon {

namespace {

constexpr int KILLER_SCORE = 1 << 20;
// How many quiet moves are picked one by one before the rest are sorted.
constexpr int LAZY_PICKS = 6;

// Brings the best of [begin, end) to begin, the first of equals, keeping the others in their
// order: picked one at a time, the moves come as a stable sort would put them, without the cost
// of sorting the many that a pruned node never reaches.
template <class T> void pick_best(T* begin, T* end) {
    T* best = begin;
    for (T* p = begin + 1; p < end; ++p)
        if (p->score > best->score) best = p;
    const T x = *best;
    for (T* q = best; q > begin; --q)
        *q = *(q - 1);
    *begin = x;
}

// Sorts by score, best first (stable); insertion sort suits these short lists.
template <class T> void sort_descending(T* begin, T* end) {
    for (T* p = begin + 1; p < end; ++p) {
        const T x = *p;
        T* q = p;
        for (; q > begin && (q - 1)->score < x.score; --q)
            *q = *(q - 1);
        *q = x;
    }
}

// A quiet move that takes a piece out of an attack by something worth less is tried earlier,
// one that walks a piece into such an attack later, by about the piece's worth. `them`: the
// opponent's attacks.
int lesser_attack_adjustment(const Position::AttackTiers& them, PieceType pt, Square from,
                             Square to) {
    Bitboard lesser = 0;
    int worth = 0;
    switch (pt) {
    case KNIGHT:
    case BISHOP:
        lesser = them.pawn, worth = 8000;
        break;
    case ROOK:
        lesser = them.minor, worth = 12000;
        break;
    case QUEEN:
        lesser = them.rook, worth = 20000;
        break;
    default:
        return 0;
    }
    const bool from_hit = lesser & square_bb(from), to_hit = lesser & square_bb(to);
    return from_hit == to_hit ? 0 : from_hit ? worth : -worth;
}

} // namespace

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& history,
                       const OrderingContext& context)
    : pos_(pos), history_(history), context_(&context), noisy_only_(false) {
    init(tt_move);
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& history, bool quiet_checks)
    : pos_(pos), history_(history), noisy_only_(!pos.in_check()),
      quiet_checks_(quiet_checks && noisy_only_) {
    init(tt_move);
}

void MovePicker::init(Move tt_move) {
    tt_move_ = tt_move;
    // The TT move is played first only if it is legal here (and wanted in this mode). The
    // usual case is decided without generating: if it cuts off, nothing is generated.
    if (tt_move_ && pos_.is_surely_legal(tt_move_) &&
        (!noisy_only_ || pos_.is_capture_or_promotion(tt_move_))) {
        stage_ = TT_MOVE;
        return;
    }
    generate_noisy();
    bool found = false;
    if (tt_move_) {
        for (int i = 0; i < noisy_count_ && !found; ++i)
            found = noisy_[i].move() == tt_move_;
        if (!found && !noisy_only_) {
            generate_quiets();
            for (int i = 0; i < quiet_count_ && !found; ++i)
                found = quiets_[i].move() == tt_move_;
        }
    }
    if (!found) tt_move_ = Move::none();
    stage_ = tt_move_ ? TT_MOVE : GOOD_NOISY;
}

void MovePicker::generate_noisy() {
    noisy_generated_ = true;
    MoveList list;
    generate<GenType::NOISY>(pos_, list);
    for (Move m : list) {
        const PieceType victim = m.type() == EN_PASSANT ? PAWN : type_of(pos_.piece_on(m.to()));
        int score = Position::see_value(victim) * 16 +
                    history_.capture_score(pos_.moved_piece(m), m.to(), victim);
        if (m.type() == PROMOTION)
            score += m.promotion_type() == QUEEN ? Position::see_value(QUEEN) * 16 : -(1 << 16);
        noisy_[noisy_count_++] = {m.raw(), score};
    }
    sort_descending(noisy_, noisy_ + noisy_count_);
}

int MovePicker::quiet_history(const Position& pos, const History& history,
                              const OrderingContext& context, Move m) {
    const Piece pc = pos.moved_piece(m);
    const Square to = m.to();
    return history.quiet_score(pos.side_to_move(), m, context.threats.all) +
           history.pawn_score(pos.pawn_key(), pc, to) + (*context.continuation[0])[pc][to] +
           (*context.continuation[1])[pc][to] + (*context.continuation[2])[pc][to] / 2;
}

int MovePicker::quiet_order_score(const Position& pos, const History& history,
                                  const OrderingContext& context, Move m) {
    return quiet_history(pos, history, context, m) +
           lesser_attack_adjustment(context.threats, type_of(pos.moved_piece(m)), m.from(), m.to());
}

void MovePicker::generate_quiets() {
    quiets_generated_ = true;
    MoveList list;
    generate<GenType::QUIET>(pos_, list);
    const Bitboard threats =
        context_ ? context_->threats.all : pos_.attacked_by(~pos_.side_to_move());
    for (Move m : list) {
        int score;
        if (!context_)
            score = history_.quiet_score(pos_.side_to_move(), m, threats);
        else if (m == context_->killers[0])
            score = KILLER_SCORE + 2;
        else if (m == context_->killers[1])
            score = KILLER_SCORE + 1;
        else if (m == context_->counter)
            score = KILLER_SCORE;
        else
            score = quiet_order_score(pos_, history_, *context_, m);
        quiets_[quiet_count_++] = {m.raw(), score};
    }
}

Move MovePicker::next() {
    switch (stage_) {
    case TT_MOVE:
        stage_ = GOOD_NOISY;
        return tt_move_;
    case GOOD_NOISY:
        if (!noisy_generated_) generate_noisy();
        while (noisy_index_ < noisy_count_) {
            const Scored s = noisy_[noisy_index_++];
            if (s.move() == tt_move_) continue;
            // Losing captures and under-promotions wait until after the quiets (in
            // quiescence they still come, and the search decides whether to prune them).
            const bool under = s.move().type() == PROMOTION && s.move().promotion_type() != QUEEN;
            if (!noisy_only_ && (under || !pos_.see_ge(s.move(), 0))) {
                bad_[bad_count_++] = s;
                continue;
            }
            return s.move();
        }
        stage_ = noisy_only_ ? (quiet_checks_ ? QUIET_CHECKS : DONE) : QUIETS;
        if (!quiets_generated_ && stage_ != DONE) generate_quiets();
        return next();
    case QUIETS:
        while (quiet_index_ < quiet_count_) {
            // The first few are picked; a node that goes on to more sorts the rest at once.
            if (quiet_index_ < LAZY_PICKS)
                pick_best(quiets_ + quiet_index_, quiets_ + quiet_count_);
            else if (quiet_index_ == LAZY_PICKS)
                sort_descending(quiets_ + quiet_index_, quiets_ + quiet_count_);
            const Move m = quiets_[quiet_index_++].move();
            if (m != tt_move_) return m;
        }
        stage_ = BAD_NOISY;
        return next();
    case BAD_NOISY:
        while (bad_index_ < bad_count_) {
            const Move m = bad_[bad_index_++].move();
            if (m != tt_move_) return m;
        }
        stage_ = DONE;
        return Move::none();
    case QUIET_CHECKS:
        if (quiet_index_ == 0) { // first keep only the checks, in their order
            int checks = 0;
            for (int i = 0; i < quiet_count_; ++i)
                if (pos_.gives_check(quiets_[i].move())) quiets_[checks++] = quiets_[i];
            quiet_count_ = checks;
        }
        if (quiet_index_ < quiet_count_) {
            pick_best(quiets_ + quiet_index_, quiets_ + quiet_count_);
            return quiets_[quiet_index_++].move();
        }
        stage_ = DONE;
        return Move::none();
    case DONE:
        break;
    }
    return Move::none();
}

} // namespace horizon
