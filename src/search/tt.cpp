#include "search/tt.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(_WIN32)
#include <windows.h>
#else
#include <unistd.h>
#endif

namespace horizon {

namespace {
constexpr std::size_t ALIGNMENT = 64;
// Below this a clear is a memset; above, the table is handed back to the OS and asked
// for again, which gives zeroed pages without touching them.
constexpr std::size_t MEMSET_CLEAR_MAX = std::size_t(64) << 20;
} // namespace

std::size_t TranspositionTable::physical_mib() {
#if defined(_WIN32)
    MEMORYSTATUSEX status;
    status.dwLength = sizeof status;
    if (!GlobalMemoryStatusEx(&status)) return 0;
    return std::size_t(status.ullTotalPhys >> 20);
#else
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 0;
    return std::size_t((unsigned long long)pages * (unsigned long long)page >> 20);
#endif
}

TranspositionTable::~TranspositionTable() { release(); }

void TranspositionTable::release() {
    std::free(raw_);
    raw_ = nullptr;
    buckets_ = nullptr;
}

void TranspositionTable::adopt(void* raw) {
    release();
    raw_ = raw;
    const auto address = (reinterpret_cast<std::uintptr_t>(raw) + ALIGNMENT - 1) & ~(ALIGNMENT - 1);
    buckets_ = reinterpret_cast<Bucket*>(address);
}

bool TranspositionTable::resize(std::size_t mib) {
    const std::size_t physical = physical_mib();
    if (raw_ && physical && mib > physical) return false;
    const std::size_t count = std::max<std::size_t>(1, mib * 1024 * 1024 / sizeof(Bucket));
    void* raw = std::calloc(count * sizeof(Bucket) + ALIGNMENT, 1);
    if (!raw) return false;
    adopt(raw);
    count_ = count;
    mib_ = mib;
    generation_ = 0;
    return true;
}

void TranspositionTable::clear() {
    generation_ = 0;
    if (count_ * sizeof(Bucket) <= MEMSET_CLEAR_MAX) {
        std::memset(static_cast<void*>(buckets_), 0, count_ * sizeof(Bucket));
        return;
    }
    void* raw = std::calloc(count_ * sizeof(Bucket) + ALIGNMENT, 1);
    if (!raw) { // no second table's worth of address space: clear in place
        std::memset(static_cast<void*>(buckets_), 0, count_ * sizeof(Bucket));
        return;
    }
    adopt(raw);
}

bool TranspositionTable::probe(Key key, int ply, TTData& out) const {
    const Bucket& b = buckets_[index(key)];
    const auto key16 = std::uint16_t(key); // low bits: index() uses the high ones
    for (const TTEntry& e : b.entries) {
        if (e.depth && e.key16 == key16) {
            out.move = Move(e.move);
            out.score = score_from_tt(e.score, ply);
            out.eval = e.eval;
            out.depth = e.depth - 1;
            out.bound = e.bound();
            return true;
        }
    }
    return false;
}

void TranspositionTable::store(Key key, int ply, Move move, Score score, Score eval, Depth depth,
                               Bound bound) {
    Bucket& b = buckets_[index(key)];
    const auto key16 = std::uint16_t(key); // low bits: index() uses the high ones
    // Same key, else the least valuable: older generations first, then shallower.
    TTEntry* replace = &b.entries[0];
    for (TTEntry& e : b.entries) {
        if (!e.depth || e.key16 == key16) {
            replace = &e;
            break;
        }
        const auto worth = [this](const TTEntry& x) {
            const int age = (generation_ - (x.gen_bound >> 2)) & 63;
            return int(x.depth) - 4 * age;
        };
        if (worth(e) < worth(*replace)) replace = &e;
    }
    // Keep a deeper entry of this key unless the new one is exact or the old one is stale.
    if (replace->depth && replace->key16 == key16 && bound != BOUND_EXACT &&
        depth + 3 < int(replace->depth) - 1 && (replace->gen_bound >> 2) == generation_)
        return;
    if (move || replace->key16 != key16) replace->move = move.raw();
    replace->key16 = key16;
    replace->score = std::int16_t(score_to_tt(score, ply));
    replace->eval = std::int16_t(eval);
    replace->depth = std::uint8_t(std::clamp(depth, 0, 250) + 1);
    replace->gen_bound = std::uint8_t((generation_ << 2) | bound);
}

int TranspositionTable::hashfull() const {
    int used = 0;
    const std::size_t n = std::min<std::size_t>(1000, count_);
    for (std::size_t i = 0; i < n; ++i)
        for (const TTEntry& e : buckets_[i].entries)
            used += e.depth && (e.gen_bound >> 2) == generation_;
    return int(used * 1000 / (n * BUCKET_SIZE));
}

} // namespace horizon
