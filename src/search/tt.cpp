#include "search/tt.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace horizon {

namespace {
[[maybe_unused]] constexpr std::size_t ALIGNMENT = 64; // the platforms without huge pages
// Up to this size a clear is a memset of the whole table (so the first clear also puts the
// table in memory before any search). A larger table has only the pages a search touched
// zeroed (on Linux), as long as they are at most TOUCHED_CLEAR_MAX: the others are still
// the OS's zero pages. Beyond that, the table is handed back to the OS and asked for again,
// which gives zeroed pages without touching them, but then the next searches fault them in
// again: with Hash 256 on a virtual machine, the bench positions played as 40 games to
// depth 13 took 1.29x as long so (scripts/newgame_cost.py).
constexpr std::size_t MEMSET_CLEAR_MAX = std::size_t(64) << 20;
constexpr std::size_t TOUCHED_CLEAR_MAX = std::size_t(1) << 30;

#if defined(__linux__)
// On Linux the table lives in an anonymous mapping aligned to 2 MiB and, up to 1 GiB, asks
// for transparent huge pages: a first touch then costs one fault per 2 MiB instead of one
// per 4 KiB (on a virtual machine a 64 MiB table took 170-230 ms of page faults in the
// first search, about 5 ms so), and the probes miss the TLB less. A larger table keeps
// small pages: the first probes of a search fall on a new page almost every time, and
// zeroing 2 MiB for each made depth 14 take twice as long in a 2 GiB table. The pages
// arrive zeroed and only when touched, so any size is allocated at once.
constexpr std::size_t HUGE_PAGE = std::size_t(2) << 20;
constexpr std::size_t HUGE_PAGES_MAX = std::size_t(1) << 30;
constexpr std::size_t TABLE_ALIGNMENT = HUGE_PAGE;

std::uintptr_t table_start(void* raw);
void* allocate_zeroed(std::size_t bytes, std::size_t& raw_bytes) {
    raw_bytes = bytes + TABLE_ALIGNMENT;
    void* raw =
        mmap(nullptr, raw_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    if (bytes <= HUGE_PAGES_MAX) // advice only: may fail, and nothing depends on it
        madvise(reinterpret_cast<void*>(table_start(raw)), bytes, MADV_HUGEPAGE);
    return raw;
}
void free_zeroed(void* raw, std::size_t raw_bytes) {
    if (raw) munmap(raw, raw_bytes);
}

// Zeroes the pages of the table at `start` (page-aligned) that are in memory, and returns
// true; returns false, doing nothing, when more than `cap` bytes of it are.
bool clear_touched(void* start, std::size_t bytes, std::size_t cap) {
    const long page_size = sysconf(_SC_PAGESIZE);
    if (page_size <= 0) return false;
    const std::size_t page = std::size_t(page_size);
    std::vector<unsigned char> in_memory((bytes + page - 1) / page);
    if (mincore(start, bytes, in_memory.data()) != 0) return false;
    std::size_t touched = 0;
    for (unsigned char p : in_memory)
        touched += (p & 1) ? page : 0;
    if (touched > cap) return false;
    auto* base = static_cast<unsigned char*>(start);
    for (std::size_t i = 0; i < in_memory.size();) {
        std::size_t end = i;
        while (end < in_memory.size() && (in_memory[end] & 1))
            ++end;
        if (end > i) std::memset(base + i * page, 0, std::min(bytes, end * page) - i * page);
        i = end + 1;
    }
    return true;
}
#elif defined(_WIN32)
// On Windows the table is committed with VirtualAlloc, which hands out pages that are zeroed
// and only backed by memory when first touched (calloc gives no such promise), or fails
// when the commit limit cannot take the size.
constexpr std::size_t TABLE_ALIGNMENT = ALIGNMENT;

void* allocate_zeroed(std::size_t bytes, std::size_t& raw_bytes) {
    raw_bytes = bytes + TABLE_ALIGNMENT;
    return VirtualAlloc(nullptr, raw_bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}
void free_zeroed(void* raw, std::size_t) {
    if (raw) VirtualFree(raw, 0, MEM_RELEASE);
}
#else
constexpr std::size_t TABLE_ALIGNMENT = ALIGNMENT;

void* allocate_zeroed(std::size_t bytes, std::size_t& raw_bytes) {
    raw_bytes = bytes + TABLE_ALIGNMENT;
    return std::calloc(raw_bytes, 1);
}
void free_zeroed(void* raw, std::size_t) { std::free(raw); }
#endif

#if !defined(__linux__)
// Elsewhere no page is known to be in memory: a large table is handed back and asked for again.
bool clear_touched(void*, std::size_t, std::size_t) { return false; }
#endif

// The table's first byte in what allocate_zeroed returned (it allocates TABLE_ALIGNMENT more).
std::uintptr_t table_start(void* raw) {
    return (reinterpret_cast<std::uintptr_t>(raw) + TABLE_ALIGNMENT - 1) & ~(TABLE_ALIGNMENT - 1);
}
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
    free_zeroed(raw_, raw_bytes_);
    raw_ = nullptr;
    raw_bytes_ = 0;
    buckets_ = nullptr;
}

void TranspositionTable::adopt(void* raw, std::size_t raw_bytes) {
    release();
    raw_ = raw;
    raw_bytes_ = raw_bytes;
    buckets_ = reinterpret_cast<Bucket*>(table_start(raw));
}

bool TranspositionTable::resize(std::size_t mib) {
    const std::size_t physical = physical_mib();
    if (raw_ && physical && mib > physical) return false;
    const std::size_t count = std::max<std::size_t>(1, mib * 1024 * 1024 / sizeof(Bucket));
    std::size_t raw_bytes = 0;
    void* raw = allocate_zeroed(count * sizeof(Bucket), raw_bytes);
    if (!raw) return false;
    adopt(raw, raw_bytes);
    count_ = count;
    mib_ = mib;
    generation_ = 0;
    return true;
}

void TranspositionTable::clear() {
    generation_ = 0;
    const std::size_t bytes = count_ * sizeof(Bucket);
    if (bytes > MEMSET_CLEAR_MAX) {
        if (clear_touched(buckets_, bytes, TOUCHED_CLEAR_MAX)) return;
        std::size_t raw_bytes = 0;
        if (void* raw = allocate_zeroed(bytes, raw_bytes)) {
            adopt(raw, raw_bytes);
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
