// Move-ordering memory: killer moves and butterfly history.
#pragma once

#include <cstdlib>
#include <cstring>

#include "core/types.hpp"
#include "search/params.hpp"

namespace horizon {

struct History {
    Move killers[MAX_PLY + 2][2]{};
    int butterfly[COLOR_NB][SQUARE_NB][SQUARE_NB]{};

    void clear() {
        std::memset(static_cast<void*>(killers), 0, sizeof killers);
        std::memset(butterfly, 0, sizeof butterfly);
    }
    void clear_killers(int ply) { killers[ply][0] = killers[ply][1] = Move::none(); }

    void add_killer(int ply, Move m) {
        if (killers[ply][0] != m) {
            killers[ply][1] = killers[ply][0];
            killers[ply][0] = m;
        }
    }
    int quiet_score(Color c, Move m) const { return butterfly[c][m.from()][m.to()]; }

    // Gravity update: bonuses saturate toward +-HISTORY_MAX.
    void update_quiet(Color c, Move m, int bonus) {
        int& h = butterfly[c][m.from()][m.to()];
        h += bonus - h * std::abs(bonus) / search_params::HISTORY_MAX;
    }
};

inline int history_bonus(Depth depth) { return std::min(16 * depth * depth, 1200); }

} // namespace horizon
