#include "search/tt.hpp"

#include <algorithm>
#include <cstring>

namespace horizon {

void TranspositionTable::resize(std::size_t mib) {
    mib_ = mib;
    count_ = std::max<std::size_t>(1, mib * 1024 * 1024 / sizeof(Bucket));
    buckets_.reset(new Bucket[count_]); // value-initialised: already empty
    generation_ = 0;
}

void TranspositionTable::clear() {
    std::memset(static_cast<void*>(buckets_.get()), 0, count_ * sizeof(Bucket));
    generation_ = 0;
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
