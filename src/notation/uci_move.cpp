#include "notation/uci_move.hpp"

namespace horizon {

namespace {

std::optional<Square> parse_square(char file, char rank) {
    if (file < 'a' || file > 'h' || rank < '1' || rank > '8') return std::nullopt;
    return make_square(file - 'a', rank - '1');
}

std::optional<PieceType> parse_promotion(char c) {
    switch (c) {
    case 'n':
        return KNIGHT;
    case 'b':
        return BISHOP;
    case 'r':
        return ROOK;
    case 'q':
        return QUEEN;
    default:
        return std::nullopt;
    }
}

// The castling move whose king ends on `to`, when `to` is not where the king already is.
std::optional<Move> castling_by_destination(const Position& pos, Square from, Square to) {
    const Color us = pos.side_to_move();
    for (bool king_side : {true, false}) {
        const int index = castling_index(us, king_side);
        if (castling_king_destination(index) != to || to == from || !pos.can_castle(index))
            continue;
        const Move m = Move::make(from, pos.castling_rook(index), CASTLING);
        if (pos.is_legal(m)) return m;
    }
    return std::nullopt;
}

} // namespace

std::string move_to_uci(const Position& pos, Move m) {
    if (!m.is_ok()) return "0000";
    Square to = m.to();
    if (m.type() == CASTLING && !pos.is_chess960())
        to = castling_king_destination(
            castling_index(pos.side_to_move(), file_of(to) > file_of(m.from())));
    std::string s = square_name(m.from()) + square_name(to);
    if (m.type() == PROMOTION) s += " pnbrqk"[m.promotion_type()];
    return s;
}

std::optional<Move> parse_uci_move(const Position& pos, std::string_view text) {
    if (text.size() != 4 && text.size() != 5) return std::nullopt;
    const auto from = parse_square(text[0], text[1]);
    const auto to = parse_square(text[2], text[3]);
    if (!from || !to) return std::nullopt;
    if (text.size() == 5) {
        const auto promo = parse_promotion(text[4]);
        if (!promo) return std::nullopt;
        const Move m = Move::make(*from, *to, PROMOTION, *promo);
        return pos.is_legal(m) ? std::optional<Move>(m) : std::nullopt;
    }
    const Piece moved = pos.piece_on(*from);
    const bool en_passant = type_of(moved) == PAWN && *to == pos.ep_square();
    const Move plain = Move::make(*from, *to, en_passant ? EN_PASSANT : NORMAL);
    if (pos.is_legal(plain)) return plain;
    if (type_of(moved) != KING) return std::nullopt;
    const Move takes_rook = Move::make(*from, *to, CASTLING);
    if (pos.is_legal(takes_rook)) return takes_rook;
    return castling_by_destination(pos, *from, *to);
}

} // namespace horizon
