// Standard Algebraic Notation (SAN), as PGN files and test suites write moves: "Nf3", "exd5",
// "O-O", "e8=Q+", "Rad1", "Qh4#".
//
// Output is the PGN standard's form: piece letter, the least disambiguation that makes the
// move unique (the origin's file, else its rank, else both), "x" for captures, "=Q" for
// promotions, "O-O"/"O-O-O" for castling (Chess960 too), then "+" or "#".
//
// Input accepts what real files hold besides that: castling with zeros ("0-0", "0-0-0"), as
// the king's move to its castling square ("Kg1", "Kc8", "Ke1g1", "e1g1") or onto its own
// castling rook ("e1h1", UCI's Chess960 form), promotions as "e8Q", "e8=Q", "e8(Q)", "e8/Q"
// or "e7e8q" (any case), superfluous or full-square disambiguation ("Ngf3", "Qd1d2"), long
// algebraic and coordinate (UCI) notation with or without the piece letter ("Ng1-f3",
// "g1f3", "e2-e4", "e4xd5": without a letter, the piece is the one on the origin square), a
// missing or extra "x", an explicit pawn letter ("Pe4"), the suffixes "+ # ! ? !! ?? !? ?!"
// (not checked against the position), and lower-case piece letters where that is
// unambiguous: n, r, q and k are pieces, but b is always the b-file ("bxc3" is a pawn
// capture). Whatever the form, the text must name exactly one legal move.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/position.hpp"
#include "core/types.hpp"

namespace horizon {

// A move read from text: the legal move, or the reason there is none.
struct ParsedMove {
    Move move = Move::none(); // none when the text was refused
    std::string error;        // why it was refused (empty when move is set)

    explicit operator bool() const { return move != Move::none(); }
};

// The SAN of `m`, which must be legal in `pos`.
std::string move_to_san(const Position& pos, Move m);

// The legal move of `pos` that the SAN `text` names. Refused with a reason when the text is
// unreadable, names no legal move, or could be more than one ("Nd2" with knights on b1 and
// f3). Decided without generating the position's moves.
ParsedMove parse_san(const Position& pos, std::string_view text);

// The moves as a SAN line from `pos`: "e4 e5 Nf3", or with move numbers
// "1. e4 e5 2. Nf3" ("1... e5 2. Nf3" when Black moves first). Stops before the first move
// that is not legal where it is played (e.g. a corrupt PV), so every move printed is legal.
std::string moves_to_san(const Position& pos, std::span<const Move> moves, bool numbered = true);

// The annotation suffix of a move as a NAG (Numeric Annotation Glyph): "!" 1, "?" 2,
// "!!" 3, "??" 4, "!?" 5, "?!" 6; 0 for anything else. And back: the suffix of NAG 1..6
// ("" for others).
int suffix_to_nag(std::string_view suffix);
std::string_view nag_to_suffix(int nag);

} // namespace horizon
