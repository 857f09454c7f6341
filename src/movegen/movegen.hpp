// Legal move generation with check and pin masks (no generate-then-filter).
#pragma once

#include <algorithm>
#include <cstddef>

#include "core/types.hpp"

namespace horizon {

class Position;

// ALL: every legal move. NOISY: captures (en passant included) and promotions.
// QUIET: the rest (quiet moves, castling). EVASIONS: every legal move; only valid in check.
// NOISY + QUIET = ALL, and in check every mode yields only evasions.
enum class GenType { ALL, NOISY, QUIET, EVASIONS };

// Fixed-capacity list; 218 is the most legal moves any position has.
class MoveList {
public:
    static constexpr std::size_t CAPACITY = 256;

    Move* begin() { return moves_; }
    Move* end() { return last_; }
    const Move* begin() const { return moves_; }
    const Move* end() const { return last_; }
    std::size_t size() const { return std::size_t(last_ - moves_); }
    bool empty() const { return last_ == moves_; }
    Move operator[](std::size_t i) const { return moves_[i]; }
    bool contains(Move m) const { return std::find(begin(), end(), m) != end(); }
    void push_back(Move m) { *last_++ = m; }
    void clear() { last_ = moves_; }
    Move*& tail() { return last_; }

    // The slots are left unwritten until a move goes in: Move's default constructor would
    // write all of them for every list.
    MoveList() {}

private:
    union {
        Move moves_[CAPACITY];
    };
    Move* last_ = moves_;
};

// Appends the legal moves of the given kind to `list` (which is not cleared).
template <GenType T> void generate(const Position& pos, MoveList& list);

// The number of legal moves, counted without writing them (perft's last ply).
std::uint64_t count_legal_moves(const Position& pos);

} // namespace horizon
