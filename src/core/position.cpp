#include "core/position.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

#include "core/zobrist.hpp"

namespace horizon {

namespace {

constexpr std::string_view PIECE_CHARS = " PNBRQK  pnbrqk";

std::vector<std::string_view> split_fields(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
            ++i;
        if (i >= text.size()) break;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != '\t')
            ++j;
        out.push_back(text.substr(i, j - i));
        i = j;
    }
    return out;
}

// Parses a non-negative decimal integer; nullopt for anything else.
std::optional<int> parse_count(std::string_view s) {
    if (s.empty() || s.size() > 6) return std::nullopt;
    int value = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || ptr != s.data() + s.size() || value < 0) return std::nullopt;
    return value;
}

FenError fen_error(std::string what) { return FenError{std::move(what)}; }

} // namespace

Position::Position() {
    init_tables();
    set_fen(START_FEN);
}

void Position::clear() {
    std::fill(std::begin(by_type_), std::end(by_type_), 0);
    std::fill(std::begin(by_color_), std::end(by_color_), 0);
    std::fill(std::begin(board_), std::end(board_), NO_PIECE);
    std::fill(std::begin(castling_mask_), std::end(castling_mask_), 0);
    std::fill(std::begin(castling_rook_), std::end(castling_rook_), NO_SQUARE);
    std::fill(std::begin(castling_path_), std::end(castling_path_), 0);
    side_ = WHITE;
    game_ply_ = 0;
    chess960_ = false;
    st_ = StateInfo{};
    history_.clear();
}

void Position::forget_history() {
    history_.clear();
    st_.plies_from_null = 0;
    st_.captured = NO_PIECE;
    st_.move = Move::none();
}

void Position::put_piece(Piece p, Square s) {
    board_[s] = p;
    const Bitboard b = square_bb(s);
    by_type_[0] |= b;
    by_type_[type_of(p)] |= b;
    by_color_[color_of(p)] |= b;
}

void Position::remove_piece(Square s) {
    const Piece p = board_[s];
    const Bitboard b = square_bb(s);
    by_type_[0] ^= b;
    by_type_[type_of(p)] ^= b;
    by_color_[color_of(p)] ^= b;
    board_[s] = NO_PIECE;
}

void Position::move_piece(Square from, Square to) {
    const Piece p = board_[from];
    const Bitboard b = square_bb(from) | square_bb(to);
    by_type_[0] ^= b;
    by_type_[type_of(p)] ^= b;
    by_color_[color_of(p)] ^= b;
    board_[from] = NO_PIECE;
    board_[to] = p;
}

void Position::set_castling_right(Color c, Square rook_sq) {
    const Square ksq = king_square(c);
    const bool king_side = file_of(rook_sq) > file_of(ksq);
    const int index = castling_index(c, king_side);
    st_.castling |= std::uint8_t(1 << index);
    castling_mask_[ksq] |= std::uint8_t(1 << index);
    castling_mask_[rook_sq] |= std::uint8_t(1 << index);
    castling_rook_[index] = rook_sq;
    const Square kto = castling_king_destination(index);
    const Square rto = castling_rook_destination(index);
    castling_path_[index] =
        (between_bb(ksq, kto) | between_bb(rook_sq, rto)) & ~(square_bb(ksq) | square_bb(rook_sq));
}

