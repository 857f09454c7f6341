// Staged move picker: TT move, good captures (MVV-LVA, SEE >= 0), quiets (killers first,
// then history), losing captures. In quiescence only the noisy stages run (all evasions
// when in check).
#pragma once

#include "core/position.hpp"
#include "movegen/movegen.hpp"
#include "search/history.hpp"

namespace horizon {

class MovePicker {
public:
    MovePicker(const Position& pos, Move tt_move, const History& history, int ply,
               bool noisy_only);
    // Next move, or Move::none() when exhausted.
    Move next();

private:
    enum Stage { TT_MOVE, GOOD_NOISY, QUIETS, BAD_NOISY, DONE };
    struct Scored {
        Move move;
        int score;
    };
    void generate_noisy();
    void generate_quiets();
    static Move pick_best(Scored* begin, Scored* end);

    const Position& pos_;
    const History& history_;
    Move tt_move_;
    int ply_;
    bool noisy_only_;
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
