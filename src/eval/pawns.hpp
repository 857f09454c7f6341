// The pawn hash: the pawn-structure part of the evaluation, cached by pawn key.
#pragma once

#include <cstdint>
#include <vector>

#include "core/bitboard.hpp"
#include "core/types.hpp"

namespace horizon {

struct EvalParams;

struct PawnEntry {
    Key key = 0;
    std::uint64_t params_signature = 0;
    int mg = 0; // white minus black
    int eg = 0;
    Bitboard passed[COLOR_NB]{};
};

// One per search thread; cleared implicitly when the weights change (entries carry the
// signature of the weights they were computed with).
class PawnCache {
public:
    static constexpr int SIZE = 1 << 14;
    PawnCache() : entries_(SIZE) {}
    PawnEntry& slot(Key key) { return entries_[key & (SIZE - 1)]; }
    void clear() { std::fill(entries_.begin(), entries_.end(), PawnEntry{}); }

private:
    std::vector<PawnEntry> entries_;
};

} // namespace horizon
