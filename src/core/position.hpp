// The board: FEN, make/unmake, legality helpers, SEE, draw bookkeeping, Chess960 castling.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/attacks.hpp"
#include "core/bitboard.hpp"
#include "core/types.hpp"

namespace horizon {

// What make_move changes and unmake_move restores.
struct StateInfo {
    Key key = 0;
    Key pawn_key = 0;
    Key non_pawn_key[COLOR_NB] = {0, 0}; // each side's pieces but pawns (king included)
    Bitboard checkers = 0;
    std::uint8_t castling = NO_CASTLING;
    Square ep_square = NO_SQUARE;
    int rule50 = 0;
    int plies_from_null = 0;
    Piece captured = NO_PIECE;
    Move move = Move::none();
};

// Result of parsing a FEN: the position is untouched unless ok.
struct FenError {
    std::string message;
};

class Position {
public:
    static constexpr std::string_view START_FEN =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    Position();

    // Sets the position from a FEN (standard, X-FEN or Shredder-FEN castling). On error
    // the position is left exactly as it was and the error says which field was wrong.
    // The move counters may be left off, both ("... w KQkq -", as EPD writes it: halfmove 0,
    // fullmove 1) or the fullmove number alone (five fields: fullmove 1); every other field
    // is required and checked strictly.
    std::optional<FenError> set_fen(std::string_view fen, bool chess960 = false);
    std::string fen() const;
    // Makes this position the first of its record, as if it had been set from its FEN: the
    // moves that led here are forgotten (repetitions and unmake reach back no further); the
    // board, the rights and the clocks stay.
    void forget_history();

    // Board queries.
    Piece piece_on(Square s) const { return board_[s]; }
    bool empty(Square s) const { return board_[s] == NO_PIECE; }
    Bitboard pieces() const { return by_type_[0]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
    Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
    Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
    Bitboard pieces(Color c, PieceType a, PieceType b) const {
        return by_color_[c] & (by_type_[a] | by_type_[b]);
    }
    Square king_square(Color c) const { return lsb(pieces(c, KING)); }
    Color side_to_move() const { return side_; }
    int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }

    // State queries.
    Key key() const { return st_.key; }
    Key pawn_key() const { return st_.pawn_key; }
    Key non_pawn_key(Color c) const { return st_.non_pawn_key[c]; }
    // The key after `m`, exact for a normal move that changes neither castling rights nor the
    // en-passant square, close enough otherwise: what a prefetch of the child's TT entry needs.
    Key key_after(Move m) const;
    Bitboard checkers() const { return st_.checkers; }
    bool in_check() const { return st_.checkers != 0; }
    Square ep_square() const { return st_.ep_square; }
    int rule50() const { return st_.rule50; }
    int game_ply() const { return game_ply_; }
    int fullmove_number() const { return 1 + game_ply_ / 2; }
    std::uint8_t castling_rights() const { return st_.castling; }
    bool can_castle(int index) const { return st_.castling & (1 << index); }
    Square castling_rook(int index) const { return castling_rook_[index]; }
    // Squares that must be empty for the castling (king and rook excluded).
    Bitboard castling_path(int index) const { return castling_path_[index]; }
    bool is_chess960() const { return chess960_; }
    void set_chess960(bool on) { chess960_ = on; }
    Piece captured_piece() const { return st_.captured; }
    Move last_move() const { return st_.move; }

    // Attacks.
    Bitboard attackers_to(Square s, Bitboard occ) const;
    Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
    // The sliders of side `c` that reach `s` through `occ` (0: on its lines, whatever stands
    // between): the snipers that lone_blockers takes.
    Bitboard slider_attackers(Square s, Color c, Bitboard occ) const {
        return (rook_attacks(s, occ) & pieces(c, ROOK, QUEEN)) |
               (bishop_attacks(s, occ) & pieces(c, BISHOP, QUEEN));
    }
    // The pieces, of either side, that stand alone between `target` and one of `snipers`
    // (sliders on its lines): pinned pieces, or pieces whose move uncovers an attack.
    Bitboard lone_blockers(Square target, Bitboard snipers) const {
        Bitboard blockers = 0;
        while (snipers) {
            const Square s = pop_lsb(snipers);
            const Bitboard between = between_bb(target, s) & pieces() & ~square_bb(s);
            if (between && !more_than_one(between)) blockers |= between;
        }
        return blockers;
    }
    // The squares a side attacks (through the present occupancy): with its pawns, with pawns
    // or minor pieces, with anything up to a rook, and with any piece.
    struct AttackTiers {
        Bitboard pawn = 0, minor = 0, rook = 0, all = 0;
    };
    AttackTiers attack_tiers(Color c) const;
    // Every square a piece of `c` attacks.
    Bitboard attacked_by(Color c) const { return attack_tiers(c).all; }

