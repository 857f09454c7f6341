#include "notation/san.hpp"

#include <cstdlib>

#include "movegen/movegen.hpp"

namespace horizon {

namespace {

constexpr std::string_view PIECE_LETTERS = " PNBRQK";
constexpr std::string_view PIECE_NAMES[PIECE_TYPE_NB] = {"",     "pawn",  "knight", "bishop",
                                                         "rook", "queen", "king"};

bool is_file_char(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank_char(char c) { return c >= '1' && c <= '8'; }

// The SAN read into its parts, before looking at the position.
struct SanParts {
    enum Castling { NONE, KING_SIDE, QUEEN_SIDE };
    Castling castling = NONE;
    PieceType piece = PAWN;
    int from_file = -1; // disambiguation, -1 when not given
    int from_rank = -1;
    Square to = NO_SQUARE;
    PieceType promotion = NO_PIECE_TYPE;
    bool capture = false; // an "x" was written
    bool letter = false;  // a piece letter was written (else a pawn, or long algebraic)
};

bool is_annotation_char(char c) { return c == '+' || c == '#' || c == '!' || c == '?'; }

// N, B, R or Q in either case; NO_PIECE_TYPE for anything else.
PieceType piece_type_from_letter(char c) {
    switch (c) {
    case 'N':
    case 'n':
        return KNIGHT;
    case 'B':
    case 'b':
        return BISHOP;
    case 'R':
    case 'r':
        return ROOK;
    case 'Q':
    case 'q':
        return QUEEN;
    default:
        return NO_PIECE_TYPE;
    }
}

// A leading piece letter, where 'b' is the b-file and not a bishop; PAWN when there is none.
PieceType piece_from_letter(char c) {
    if (c == 'K' || c == 'k') return KING;
    const PieceType pt = c == 'b' ? NO_PIECE_TYPE : piece_type_from_letter(c);
    return pt == NO_PIECE_TYPE ? PAWN : pt;
}

// "O-O", "0-0", "O-O-O", "0-0-0" (and the same without dashes).
SanParts::Castling read_castling(std::string_view s) {
    int letters = 0;
    for (char c : s) {
        if (c == 'O' || c == '0' || c == 'o')
            ++letters;
        else if (c != '-')
            return SanParts::NONE;
    }
    return letters == 2   ? SanParts::KING_SIDE
           : letters == 3 ? SanParts::QUEEN_SIDE
                          : SanParts::NONE;
}

// Strips a promotion written at the end ("=Q", "Q", "(Q)", "/Q"); nullptr or why not.
const char* strip_promotion(std::string_view& body, SanParts& out) {
    if (body.size() >= 4 && body.back() == ')') {
        if (body[body.size() - 3] != '(') return "unmatched ')'";
        out.promotion = piece_type_from_letter(body[body.size() - 2]);
        if (out.promotion == NO_PIECE_TYPE) return "a pawn promotes to N, B, R or Q";
        body.remove_suffix(3);
        return nullptr;
    }
    if (body.size() < 3) return nullptr;
    const char last = body.back(), before = body[body.size() - 2];
    const bool marked = before == '=' || before == '/';
    if (!marked && !is_rank_char(before)) return nullptr;
    out.promotion = piece_type_from_letter(last);
    if (out.promotion == NO_PIECE_TYPE) return marked ? "a pawn promotes to N, B, R or Q" : nullptr;
    body.remove_suffix(marked ? 2 : 1);
    return nullptr;
}

// Splits SAN text into its parts; "" on success, else why it cannot be read.
std::string split_san(std::string_view s, SanParts& out) {
    while (!s.empty() && is_annotation_char(s.back()))
        s.remove_suffix(1);
    if (s.empty()) return "no move in the text";
    if (s[0] == 'O' || s[0] == '0' || s[0] == 'o') {
        out.castling = read_castling(s);
        return out.castling == SanParts::NONE ? "castling is written O-O or O-O-O" : "";
    }
    out.piece = piece_from_letter(s[0]);
    out.letter = out.piece != PAWN || s[0] == 'P';
    std::string_view body = s.substr(out.letter ? 1 : 0);
    if (const char* why = strip_promotion(body, out)) return why;

    // What is left: squares, files and ranks, with optional "x", ":" or "-" between.
    char seq[4];
    int n = 0;
    for (char c : body) {
        if (c == 'x' || c == ':') {
            out.capture = true;
        } else if (is_file_char(c) || is_rank_char(c)) {
            if (n == 4) return "too many squares";
            seq[n++] = c;
        } else if (c != '-') {
            return std::string("unexpected character '") + c + "'";
        }
    }
    if (n < 2 || !is_file_char(seq[n - 2]) || !is_rank_char(seq[n - 1]))
        return "no destination square";
    out.to = make_square(seq[n - 2] - 'a', seq[n - 1] - '1');
    if (n == 3 && is_file_char(seq[0])) {
        out.from_file = seq[0] - 'a';
    } else if (n == 3) {
        out.from_rank = seq[0] - '1';
    } else if (n == 4) {
        if (!is_file_char(seq[0]) || !is_rank_char(seq[1])) return "no origin square";
        out.from_file = seq[0] - 'a';
        out.from_rank = seq[1] - '1';
    }
    return {};
}

ParsedMove refuse(std::string why) { return ParsedMove{Move::none(), std::move(why)}; }

std::string side_name(Color c) { return c == WHITE ? "white" : "black"; }

// Our pieces of the SAN's type from which a move to `to` has the right shape (legality
// aside), narrowed by the disambiguation given.
Bitboard origin_candidates(const Position& pos, SanParts& p) {
    const Color us = pos.side_to_move();
    const Square to = p.to;
    Bitboard from = 0;
    if (p.piece == PAWN) {
        const Bitboard pawns = pos.pieces(us, PAWN);
        const Piece target = pos.piece_on(to);
        if ((target != NO_PIECE && color_of(target) != us) || to == pos.ep_square())
            from |= pawn_attacks(~us, to) & pawns;
        const int one = int(to) - pawn_push(us);
        if (pos.empty(to) && one >= 0 && one < SQUARE_NB) {
            if (pawns & square_bb(Square(one)))
                from |= square_bb(Square(one));
            else if (pos.empty(Square(one)) && rank_of(to) == relative_rank(us, 3))
                from |= pawns & square_bb(Square(one - pawn_push(us)));
        }
        // A pawn move without an origin file is a push (unless an "x" says it captures).
        if (p.from_file < 0 && !p.capture) p.from_file = file_of(to);
    } else {
        from = piece_attacks(p.piece, to, pos.pieces()) & pos.pieces(us, p.piece);
    }
    if (p.from_file >= 0) from &= file_bb(p.from_file);
    if (p.from_rank >= 0) from &= rank_bb(p.from_rank);
    return from;
}

Move build_move(const Position& pos, const SanParts& p, Square from) {
    if (p.piece != PAWN) return Move(from, p.to);
    if (p.to == pos.ep_square() && file_of(from) != file_of(p.to))
        return Move::make(from, p.to, EN_PASSANT);
    if (p.promotion != NO_PIECE_TYPE) return Move::make(from, p.to, PROMOTION, p.promotion);
    return Move(from, p.to);
}

ParsedMove parse_castling(const Position& pos, SanParts::Castling side) {
    const Color us = pos.side_to_move();
    const int index = castling_index(us, side == SanParts::KING_SIDE);
    const std::string name = side == SanParts::KING_SIDE ? "O-O" : "O-O-O";
    if (!pos.can_castle(index)) return refuse(side_name(us) + " has no right to castle " + name);
    const Move m = Move::make(pos.king_square(us), pos.castling_rook(index), CASTLING);
    if (!pos.is_legal(m))
        return refuse(name + " is illegal here (path blocked, in check or through check)");
    return ParsedMove{m, {}};
}

// Castling written as a king's move: to its castling square ("Kg1", "Ke1-c1", "e1g1": a king
// on its first rank going to the g- or c-file of that rank, too far for a step), or onto its
// own castling rook ("e1h1", "Kxa1": how UCI writes castling in Chess960).
SanParts::Castling castling_by_king_move(const Position& pos, const SanParts& p) {
    const Color us = pos.side_to_move();
    const Square king = pos.king_square(us);
    if (p.piece != KING || (p.from_file >= 0 && p.from_file != file_of(king)) ||
        (p.from_rank >= 0 && p.from_rank != rank_of(king)))
        return SanParts::NONE;
    for (bool king_side : {true, false}) {
        const int index = castling_index(us, king_side);
        if (pos.can_castle(index) && pos.castling_rook(index) == p.to)
            return king_side ? SanParts::KING_SIDE : SanParts::QUEEN_SIDE;
    }
    if (p.capture || rank_of(king) != relative_rank(us, 0) || rank_of(p.to) != rank_of(king) ||
        std::abs(file_of(p.to) - file_of(king)) < 2)
        return SanParts::NONE;
    const int to_file = file_of(p.to);
    return to_file == 6   ? SanParts::KING_SIDE
           : to_file == 2 ? SanParts::QUEEN_SIDE
                          : SanParts::NONE;
}

} // namespace

ParsedMove parse_san(const Position& pos, std::string_view text) {
    SanParts p;
    if (std::string why = split_san(text, p); !why.empty()) return refuse("cannot read it: " + why);
    const Color us = pos.side_to_move();
    // Long algebraic without a piece letter ("g1f3", "e1g1", "e7e8q", "e2-e4", "e4xd5"): the
    // piece is the one on the origin square.
    if (p.castling == SanParts::NONE && !p.letter && p.from_file >= 0 && p.from_rank >= 0) {
        const Square from = make_square(p.from_file, p.from_rank);
        const Piece on = pos.piece_on(from);
        if (on == NO_PIECE || color_of(on) != us)
            return refuse("no " + side_name(us) + " piece on " + square_name(from));
        p.piece = type_of(on);
    }
    if (p.castling == SanParts::NONE) p.castling = castling_by_king_move(pos, p);
    if (p.castling != SanParts::NONE) return parse_castling(pos, p.castling);

    const bool to_last_rank = rank_of(p.to) == relative_rank(us, 7);
    if (p.piece == PAWN && to_last_rank && p.promotion == NO_PIECE_TYPE)
        return refuse("a pawn reaching the last rank needs a promotion piece (like " +
                      square_name(p.to) + "=Q)");
    if (p.promotion != NO_PIECE_TYPE && (p.piece != PAWN || !to_last_rank))
        return refuse("only a pawn reaching the last rank promotes");

    const Bitboard candidates = origin_candidates(pos, p);
    Move found = Move::none();
    Square first_from = NO_SQUARE, other_from = NO_SQUARE;
    for (Bitboard b = candidates; b;) {
        const Square from = pop_lsb(b);
        const Move m = build_move(pos, p, from);
        if (!pos.is_legal(m)) continue;
        if (found) {
            other_from = from;
            break;
        }
        found = m;
        first_from = from;
    }
    if (found && other_from == NO_SQUARE) return ParsedMove{found, {}};
    const std::string piece = side_name(us) + " " + std::string(PIECE_NAMES[p.piece]);
    if (found)
        return refuse("ambiguous: the " + piece + " on " + square_name(first_from) + " or on " +
                      square_name(other_from) + " can move to " + square_name(p.to));
    const Piece target = pos.piece_on(p.to);
    if (target != NO_PIECE && color_of(target) == us)
        return refuse(square_name(p.to) + " holds a " + side_name(us) + " piece");
    if (!candidates) return refuse("no " + piece + " can move to " + square_name(p.to));
    return refuse("illegal: the " + piece + " on " + square_name(lsb(candidates)) +
                  " cannot move to " + square_name(p.to) + " (its king would be in check)");
}

std::string move_to_san(const Position& pos, Move m) {
    const Color us = pos.side_to_move();
    const Square from = m.from(), to = m.to();
    std::string s;
    if (m.type() == CASTLING) {
        s = file_of(to) > file_of(from) ? "O-O" : "O-O-O";
    } else {
        const PieceType pt = type_of(pos.piece_on(from));
        if (pt == PAWN) {
            if (pos.is_capture(m)) s += char('a' + file_of(from));
        } else {
            s += PIECE_LETTERS[pt];
            // Other pieces of this type that can legally go to the same square.
            Bitboard others = 0;
            if (pt != KING)
                for (Bitboard b = piece_attacks(pt, to, pos.pieces()) & pos.pieces(us, pt) &
                                  ~square_bb(from);
                     b;) {
                    const Square o = pop_lsb(b);
                    if (pos.is_legal(Move(o, to))) others |= square_bb(o);
                }
            if (others) {
                if (!(others & file_bb(file_of(from))))
                    s += char('a' + file_of(from));
                else if (!(others & rank_bb(rank_of(from))))
                    s += char('1' + rank_of(from));
                else
                    s += square_name(from);
            }
        }
        if (pos.is_capture(m)) s += 'x';
        s += square_name(to);
        if (m.type() == PROMOTION) {
            s += '=';
            s += PIECE_LETTERS[m.promotion_type()];
        }
    }
    if (pos.gives_check(m)) {
        Position after = pos;
        after.make_move(m);
        s += count_legal_moves(after) ? '+' : '#';
    }
    return s;
}

std::string moves_to_san(const Position& pos, std::span<const Move> moves, bool numbered) {
    Position p = pos;
    std::string out;
    for (std::size_t i = 0; i < moves.size() && p.is_legal(moves[i]); ++i) {
        if (!out.empty()) out += ' ';
        if (numbered && (p.side_to_move() == WHITE || i == 0))
            out +=
                std::to_string(p.fullmove_number()) + (p.side_to_move() == WHITE ? ". " : "... ");
        out += move_to_san(p, moves[i]);
        p.make_move(moves[i]);
    }
    return out;
}

int suffix_to_nag(std::string_view suffix) {
    for (int nag = 1; nag <= 6; ++nag)
        if (suffix == nag_to_suffix(nag)) return nag;
    return 0;
}

std::string_view nag_to_suffix(int nag) {
    static constexpr std::string_view SUFFIXES[] = {"", "!", "?", "!!", "??", "!?", "?!"};
    return nag >= 1 && nag <= 6 ? SUFFIXES[nag] : std::string_view();
}

} // namespace horizon