// 1. Piece placement, and the numbers of kings, pawns and pieces a position can have.
std::optional<FenError> Position::read_placement(std::string_view placement) {
    int rank = 7, file = 0;
    bool last_digit = false;
    for (std::size_t i = 0; i < placement.size(); ++i) {
        const char c = placement[i];
        if (c == '/') {
            if (file != 8)
                return fen_error("placement: rank " + std::to_string(rank + 1) + " has " +
                                 std::to_string(file) + " files, expected 8");
            if (--rank < 0) return fen_error("placement: more than 8 ranks");
            file = 0;
            last_digit = false;
        } else if (c >= '1' && c <= '8') {
            if (last_digit)
                return fen_error("placement: two digits in a row on rank " +
                                 std::to_string(rank + 1));
            file += c - '0';
            last_digit = true;
            if (file > 8)
                return fen_error("placement: rank " + std::to_string(rank + 1) +
                                 " has more than 8 files");
        } else {
            const std::size_t idx = PIECE_CHARS.find(c);
            if (c == ' ' || idx == std::string_view::npos)
                return fen_error(std::string("placement: bad character '") + c + "'");
            if (file >= 8)
                return fen_error("placement: rank " + std::to_string(rank + 1) +
                                 " has more than 8 files");
            put_piece(Piece(idx), make_square(file, rank));
            ++file;
            last_digit = false;
        }
    }
    if (rank != 0)
        return fen_error("placement: " + std::to_string(8 - rank) + " ranks, expected 8");
    if (file != 8)
        return fen_error("placement: rank 1 has " + std::to_string(file) + " files, expected 8");
    for (Color c : {WHITE, BLACK}) {
        const int kings = count(c, KING);
        if (kings != 1)
            return fen_error(std::string(c == WHITE ? "white" : "black") + " has " +
                             std::to_string(kings) + " kings, expected exactly 1");
        if (count(c, PAWN) > 8)
            return fen_error(std::string(c == WHITE ? "white" : "black") +
                             " has more than 8 pawns");
        if (popcount(pieces(c)) > 16)
            return fen_error(std::string(c == WHITE ? "white" : "black") +
                             " has more than 16 pieces");
    }
    if (pieces(PAWN) & (RANK_1_BB | RANK_8_BB)) return fen_error("placement: pawn on rank 1 or 8");
    return std::nullopt;
}

// 2. Side to move.
std::optional<FenError> Position::read_side_to_move(std::string_view field) {
    if (field == "w")
        side_ = WHITE;
    else if (field == "b")
        side_ = BLACK;
    else
        return fen_error("side to move must be 'w' or 'b', got '" + std::string(field) + "'");
    return std::nullopt;
}

// 3. Castling: '-', KQkq (X-FEN: outermost rook) or rook files (Shredder-FEN).
std::optional<FenError> Position::read_castling(std::string_view field, bool chess960) {
    chess960_ = chess960;
    if (field != "-") {
        bool shredder = false;
        for (char c : field) {
            const Color color = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
            const char up = char(std::toupper(static_cast<unsigned char>(c)));
            const Square ksq = king_square(color);
            const int back = relative_rank(color, 0);
            const std::string who = color == WHITE ? "white" : "black";
            if (rank_of(ksq) != back)
                return fen_error(std::string("castling: right '") + c + "' but the " + who +
                                 " king is not on its first rank");
            const Piece rook = make_piece(color, ROOK);
            Square rsq = NO_SQUARE;
            if (up == 'K' || up == 'Q') {
                // Outermost rook on that wing.
                for (int f = up == 'K' ? 7 : 0; up == 'K' ? f > file_of(ksq) : f < file_of(ksq);
                     f += up == 'K' ? -1 : 1) {
                    if (board_[make_square(f, back)] == rook) {
                        rsq = make_square(f, back);
                        break;
                    }
                }
            } else if (up >= 'A' && up <= 'H') {
                shredder = true;
                const Square s = make_square(up - 'A', back);
                if (board_[s] == rook && s != ksq) rsq = s;
            } else {
                return fen_error(std::string("castling: bad character '") + c + "'");
            }
            if (rsq == NO_SQUARE)
                return fen_error(std::string("castling: right '") + c + "' but no " + who +
                                 " rook in place for it");
            const int index = castling_index(color, file_of(rsq) > file_of(ksq));
            if (st_.castling & (1 << index))
                return fen_error(std::string("castling: right for the same wing given twice ('") +
                                 c + "')");
            set_castling_right(color, rsq);
        }
        // Anything but king on e and rooks on a/h is Chess960.
        for (int i = 0; i < 4; ++i) {
            if (!(st_.castling & (1 << i))) continue;
            const Color color = Color(i / 2);
            if (shredder || king_square(color) != relative_square(color, E1) ||
                (file_of(castling_rook_[i]) != 0 && file_of(castling_rook_[i]) != 7))
                chess960_ = true;
        }
    }
    return std::nullopt;
}

