// Basic chess types: colours, pieces, squares, moves, scores.
#pragma once

#include <cstdint>
#include <string>

namespace horizon {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;
using Score = int;
using Depth = int;

enum Color : std::uint8_t { WHITE, BLACK, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t {
    NO_PIECE_TYPE,
    PAWN,
    KNIGHT,
    BISHOP,
    ROOK,
    QUEEN,
    KING,
    PIECE_TYPE_NB = 7
};

// A piece packs its colour in bit 3 and its type in bits 0..2.
enum Piece : std::uint8_t {
    NO_PIECE,
    W_PAWN = 1,
    W_KNIGHT,
    W_BISHOP,
    W_ROOK,
    W_QUEEN,
    W_KING,
    B_PAWN = 9,
    B_KNIGHT,
    B_BISHOP,
    B_ROOK,
    B_QUEEN,
    B_KING,
    PIECE_NB = 16
};

constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// clang-format off
enum Square : std::uint8_t {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
    NO_SQUARE, SQUARE_NB = 64
};
// clang-format on

constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr bool is_ok(Square s) { return s < SQUARE_NB; }
// The square as seen from `c`'s side (rank mirrored for black).
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }
constexpr int relative_rank(Color c, int rank) { return c == WHITE ? rank : 7 - rank; }
constexpr int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

inline std::string square_name(Square s) {
    return std::string{char('a' + file_of(s)), char('1' + rank_of(s))};
}

// Castling rights: one bit per colour and wing. The rook each right refers to is kept by
// the Position, so Chess960 and standard chess share one representation.
enum CastlingRight : std::uint8_t {
    NO_CASTLING = 0,
    WHITE_OO = 1,
    WHITE_OOO = 2,
    BLACK_OO = 4,
    BLACK_OOO = 8,
    ALL_CASTLING = 15
};

constexpr int castling_index(Color c, bool king_side) { return c * 2 + (king_side ? 0 : 1); }

enum MoveType : std::uint16_t {
    NORMAL = 0,
    PROMOTION = 1 << 14,
    EN_PASSANT = 2 << 14,
    CASTLING = 3 << 14
};

// 16-bit move: bits 0-5 origin, 6-11 destination, 12-13 promotion piece (knight..queen),
// 14-15 move type. Castling is encoded as "king takes own rook".
class Move {
public:
    constexpr Move() = default;
    constexpr explicit Move(std::uint16_t raw) : data_(raw) {}
    constexpr Move(Square from, Square to) : data_(std::uint16_t(from | (to << 6))) {}

    static constexpr Move make(Square from, Square to, MoveType type = NORMAL,
                               PieceType promo = KNIGHT) {
        return Move(std::uint16_t(from | (to << 6) | type | ((promo - KNIGHT) << 12)));
    }
    static constexpr Move none() { return Move(); }
    static constexpr Move null() { return Move(std::uint16_t(65)); }

    constexpr Square from() const { return Square(data_ & 63); }
    constexpr Square to() const { return Square((data_ >> 6) & 63); }
    constexpr MoveType type() const { return MoveType(data_ & (3 << 14)); }
    constexpr PieceType promotion_type() const { return PieceType(((data_ >> 12) & 3) + KNIGHT); }
    constexpr std::uint16_t raw() const { return data_; }
    constexpr bool is_ok() const { return data_ != 0 && data_ != 65; }
    constexpr explicit operator bool() const { return data_ != 0; }

    constexpr bool operator==(const Move& o) const = default;

private:
    std::uint16_t data_ = 0;
};

// Score conventions (centipawns). Mate scores are MATE - plies to mate.
constexpr Score SCORE_DRAW = 0;
constexpr Score SCORE_MATE = 32000;
constexpr Score SCORE_INFINITE = 32001;
constexpr Score SCORE_NONE = 32002;
constexpr int MAX_PLY = 246;
constexpr Score SCORE_MATE_IN_MAX_PLY = SCORE_MATE - MAX_PLY;

constexpr Score mate_in(int ply) { return SCORE_MATE - ply; }
constexpr Score mated_in(int ply) { return -SCORE_MATE + ply; }
// A score that is a mate for either side.
constexpr bool is_mate_score(Score s) {
    return s >= SCORE_MATE_IN_MAX_PLY || s <= -SCORE_MATE_IN_MAX_PLY;
}

// A win the tablebases promise scores between every evaluation and every mate (a found mate
// outranks it), less the plies from the root to the probed position, as mates do.
constexpr Score SCORE_TB_WIN = SCORE_MATE_IN_MAX_PLY - 1;
constexpr Score SCORE_TB_WIN_IN_MAX_PLY = SCORE_TB_WIN - MAX_PLY;
// Evaluations stay below the tablebase range.
constexpr Score SCORE_EVAL_MAX = SCORE_TB_WIN_IN_MAX_PLY - 1;

constexpr Score tb_win_in(int ply) { return SCORE_TB_WIN - ply; }
constexpr Score tb_loss_in(int ply) { return -SCORE_TB_WIN + ply; }

} // namespace horizon
