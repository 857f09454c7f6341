// splitmix64: a small, fast generator whose sequence is the same on every platform. The
// Zobrist keys, datagen's openings and the strength limit's choices draw from it.
#pragma once

#include <cstdint>

namespace horizon {

// The next number of the sequence whose state is `state` (advanced).
inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace horizon