// 4. En passant.
std::optional<FenError> Position::read_en_passant(std::string_view field) {
    if (field != "-") {
        const std::string_view ep = field;
        if (ep.size() != 2 || ep[0] < 'a' || ep[0] > 'h' || ep[1] < '1' || ep[1] > '8')
            return fen_error("en passant: '" + std::string(ep) + "' is not a square");
        const Square s = make_square(ep[0] - 'a', ep[1] - '1');
        const Color us = side_;
        const int expected_rank = us == WHITE ? 5 : 2;
        const Square pushed = Square(s - pawn_push(us)); // the pawn that moved two
        const Square origin = Square(s + pawn_push(us)); // where it came from
        if (rank_of(s) != expected_rank)
            return fen_error("en passant: square " + std::string(ep) + " is impossible with " +
                             (us == WHITE ? "white" : "black") + " to move (must be on rank " +
                             std::to_string(expected_rank + 1) + ")");
        if (board_[pushed] != make_piece(~us, PAWN) || !empty(s) || !empty(origin))
            return fen_error("en passant: square " + std::string(ep) +
                             " does not follow a double pawn push");
        // Only kept when a pawn can actually capture there, so equal positions hash equal.
        if (pawn_attacks(~us, s) & pieces(us, PAWN)) st_.ep_square = s;
    }
    return std::nullopt;
}

std::optional<FenError> Position::set_fen(std::string_view fen, bool chess960) {
    const auto fields = split_fields(fen);
    // The two move counters may be left off together (EPD and many web pages give four
    // fields), or the fullmove number alone (five fields: the fifth is the halfmove clock);
    // what is missing reads as halfmove 0, fullmove 1, as Stockfish and python-chess read it.
    if (fields.size() < 4 || fields.size() > 6)
        return fen_error("FEN needs 6 fields (placement, side to move, castling, en passant, "
                         "halfmove clock, fullmove number; the last two may be left off), got " +
                         std::to_string(fields.size()));

    Position p{Blank{}};
    p.clear();

    if (auto err = p.read_placement(fields[0])) return err;
    if (auto err = p.read_side_to_move(fields[1])) return err;
    if (auto err = p.read_castling(fields[2], chess960)) return err;
    if (auto err = p.read_en_passant(fields[3])) return err;

    // 5-6. Clocks, when given.
    const auto halfmove = fields.size() > 4 ? parse_count(fields[4]) : std::optional<int>(0);
    if (!halfmove)
        return fen_error("halfmove clock must be a non-negative integer, got '" +
                         std::string(fields[4]) + "'");
    const auto fullmove = fields.size() > 5 ? parse_count(fields[5]) : std::optional<int>(1);
    if (!fullmove)
        return fen_error("fullmove number must be a non-negative integer, got '" +
                         std::string(fields[5]) + "'");
    p.st_.rule50 = *halfmove;
    p.game_ply_ = 2 * (std::max(*fullmove, 1) - 1) + (p.side_ == BLACK);

    if (auto err = p.validate()) return err;

    p.st_.key = p.compute_key();
    p.st_.pawn_key = p.compute_pawn_key();
    for (Color c : {WHITE, BLACK})
        p.st_.non_pawn_key[c] = p.compute_non_pawn_key(c);
    p.st_.checkers = p.compute_checkers();
    *this = std::move(p);
    return std::nullopt;
}

