#include "search/movepick.hpp"

namespace horizon {

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& history, int ply,
                       bool noisy_only)
    : pos_(pos), history_(history), tt_move_(tt_move), ply_(ply),
      noisy_only_(noisy_only && !pos.in_check()) {
    generate_noisy();
    // The TT move is played first only if it is legal here (and wanted in this mode).
    bool found = false;
    if (tt_move_) {
        for (int i = 0; i < noisy_count_ && !found; ++i) found = noisy_[i].move == tt_move_;
        if (!found && !noisy_only_) {
            generate_quiets();
            for (int i = 0; i < quiet_count_ && !found; ++i) found = quiets_[i].move == tt_move_;
        }
    }
    if (!found) tt_move_ = Move::none();
    stage_ = tt_move_ ? TT_MOVE : GOOD_NOISY;
}

void MovePicker::generate_noisy() {
    MoveList list;
    generate<GenType::NOISY>(pos_, list);
    for (Move m : list) {
        // MVV-LVA; promotions count as winning the promoted piece's value.
        const PieceType victim =
            m.type() == EN_PASSANT ? PAWN : type_of(pos_.piece_on(m.to()));
        int score = Position::see_value(victim) * 8 - Position::see_value(type_of(pos_.moved_piece(m))) / 100;
        if (m.type() == PROMOTION) score += Position::see_value(m.promotion_type()) * 8;
        noisy_[noisy_count_++] = {m, score};
    }
}

void MovePicker::generate_quiets() {
    quiets_generated_ = true;
    MoveList list;
    generate<GenType::QUIET>(pos_, list);
    const Color us = pos_.side_to_move();
    for (Move m : list) {
        int score = history_.quiet_score(us, m);
        if (m == history_.killers[ply_][0]) score = 1 << 20;
        else if (m == history_.killers[ply_][1]) score = (1 << 20) - 1;
        quiets_[quiet_count_++] = {m, score};
    }
}

Move MovePicker::pick_best(Scored* begin, Scored* end) {
    Scored* best = begin;
    for (Scored* p = begin + 1; p < end; ++p)
        if (p->score > best->score) best = p;
    std::swap(*begin, *best);
    return begin->move;
}

Move MovePicker::next() {
    switch (stage_) {
    case TT_MOVE:
        stage_ = GOOD_NOISY;
        return tt_move_;
    case GOOD_NOISY:
        while (noisy_index_ < noisy_count_) {
            const Move m = pick_best(noisy_ + noisy_index_, noisy_ + noisy_count_);
            const Scored s = noisy_[noisy_index_++];
            if (m == tt_move_) continue;
            // Losing captures wait until after the quiets (in quiescence they still come,
            // and the search decides whether to prune them).
            if (!noisy_only_ && !pos_.see_ge(m, 0)) {
                bad_[bad_count_++] = s;
                continue;
            }
            return m;
        }
        stage_ = noisy_only_ ? DONE : QUIETS;
        if (!noisy_only_ && !quiets_generated_) generate_quiets();
        return next();
    case QUIETS:
        while (quiet_index_ < quiet_count_) {
            const Move m = pick_best(quiets_ + quiet_index_, quiets_ + quiet_count_);
            ++quiet_index_;
            if (m != tt_move_) return m;
        }
        stage_ = BAD_NOISY;
        return next();
    case BAD_NOISY:
        while (bad_index_ < bad_count_) {
            const Move m = bad_[bad_index_++].move;
            if (m != tt_move_) return m;
        }
        stage_ = DONE;
        return Move::none();
    case DONE: break;
    }
    return Move::none();
}

} // namespace horizon
