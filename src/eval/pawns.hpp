// The evaluation's per-thread caches: the pawn hash (the pawn-structure part, by pawn key)
// and the material table (the imbalance part, by the piece counts).
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

struct MaterialEntry {
    std::uint64_t key = 0; // the packed piece counts, plus one (0 is an empty slot)
    std::uint64_t params_signature = 0;
    int mg = 0; // white minus black
    int eg = 0;
};

// One per search thread; cleared implicitly when the weights change (entries carry the
// signature of the weights they were computed with).
class PawnCache {
public:
    static constexpr int SIZE = 1 << 14;
    static constexpr int MATERIAL_BITS = 11;
    PawnCache() : entries_(SIZE), material_(std::size_t(1) << MATERIAL_BITS) {}
    PawnEntry& slot(Key key) { return entries_[key & (SIZE - 1)]; }
    MaterialEntry& material_slot(std::uint64_t key) {
        return material_[(key * 0x9E3779B97F4A7C15ULL) >> (64 - MATERIAL_BITS)];
    }
    void clear() {
        std::fill(entries_.begin(), entries_.end(), PawnEntry{});
        std::fill(material_.begin(), material_.end(), MaterialEntry{});
    }

private:
    std::vector<PawnEntry> entries_;
    std::vector<MaterialEntry> material_;
};

} // namespace horizon