std::optional<FenError> Position::validate() const {
    const Color them = ~side_;
    if (attackers_to(king_square(them)) & pieces(side_))
        return fen_error(std::string("the side not to move (") +
                         (them == WHITE ? "white" : "black") + ") is in check");
    const Bitboard checkers = compute_checkers();
    if (popcount(checkers) > 2)
        return fen_error("the side to move is in check by more than two pieces");
    return std::nullopt;
}

std::string Position::fen() const {
    std::string out;
    for (int r = 7; r >= 0; --r) {
        int empty_run = 0;
        for (int f = 0; f < 8; ++f) {
            const Piece p = board_[make_square(f, r)];
            if (p == NO_PIECE) {
                ++empty_run;
                continue;
            }
            if (empty_run) out += char('0' + empty_run);
            empty_run = 0;
            out += PIECE_CHARS[p];
        }
        if (empty_run) out += char('0' + empty_run);
        if (r) out += '/';
    }
    out += side_ == WHITE ? " w " : " b ";
    if (!st_.castling) out += '-';
    for (int i = 0; i < 4; ++i) {
        if (!(st_.castling & (1 << i))) continue;
        const Color c = Color(i / 2);
        const bool king_side = !(i & 1);
        // X-FEN: K/Q unless another rook stands further out on that wing.
        const Square rsq = castling_rook_[i];
        Bitboard outer = 0;
        const Bitboard rank = rank_bb(relative_rank(c, 0));
        for (int f = 0; f < 8; ++f)
            if (king_side ? f > file_of(rsq) : f < file_of(rsq)) outer |= file_bb(f);
        char letter = king_side ? 'K' : 'Q';
        if (outer & rank & pieces(c, ROOK)) letter = char('A' + file_of(rsq));
        out += c == WHITE ? letter : char(std::tolower(letter));
    }
    out += ' ';
    out += st_.ep_square == NO_SQUARE ? std::string("-") : square_name(st_.ep_square);
    out += ' ' + std::to_string(st_.rule50) + ' ' + std::to_string(fullmove_number());
    return out;
}

Key Position::compute_key() const {
    Key k = 0;
    for (Bitboard b = pieces(); b;) {
        const Square s = pop_lsb(b);
        k ^= ZOBRIST_PSQ[board_[s]][s];
    }
    k ^= ZOBRIST_CASTLING[st_.castling];
    if (st_.ep_square != NO_SQUARE) k ^= ZOBRIST_EN_PASSANT_FILE[file_of(st_.ep_square)];
    if (side_ == BLACK) k ^= ZOBRIST_SIDE;
    return k;
}

Key Position::compute_pawn_key() const {
    Key k = ZOBRIST_NO_PAWNS;
    for (Bitboard b = pieces(PAWN); b;) {
        const Square s = pop_lsb(b);
        k ^= ZOBRIST_PSQ[board_[s]][s];
    }
    return k;
}

Key Position::compute_non_pawn_key(Color c) const {
    Key k = 0;
    for (Bitboard b = pieces(c) & ~pieces(PAWN); b;) {
        const Square s = pop_lsb(b);
        k ^= ZOBRIST_PSQ[board_[s]][s];
    }
    return k;
}

Bitboard Position::compute_checkers() const {
    return attackers_to(king_square(side_)) & pieces(~side_);
}

Bitboard Position::attackers_to(Square s, Bitboard occ) const {
    return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) |
           (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) | (knight_attacks(s) & pieces(KNIGHT)) |
           (rook_attacks(s, occ) & pieces(ROOK, QUEEN)) |
           (bishop_attacks(s, occ) & pieces(BISHOP, QUEEN)) | (king_attacks(s) & pieces(KING));
}