    // Moves.
    // Whether `m` is a legal move here, decided for that one move without generating the
    // others: exactly the moves the legal generator produces (any 16-bit value may be
    // asked, e.g. a move from the transposition table or from another thread).
    bool is_legal(Move m) const;
    // is_legal restricted to normal moves (no castling, en passant or promotion) when not
    // in check: what the move picker plays as a TT move before generating anything.
    bool is_surely_legal(Move m) const;
    bool gives_check(Move m) const;
    // What gives_check needs of this position, worked out once for the moves of a node.
    struct CheckInfo {
        Square king;                          // the opponent's king
        Bitboard squares[PIECE_TYPE_NB] = {}; // where each of our piece types would check it
        Bitboard discoverers = 0;             // our pieces alone between it and our slider
    };
    CheckInfo check_info() const;
    // gives_check(m), the same answer, faster for normal moves (others take the full test).
    bool gives_check(Move m, const CheckInfo& ci) const {
        if (m.type() != NORMAL) return gives_check(m);
        if (ci.squares[type_of(board_[m.from()])] & square_bb(m.to())) return true;
        // A knight never lands on the line it left, and a slider or pawn can leave it only
        // sideways: off the king's line the piece uncovers its slider.
        return (ci.discoverers & square_bb(m.from())) && !aligned(m.from(), m.to(), ci.king);
    }
    bool is_capture(Move m) const {
        return (!empty(m.to()) && m.type() != CASTLING) || m.type() == EN_PASSANT;
    }
    bool is_capture_or_promotion(Move m) const { return is_capture(m) || m.type() == PROMOTION; }
    Piece moved_piece(Move m) const { return board_[m.from()]; }

    void make_move(Move m);
    void unmake_move(Move m);
    void make_null_move();
    void unmake_null_move();

    // Static exchange evaluation: true when the exchange on m.to() nets at least threshold.
    bool see_ge(Move m, int threshold = 0) const;
    static int see_value(PieceType pt);

    // Draws. `ply` is the distance from the search root: a repetition inside the search
    // tree or of the root itself counts at once, one reaching back before the root needs a
    // third occurrence.
    bool is_repetition(int ply) const;
    // Whether any position since the last capture or pawn move (this one included) stood
    // before in that stretch: the game has repeated itself (the tables' root ranking asks).
    bool has_repeated() const;
    bool is_fifty_move_draw() const { return st_.rule50 >= 100; }
    bool has_insufficient_material() const;
    bool is_draw(int ply) const {
        return is_fifty_move_draw() || has_insufficient_material() || is_repetition(ply);
    }

    // A human-readable board for `d`.
    std::string pretty() const;

    // The hash recomputed from scratch (tests compare it with the incremental one).
    Key compute_key() const;
    Key compute_pawn_key() const;
    Key compute_non_pawn_key(Color c) const;

private:
    struct Blank {};
    explicit Position(Blank) {}
    void clear();
    void put_piece(Piece p, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);
    void set_castling_right(Color c, Square rook_sq);
    void do_castling(bool undo, Color us, Square king_from, Square rook_from);
    bool is_legal_castling(Square king_from, Square rook_from) const;
    Bitboard compute_checkers() const;
    std::optional<FenError> validate() const;
    // The FEN fields, read into a blank position by set_fen in this order.
    std::optional<FenError> read_placement(std::string_view placement);
    std::optional<FenError> read_side_to_move(std::string_view field);
    std::optional<FenError> read_castling(std::string_view field, bool chess960);
    std::optional<FenError> read_en_passant(std::string_view field);

    Bitboard by_type_[PIECE_TYPE_NB]{}; // [0] = all pieces
    Bitboard by_color_[COLOR_NB]{};
    Piece board_[SQUARE_NB]{};
    Color side_ = WHITE;
    int game_ply_ = 0;
    bool chess960_ = false;

    std::uint8_t castling_mask_[SQUARE_NB]{}; // rights lost when a piece leaves/enters
    Square castling_rook_[4]{NO_SQUARE, NO_SQUARE, NO_SQUARE, NO_SQUARE};
    Bitboard castling_path_[4]{};

    StateInfo st_;
    std::vector<StateInfo> history_; // states before each move, for unmake and repetitions
};

// The castling destinations, by right index (colour*2 + queen side).
constexpr Square castling_king_destination(int index) {
    return relative_square(Color(index / 2), (index & 1) ? C1 : G1);
}
constexpr Square castling_rook_destination(int index) {
    return relative_square(Color(index / 2), (index & 1) ? D1 : F1);
}

} // namespace horizon
