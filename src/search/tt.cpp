#include "search/tt.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <utility>

#include "platform/memory_pages.hpp"

namespace horizon {

namespace {
// Up to this size a clear is a memset of the whole table (so the first clear also puts the
// table in memory before any search). A larger table has only the pages a search touched
// zeroed (on Linux), as long as they are at most TOUCHED_CLEAR_MAX: the others are still
// the OS's zero pages. Beyond that, the table is handed back to the OS and asked for again,
// which gives zeroed pages without touching them, but then the next searches fault them in
// again: with Hash 256 on a virtual machine, the bench positions played as 40 games to
// depth 13 took 1.29x as long so (scripts/measure/newgame_cost.py).
constexpr std::size_t MEMSET_CLEAR_MAX = std::size_t(64) << 20;
constexpr std::size_t TOUCHED_CLEAR_MAX = std::size_t(1) << 30;
} // namespace

std::size_t TranspositionTable::physical_mib() { return physical_memory_mib(); }

void TranspositionTable::adopt(ZeroedPages pages) {
    pages_ = std::move(pages);
    buckets_ = static_cast<Bucket*>(pages_.data());
}

bool TranspositionTable::resize(std::size_t mib) {
    const std::size_t physical = physical_mib();
    if (buckets_ && physical && mib > physical) return false;
    const std::size_t count = std::max<std::size_t>(1, mib * 1024 * 1024 / sizeof(Bucket));
    ZeroedPages pages = ZeroedPages::allocate(count * sizeof(Bucket));
    if (!pages) return false;
    adopt(std::move(pages));
    count_ = count;
    mib_ = mib;
    generation_ = 0;
    return true;
}

void TranspositionTable::clear() {
    generation_ = 0;
    const std::size_t bytes = count_ * sizeof(Bucket);
    if (bytes > MEMSET_CLEAR_MAX) {
        if (pages_.clear_touched(TOUCHED_CLEAR_MAX)) return;
        if (ZeroedPages fresh = ZeroedPages::allocate(bytes)) {
            adopt(std::move(fresh));
            return;
        }
        // Without a second table's worth of address space, it clears in place.
    }
    std::memset(static_cast<void*>(buckets_), 0, bytes);
}

namespace {

std::uint64_t load(const std::uint64_t& x) {
    return std::atomic_ref<const std::uint64_t>(x).load(std::memory_order_relaxed);
}
std::uint16_t load(const std::uint16_t& x) {
    return std::atomic_ref<const std::uint16_t>(x).load(std::memory_order_relaxed);
}
template <class T> void store_relaxed(T& x, T v) {
    std::atomic_ref<T>(x).store(v, std::memory_order_relaxed);
}

int meta_depth(std::uint16_t meta) { return meta & 0xFF; } // depth + 1; 0 = empty
int meta_generation(std::uint16_t meta) { return meta >> 10; }
Bound meta_bound(std::uint16_t meta) { return Bound((meta >> 8) & 3); }
std::uint16_t key_check(std::uint64_t data, std::uint16_t meta) {
    return std::uint16_t(data) ^ meta;
}

} // namespace

bool TranspositionTable::probe(Key key, int ply, TTData& out) const {
    const Bucket& b = buckets_[index(key)];
    const auto key16 = std::uint16_t(key); // low bits: index() uses the high ones
    for (int i = 0; i < BUCKET_SIZE; ++i) {
        const std::uint16_t meta = load(b.meta[i]);
        if (!meta_depth(meta)) continue;
        const std::uint64_t data = load(b.data[i]);
        if (key_check(data, meta) != key16) continue;
        out.move = Move(std::uint16_t(data >> 16));
        out.score = score_from_tt(std::int16_t(data >> 32), ply);
        out.eval = std::int16_t(data >> 48);
        out.depth = meta_depth(meta) - 1;
        out.bound = meta_bound(meta);
        return true;
    }
    return false;
}

void TranspositionTable::store(Key key, int ply, Move move, Score score, Score eval, Depth depth,
                               Bound bound) {
    Bucket& b = buckets_[index(key)];
    const auto key16 = std::uint16_t(key); // low bits: index() uses the high ones
    // Same key, else the least valuable: older generations first, then shallower.
    int replace = 0;
    std::uint16_t old_meta = 0;
    std::uint64_t old_data = 0;
    int worst = 1 << 30;
    for (int i = 0; i < BUCKET_SIZE; ++i) {
        const std::uint16_t meta = load(b.meta[i]);
        const std::uint64_t data = load(b.data[i]);
        if (!meta_depth(meta) || key_check(data, meta) == key16) {
            replace = i, old_meta = meta, old_data = data;
            break;
        }
        const int age = (generation_ - meta_generation(meta)) & 63;
        const int worth = meta_depth(meta) - 4 * age;
        if (worth < worst) worst = worth, replace = i, old_meta = meta, old_data = data;
    }
    const bool same_key = meta_depth(old_meta) && key_check(old_data, old_meta) == key16;
    // Keep a deeper entry of this key unless the new one is exact or the old one is stale.
    if (same_key && bound != BOUND_EXACT && depth + 3 < meta_depth(old_meta) - 1 &&
        meta_generation(old_meta) == generation_)
        return;
    // A store without a move keeps the move this key had.
    const std::uint16_t raw_move = (!move && same_key) ? std::uint16_t(old_data >> 16) : move.raw();
    const auto meta =
        std::uint16_t((generation_ << 10) | (bound << 8) | (std::clamp(depth, 0, 250) + 1));
    const std::uint64_t data = std::uint64_t(std::uint16_t(key16 ^ meta)) |
                               (std::uint64_t(raw_move) << 16) |
                               (std::uint64_t(std::uint16_t(score_to_tt(score, ply))) << 32) |
                               (std::uint64_t(std::uint16_t(eval)) << 48);
    store_relaxed(b.data[replace], data);
    store_relaxed(b.meta[replace], meta);
}

int TranspositionTable::hashfull() const {
    int used = 0;
    const std::size_t n = std::min<std::size_t>(1000, count_);
    for (std::size_t i = 0; i < n; ++i)
        for (int j = 0; j < BUCKET_SIZE; ++j) {
            const std::uint16_t meta = load(buckets_[i].meta[j]);
            used += meta_depth(meta) && meta_generation(meta) == generation_;
        }
    return int(used * 1000 / (n * BUCKET_SIZE));
}

} // namespace horizon