Position::AttackTiers Position::attack_tiers(Color c) const {
    const Bitboard occ = pieces();
    const Bitboard pawns = pieces(c, PAWN);
    AttackTiers t;
    t.pawn = c == WHITE ? pawn_attacks_bb<WHITE>(pawns) : pawn_attacks_bb<BLACK>(pawns);
    Bitboard reached = t.pawn;
    for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) {
        for (Bitboard b = pieces(c, pt); b;)
            reached |= piece_attacks(pt, pop_lsb(b), occ);
        if (pt == BISHOP) t.minor = reached;
        if (pt == ROOK) t.rook = reached;
    }
    t.all = reached | king_attacks(king_square(c));
    return t;
}

void Position::do_castling(bool undo, Color us, Square king_from, Square rook_from) {
    const int index = castling_index(us, file_of(rook_from) > file_of(king_from));
    const Square kto = castling_king_destination(index);
    const Square rto = castling_rook_destination(index);
    const Piece king = make_piece(us, KING), rook = make_piece(us, ROOK);
    if (!undo) {
        remove_piece(king_from);
        remove_piece(rook_from);
        put_piece(king, kto);
        put_piece(rook, rto);
        const Key moved = ZOBRIST_PSQ[king][king_from] ^ ZOBRIST_PSQ[king][kto] ^
                          ZOBRIST_PSQ[rook][rook_from] ^ ZOBRIST_PSQ[rook][rto];
        st_.key ^= moved;
        st_.non_pawn_key[us] ^= moved;
    } else {
        remove_piece(kto);
        remove_piece(rto);
        put_piece(king, king_from);
        put_piece(rook, rook_from);
    }
}

Key Position::key_after(Move m) const {
    const Square from = m.from(), to = m.to();
    const Piece pc = board_[from];
    Key k = st_.key ^ ZOBRIST_SIDE ^ ZOBRIST_PSQ[pc][from] ^ ZOBRIST_PSQ[pc][to];
    if (m.type() != CASTLING && board_[to] != NO_PIECE) k ^= ZOBRIST_PSQ[board_[to]][to];
    return k;
}

void Position::make_move(Move m) {
    history_.push_back(st_);
    const Color us = side_, them = ~us;
    const Square from = m.from(), to = m.to();
    const Piece pc = board_[from];

    st_.move = m;
    st_.captured = NO_PIECE;
    ++st_.rule50;
    ++st_.plies_from_null;
    ++game_ply_;
    st_.key ^= ZOBRIST_SIDE;
    if (st_.ep_square != NO_SQUARE) {
        st_.key ^= ZOBRIST_EN_PASSANT_FILE[file_of(st_.ep_square)];
        st_.ep_square = NO_SQUARE;
    }

    if (m.type() == CASTLING) {
        do_castling(false, us, from, to);
    } else {
        if (m.type() == EN_PASSANT || board_[to] != NO_PIECE) {
            const Square cap_sq = m.type() == EN_PASSANT ? Square(to - pawn_push(us)) : to;
            const Piece captured = board_[cap_sq];
            st_.captured = captured;
            st_.key ^= ZOBRIST_PSQ[captured][cap_sq];
            if (type_of(captured) == PAWN)
                st_.pawn_key ^= ZOBRIST_PSQ[captured][cap_sq];
            else
                st_.non_pawn_key[them] ^= ZOBRIST_PSQ[captured][cap_sq];
            remove_piece(cap_sq);
            st_.rule50 = 0;
        }
        move_piece(from, to);
        st_.key ^= ZOBRIST_PSQ[pc][from] ^ ZOBRIST_PSQ[pc][to];
        if (type_of(pc) != PAWN) {
            st_.non_pawn_key[us] ^= ZOBRIST_PSQ[pc][from] ^ ZOBRIST_PSQ[pc][to];
        } else {
            st_.rule50 = 0;
            st_.pawn_key ^= ZOBRIST_PSQ[pc][from];
            if (m.type() == PROMOTION) {
                const Piece promoted = make_piece(us, m.promotion_type());
                remove_piece(to);
                put_piece(promoted, to);
                st_.key ^= ZOBRIST_PSQ[pc][to] ^ ZOBRIST_PSQ[promoted][to];
                st_.non_pawn_key[us] ^= ZOBRIST_PSQ[promoted][to];
            } else {
                st_.pawn_key ^= ZOBRIST_PSQ[pc][to];
                if ((int(to) ^ int(from)) == 16) {
                    const Square ep = Square((int(from) + int(to)) / 2);
                    if (pawn_attacks(us, ep) & pieces(them, PAWN)) {
                        st_.ep_square = ep;
                        st_.key ^= ZOBRIST_EN_PASSANT_FILE[file_of(ep)];
                    }
                }
            }
        }
    }

    const std::uint8_t lost = castling_mask_[from] | castling_mask_[to];
    if (st_.castling & lost) {
        st_.key ^= ZOBRIST_CASTLING[st_.castling];
        st_.castling &= std::uint8_t(~lost);
        st_.key ^= ZOBRIST_CASTLING[st_.castling];
    }

    side_ = them;
    st_.checkers = attackers_to(king_square(them)) & pieces(us);
}

