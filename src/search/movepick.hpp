// Staged move picker: the TT move, good captures (MVV plus capture history, SEE >= 0),
// quiets (killers and the counter-move first, then butterfly plus continuation histories),
// losing captures and under-promotions. In quiescence only the noisy stages run (every
// evasion when in check). The TT move (which may not belong to this position) is played
// only when Position::is_surely_legal accepts it or the legal generator produced it.
#pragma once

#include "core/position.hpp"
#include "movegen/movegen.hpp"
#include "search/history.hpp"

namespace horizon {

// What the picker needs of the search stack: killers, counter-move and the continuation
// tables of the moves 1, 2 and 4 plies back (the sentinel where there is none).
struct OrderingContext {
    Move killers[2];
    Move counter;
    const PieceToHistory* continuation[3];
    Position::AttackTiers threats; // the squares the opponent attacks
};

class MovePicker {
public:
    // Main search.
    MovePicker(const Position& pos, Move tt_move, const History& history,
               const OrderingContext& context);
    // Quiescence: noisy moves only (all evasions when in check), then with `quiet_checks` the
    // quiet moves that give check.
    MovePicker(const Position& pos, Move tt_move, const History& history,
               bool quiet_checks = false);

    // Next move, or Move::none() when exhausted.
    Move next();

    static int quiet_history(const Position& pos, const History& history,
                             const OrderingContext& context, Move m);
    // What a quiet move other than a killer or the counter-move is ordered by: its history and
    // whether it takes a piece out of (or into) an attack by a lesser one.
    static int quiet_order_score(const Position& pos, const History& history,
                                 const OrderingContext& context, Move m);

private:
    enum Stage { TT_MOVE, GOOD_NOISY, QUIETS, BAD_NOISY, QUIET_CHECKS, DONE };
    // The move as its raw bits: a trivial type, so the arrays below are not initialised on
    // every construction (Move's default constructor would write all 768 entries).
    struct Scored {
        std::uint16_t raw;
        int score;
        Move move() const { return Move(raw); }
    };
    void init(Move tt_move);
    void generate_noisy();
    void generate_quiets();

    const Position& pos_;
    const History& history_;
    const OrderingContext* context_ = nullptr;
    Move tt_move_;
    bool noisy_only_;
    bool quiet_checks_ = false;
    bool noisy_generated_ = false;
    bool quiets_generated_ = false;
    Stage stage_ = TT_MOVE;

    Scored noisy_[MoveList::CAPACITY];
    Scored quiets_[MoveList::CAPACITY];
    Scored bad_[MoveList::CAPACITY];
    int noisy_count_ = 0, noisy_index_ = 0;
    int quiet_count_ = 0, quiet_index_ = 0;
    int bad_count_ = 0, bad_index_ = 0;
};

} // namespace horizon
