// Transposition table: buckets of three entries, depth-and-age replacement, mate scores
// stored relative to the node.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/types.hpp"
#include "platform/memory_pages.hpp"

namespace horizon {

enum Bound : std::uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

struct TTData {
    Move move;
    Score score = SCORE_NONE;
    Score eval = SCORE_NONE;
    Depth depth = 0;
    Bound bound = BOUND_NONE;
};

class TranspositionTable {
public:
    explicit TranspositionTable(std::size_t mib = 16) { resize(mib); }
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    // Reallocates to `mib` MiB (at least one bucket), empty. The memory comes from the OS
    // already zeroed and is touched only when used, so any size answers at once. Returns
    // false, keeping the table as it was, when the machine cannot hold that size (more
    // than its physical memory) or the allocation fails.
    bool resize(std::size_t mib);
    void clear();
    // Physical memory of this machine in MiB (0 when unknown).
    static std::size_t physical_mib();
    void new_search() { generation_ = std::uint8_t((generation_ + 1) & 63); }

    // Looks the key up; the score comes back adjusted for `ply`.
    bool probe(Key key, int ply, TTData& out) const;
    void store(Key key, int ply, Move move, Score score, Score eval, Depth depth, Bound bound);
    void prefetch(Key key) const { __builtin_prefetch(&buckets_[index(key)]); }

    // Permille of the first 1000 buckets' entries written in this search.
    int hashfull() const;
    std::size_t size_mib() const { return mib_; }

private:
    // Entry i of a bucket is two words, each read and written whole (relaxed atomics), so
    // threads share the table without locks: data[i] (key check 16 | move 16 | score 16 |
    // static eval 16) and meta[i] (generation 6 and bound 2 | depth + 1, 0 = empty). The key
    // check is stored XOR the meta word: a data word read together with another write's
    // meta word fails the key check, so a torn read is a miss, never a mix of entries.
    static constexpr int BUCKET_SIZE = 3;
    struct alignas(32) Bucket {
        std::uint64_t data[BUCKET_SIZE];
        std::uint16_t meta[BUCKET_SIZE];
        std::uint16_t padding;
    };
    static_assert(sizeof(Bucket) == 32);

    std::size_t index(Key key) const {
        return std::size_t((static_cast<unsigned __int128>(key) * count_) >> 64);
    }

    void adopt(ZeroedPages pages); // frees the old table

    ZeroedPages pages_;
    Bucket* buckets_ = nullptr; // pages_.data()
    std::size_t count_ = 0;
    std::size_t mib_ = 0;
    std::uint8_t generation_ = 0;
};

// Mate and tablebase scores are stored as distance from the node, not from the root.
inline Score score_to_tt(Score s, int ply) {
    if (s >= SCORE_TB_WIN_IN_MAX_PLY) return s + ply;
    if (s <= -SCORE_TB_WIN_IN_MAX_PLY) return s - ply;
    return s;
}
inline Score score_from_tt(Score s, int ply) {
    if (s == SCORE_NONE) return s;
    if (s >= SCORE_TB_WIN_IN_MAX_PLY) return s - ply;
    if (s <= -SCORE_TB_WIN_IN_MAX_PLY) return s + ply;
    return s;
}

} // namespace horizon