void Position::unmake_move(Move m) {
    side_ = ~side_;
    const Color us = side_;
    const Square from = m.from(), to = m.to();
    if (m.type() == CASTLING) {
        do_castling(true, us, from, to);
    } else {
        if (m.type() == PROMOTION) {
            remove_piece(to);
            put_piece(make_piece(us, PAWN), to);
        }
        move_piece(to, from);
        if (st_.captured != NO_PIECE) {
            const Square cap_sq = m.type() == EN_PASSANT ? Square(to - pawn_push(us)) : to;
            put_piece(st_.captured, cap_sq);
        }
    }
    --game_ply_;
    st_ = history_.back();
    history_.pop_back();
}

void Position::make_null_move() {
    history_.push_back(st_);
    st_.move = Move::null();
    st_.captured = NO_PIECE;
    if (st_.ep_square != NO_SQUARE) {
        st_.key ^= ZOBRIST_EN_PASSANT_FILE[file_of(st_.ep_square)];
        st_.ep_square = NO_SQUARE;
    }
    st_.key ^= ZOBRIST_SIDE;
    ++st_.rule50;
    st_.plies_from_null = 0;
    ++game_ply_;
    side_ = ~side_;
    st_.checkers = 0; // a null move is never made in check
}

void Position::unmake_null_move() {
    side_ = ~side_;
    --game_ply_;
    st_ = history_.back();
    history_.pop_back();
}

bool Position::gives_check(Move m) const {
    const Color us = side_;
    const Square ksq = king_square(~us);
    const Square from = m.from(), to = m.to();
    PieceType pt = type_of(board_[from]);
    Bitboard occ = pieces() ^ square_bb(from);

    switch (m.type()) {
    case CASTLING: {
        const int index = castling_index(us, file_of(to) > file_of(from));
        const Square kto = castling_king_destination(index);
        const Square rto = castling_rook_destination(index);
        occ = (occ ^ square_bb(to)) | square_bb(kto) | square_bb(rto);
        return rook_attacks(rto, occ) & square_bb(ksq);
    }
    case EN_PASSANT:
        occ ^= square_bb(Square(to - pawn_push(us)));
        break;
    case PROMOTION:
        pt = m.promotion_type();
        break;
    default:
        break;
    }
    occ |= square_bb(to);

    // Direct check by the moved piece.
    if (pt == PAWN) {
        if (pawn_attacks(us, to) & square_bb(ksq)) return true;
    } else if (piece_attacks(pt, to, occ) & square_bb(ksq)) {
        return true;
    }
    // Discovered check by a slider that stayed where it was.
    const Bitboard stayed = ~(square_bb(from) | square_bb(to));
    return (rook_attacks(ksq, occ) & pieces(us, ROOK, QUEEN) & stayed) ||
           (bishop_attacks(ksq, occ) & pieces(us, BISHOP, QUEEN) & stayed);
}

// The moved piece checks from the squares it would attack the king from through today's
// occupancy: the square it leaves could only open such a line if it already gave check, and
// with our side to move it does not.
Position::CheckInfo Position::check_info() const {
    const Color us = side_;
    const Bitboard occ = pieces();
    CheckInfo ci;
    ci.king = king_square(~us);
    ci.squares[PAWN] = pawn_attacks(~us, ci.king);
    ci.squares[KNIGHT] = knight_attacks(ci.king);
    ci.squares[BISHOP] = bishop_attacks(ci.king, occ);
    ci.squares[ROOK] = rook_attacks(ci.king, occ);
    ci.squares[QUEEN] = ci.squares[BISHOP] | ci.squares[ROOK];
    ci.discoverers = lone_blockers(ci.king, slider_attackers(ci.king, us, 0)) & pieces(us);
    return ci;
}

bool Position::is_legal(Move m) const {
    if (!m.is_ok()) return false;
    const Color us = side_, them = ~us;
    const Square from = m.from(), to = m.to();
    const Piece pc = board_[from];
    if (pc == NO_PIECE || color_of(pc) != us) return false;
    // Only promotions carry a promotion piece: any other bits there are not a move of ours.
    if (m.type() != PROMOTION && m.promotion_type() != KNIGHT) return false;
    if (m.type() == CASTLING) return is_legal_castling(from, to);

    const Piece victim = board_[to];
    if (victim != NO_PIECE && (color_of(victim) == us || type_of(victim) == KING)) return false;
    const PieceType pt = type_of(pc);
    Square captured_on = to;
    if (pt == PAWN) {
        const bool to_last_rank = rank_of(to) == relative_rank(us, 7);
        if ((m.type() == PROMOTION) != to_last_rank) return false;
        const int push = pawn_push(us);
        const bool diagonal = pawn_attacks(us, from) & square_bb(to);
        if (m.type() == EN_PASSANT) {
            if (to != st_.ep_square || !diagonal) return false;
            captured_on = Square(int(to) - push);
        } else if (victim != NO_PIECE) {
            if (!diagonal) return false;
        } else if (int(to) == int(from) + push) {
        } else if (int(to) == int(from) + 2 * push && rank_of(from) == relative_rank(us, 1) &&
                   empty(Square(int(from) + push))) {
        } else {
            return false;
        }
    } else {
        if (m.type() != NORMAL || !(piece_attacks(pt, from, pieces()) & square_bb(to)))
            return false;
        // The king may not step onto an attacked square (looked at with the king lifted).
        if (pt == KING) return !(attackers_to(to, pieces() ^ square_bb(from)) & pieces(them));
    }
    // Any other move: our king is not attacked on the board after it.
    const Bitboard after = (pieces() ^ square_bb(from) ^ square_bb(captured_on)) | square_bb(to);
    return !(attackers_to(king_square(us), after) & pieces(them) & ~square_bb(captured_on));
}

bool Position::is_legal_castling(Square king_from, Square rook_from) const {
    const Color us = side_;
    if (board_[king_from] != make_piece(us, KING) || board_[rook_from] != make_piece(us, ROOK) ||
        in_check())
        return false;
    const int index = castling_index(us, file_of(rook_from) > file_of(king_from));
    if (!can_castle(index) || castling_rook_[index] != rook_from ||
        (castling_path_[index] & pieces()))
        return false;
    // No square the king crosses or lands on is attacked, seen with king and rook lifted (a
    // Chess960 rook may have shielded the king's destination).
    const Bitboard lifted = pieces() ^ square_bb(king_from) ^ square_bb(rook_from);
    for (Bitboard b = between_bb(king_from, castling_king_destination(index)); b;)
        if (attackers_to(pop_lsb(b), lifted) & pieces(~us)) return false;
    return true;
}

bool Position::is_surely_legal(Move m) const {
    return m.type() == NORMAL && !in_check() && is_legal(m);
}

int Position::see_value(PieceType pt) {
    static constexpr int VALUES[PIECE_TYPE_NB] = {0, 100, 320, 330, 500, 950, 20000};
    return VALUES[pt];
}

bool Position::see_ge(Move m, int threshold) const {
    if (m.type() != NORMAL) return 0 >= threshold;
    const Square from = m.from(), to = m.to();
    int swap = see_value(type_of(board_[to])) - threshold;
    if (swap < 0) return false;
    swap = see_value(type_of(board_[from])) - swap;
    if (swap <= 0) return true;

    Bitboard occ = pieces() ^ square_bb(from) ^ square_bb(to);
    Color stm = side_;
    Bitboard attackers = attackers_to(to, occ);
    const Bitboard diagonal = pieces(BISHOP, QUEEN), straight = pieces(ROOK, QUEEN);
    bool result = true;
    for (;;) {
        stm = ~stm;
        attackers &= occ;
        const Bitboard mine = attackers & pieces(stm);
        if (!mine) break;
        result = !result;
        // Least valuable attacker.
        PieceType pt = PAWN;
        Bitboard b = 0;
        for (; pt <= KING; pt = PieceType(pt + 1))
            if ((b = mine & pieces(pt))) break;
        if (pt == KING) return (attackers & pieces(~stm)) ? !result : result;
        swap = see_value(pt) - swap;
        if (swap < int(result)) break;
        occ ^= square_bb(lsb(b));
        if (pt == PAWN || pt == BISHOP || pt == QUEEN)
            attackers |= bishop_attacks(to, occ) & diagonal;
        if (pt == ROOK || pt == QUEEN) attackers |= rook_attacks(to, occ) & straight;
    }
    return result;
}

bool Position::is_repetition(int ply) const {
    const int end = std::min(st_.rule50, st_.plies_from_null);
    const int n = int(history_.size());
    int seen = 0;
    for (int i = 4; i <= end && i <= n; i += 2) {
        if (history_[n - i].key != st_.key) continue;
        if (i <= ply) return true;    // repeated inside the search tree or of the root
        if (++seen == 2) return true; // third occurrence in the game
    }
    return false;
}

bool Position::has_repeated() const {
    const int n = int(history_.size());
    const int end = std::min(st_.rule50, n);
    // The keys of the stretch, newest first: this position, then the ones before it.
    auto key_at = [&](int back) { return back == 0 ? st_.key : history_[n - back].key; };
    for (int i = 0; i <= end; ++i)
        for (int j = i + 4; j <= end; j += 2)
            if (key_at(i) == key_at(j)) return true;
    return false;
}

bool Position::has_insufficient_material() const {
    if (pieces(PAWN, ROOK) | pieces(QUEEN)) return false;
    const Bitboard minors = pieces(KNIGHT, BISHOP);
    if (!more_than_one(minors)) return true;
    // Only bishops, all on squares of one colour.
    if (pieces(KNIGHT)) return false;
    const Bitboard bishops = pieces(BISHOP);
    return !(bishops & DARK_SQUARES_BB) || !(bishops & ~DARK_SQUARES_BB);
}

std::string Position::pretty() const {
    std::ostringstream out;
    out << "\n +---+---+---+---+---+---+---+---+\n";
    for (int r = 7; r >= 0; --r) {
        for (int f = 0; f < 8; ++f)
            out << " | " << PIECE_CHARS[board_[make_square(f, r)]];
        out << " | " << (r + 1) << "\n +---+---+---+---+---+---+---+---+\n";
    }
    out << "   a   b   c   d   e   f   g   h\n\n";
    out << "Fen: " << fen() << "\n";
    char key[20];
    std::snprintf(key, sizeof key, "%016llX", static_cast<unsigned long long>(st_.key));
    out << "Key: " << key << "\n";
    out << "Checkers:";
    for (Bitboard b = st_.checkers; b;)
        out << ' ' << square_name(pop_lsb(b));
    out << "\n";
    return out.str();
}

} // namespace horizon
