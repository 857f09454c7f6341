#include "movegen/movegen.hpp"

#include "core/position.hpp"

namespace horizon {

namespace {

// Writes moves into a list.
struct ListSink {
    Move*& cur;

    void piece(Square from, Bitboard targets) {
        while (targets)
            *cur++ = Move(from, pop_lsb(targets));
    }
    void pawns(Bitboard targets, int delta) {
        while (targets) {
            const Square to = pop_lsb(targets);
            *cur++ = Move(Square(to - delta), to);
        }
    }
    void promotions(Bitboard targets, int delta) {
        while (targets) {
            const Square to = pop_lsb(targets);
            const Square from = Square(to - delta);
            *cur++ = Move::make(from, to, PROMOTION, QUEEN);
            *cur++ = Move::make(from, to, PROMOTION, KNIGHT);
            *cur++ = Move::make(from, to, PROMOTION, ROOK);
            *cur++ = Move::make(from, to, PROMOTION, BISHOP);
        }
    }
    void add(Move m) { *cur++ = m; }
};

// Only counts them.
struct CountSink {
    std::uint64_t count = 0;

    void piece(Square, Bitboard targets) { count += unsigned(popcount(targets)); }
    void pawns(Bitboard targets, int) { count += unsigned(popcount(targets)); }
    void promotions(Bitboard targets, int) { count += 4 * unsigned(popcount(targets)); }
    void add(Move) { ++count; }
};

template <Color Them> inline bool attacked_by(const Position& pos, Square s, Bitboard occ) {
    constexpr Color Us = ~Them;
    return (pawn_attacks(Us, s) & pos.pieces(Them, PAWN)) ||
           (knight_attacks(s) & pos.pieces(Them, KNIGHT)) ||
           (king_attacks(s) & pos.pieces(Them, KING)) ||
           (bishop_attacks(s, occ) & pos.pieces(Them, BISHOP, QUEEN)) ||
           (rook_attacks(s, occ) & pos.pieces(Them, ROOK, QUEEN));
}

template <Color Us, GenType T, class Sink>
inline void generate_pawn_moves(const Position& pos, Sink& sink, Bitboard pinned,
                                Bitboard check_mask, Square ksq) {
    constexpr Color Them = ~Us;
    constexpr Direction Up = Us == WHITE ? NORTH : SOUTH;
    constexpr Direction UpLeft = Us == WHITE ? NORTH_WEST : SOUTH_EAST;
    constexpr Direction UpRight = Us == WHITE ? NORTH_EAST : SOUTH_WEST;
    constexpr Bitboard Rank7 = Us == WHITE ? RANK_7_BB : RANK_2_BB;
    constexpr Bitboard Rank3 = Us == WHITE ? RANK_3_BB : RANK_6_BB;
    constexpr bool Quiets = T != GenType::NOISY;
    constexpr bool Noisy = T != GenType::QUIET;

    const Bitboard occ = pos.pieces();
    const Bitboard empty = ~occ;
    const Bitboard enemies = pos.pieces(Them);
    const Bitboard pawns = pos.pieces(Us, PAWN);
    const Bitboard free_pawns = pawns & ~pinned;
    // A pawn pinned along the king's file may still push.
    const Bitboard pushers = free_pawns | (pawns & pinned & file_bb(file_of(ksq)));

    // Pushes.
    {
        const Bitboard single = shift<Up>(pushers & ~Rank7) & empty;
        if constexpr (Quiets) {
            const Bitboard dbl = shift<Up>(single & Rank3) & empty;
            sink.pawns(single & check_mask, Up);
            sink.pawns(dbl & check_mask, 2 * Up);
        }
        if constexpr (Noisy) {
            const Bitboard promo = shift<Up>(pushers & Rank7) & empty & check_mask;
            sink.promotions(promo, Up);
        }
    }

    if constexpr (!Noisy) return;

    // Captures by unpinned pawns.
    const Bitboard capture_mask = enemies & check_mask;
    {
        const Bitboard normal = free_pawns & ~Rank7;
        const Bitboard promo = free_pawns & Rank7;
        sink.pawns(shift<UpLeft>(normal) & capture_mask, UpLeft);
        sink.pawns(shift<UpRight>(normal) & capture_mask, UpRight);
        sink.promotions(shift<UpLeft>(promo) & capture_mask, UpLeft);
        sink.promotions(shift<UpRight>(promo) & capture_mask, UpRight);
    }
    // Captures by pinned pawns: only along the pin (i.e. taking the pinner).
    for (Bitboard b = pawns & pinned & ~file_bb(file_of(ksq)); b;) {
        const Square from = pop_lsb(b);
        Bitboard targets = pawn_attacks(Us, from) & capture_mask & line_bb(ksq, from);
        while (targets) {
            const Square to = pop_lsb(targets);
            if (square_bb(from) & Rank7)
                sink.promotions(square_bb(to), int(to) - int(from));
            else
                sink.pawns(square_bb(to), int(to) - int(from));
        }
    }

    // En passant: verified by looking at the board after the capture.
    const Square ep = pos.ep_square();
    if (ep != NO_SQUARE) {
        const Square cap_sq = Square(int(ep) - int(Up));
        for (Bitboard b = pawn_attacks(Them, ep) & pawns; b;) {
            const Square from = pop_lsb(b);
            const Bitboard after = (occ ^ square_bb(from) ^ square_bb(cap_sq)) | square_bb(ep);
            const Bitboard leapers = pos.pieces(Them, KNIGHT) | pos.pieces(Them, PAWN);
            if (pos.checkers() & leapers & ~square_bb(cap_sq)) continue;
            if (rook_attacks(ksq, after) & pos.pieces(Them, ROOK, QUEEN)) continue;
            if (bishop_attacks(ksq, after) & pos.pieces(Them, BISHOP, QUEEN)) continue;
            sink.add(Move::make(from, ep, EN_PASSANT));
        }
    }
}

template <Color Us, GenType T, class Sink> void generate_moves(const Position& pos, Sink& sink) {
    constexpr Color Them = ~Us;
    const Bitboard own = pos.pieces(Us);
    const Bitboard enemies = pos.pieces(Them);
    const Bitboard occ = own | enemies;
    const Square ksq = pos.king_square(Us);
    const Bitboard checkers = pos.checkers();

    Bitboard target = T == GenType::NOISY ? enemies : T == GenType::QUIET ? ~occ : ~own;

    // King moves: each target checked with the king lifted off the board.
    {
        const Bitboard occ_no_king = occ ^ square_bb(ksq);
        Bitboard legal = 0;
        for (Bitboard b = king_attacks(ksq) & target; b;) {
            const Square s = pop_lsb(b);
            if (!attacked_by<Them>(pos, s, occ_no_king)) legal |= square_bb(s);
        }
        sink.piece(ksq, legal);
    }
    if (more_than_one(checkers)) return;

    const Bitboard check_mask = checkers ? between_bb(ksq, lsb(checkers)) : ~Bitboard(0);
    target &= check_mask;

    // Pinned pieces: our only piece between the king and an enemy slider.
    const Bitboard pinned = pos.lone_blockers(ksq, pos.slider_attackers(ksq, Them, enemies)) & own;

    generate_pawn_moves<Us, T>(pos, sink, pinned, check_mask, ksq);

    for (Bitboard b = pos.pieces(Us, KNIGHT) & ~pinned; b;) {
        const Square s = pop_lsb(b);
        sink.piece(s, knight_attacks(s) & target);
    }
    for (Bitboard b = pos.pieces(Us, BISHOP, QUEEN); b;) {
        const Square s = pop_lsb(b);
        Bitboard t = bishop_attacks(s, occ) & target;
        if (pinned & square_bb(s)) t &= line_bb(ksq, s);
        sink.piece(s, t);
    }
    for (Bitboard b = pos.pieces(Us, ROOK, QUEEN); b;) {
        const Square s = pop_lsb(b);
        Bitboard t = rook_attacks(s, occ) & target;
        if (pinned & square_bb(s)) t &= line_bb(ksq, s);
        sink.piece(s, t);
    }

    // Castling: path empty, king never crosses an attacked square. Attacks are looked at
    // with king and rook lifted, which also catches a Chess960 rook that shielded the
    // king's destination.
    if constexpr (T != GenType::NOISY) {
        if (!checkers) {
            for (int i = castling_index(Us, true); i <= castling_index(Us, false); ++i) {
                if (!pos.can_castle(i) || (pos.castling_path(i) & occ)) continue;
                const Square rsq = pos.castling_rook(i);
                const Bitboard lifted = occ ^ square_bb(ksq) ^ square_bb(rsq);
                bool safe = true;
                for (Bitboard b = between_bb(ksq, castling_king_destination(i)); b && safe;)
                    safe = !attacked_by<Them>(pos, pop_lsb(b), lifted);
                if (safe) sink.add(Move::make(ksq, rsq, CASTLING));
            }
        }
    }
}

} // namespace

template <GenType T> void generate(const Position& pos, MoveList& list) {
    ListSink sink{list.tail()};
    if (pos.side_to_move() == WHITE)
        generate_moves<WHITE, T>(pos, sink);
    else
        generate_moves<BLACK, T>(pos, sink);
}

template void generate<GenType::ALL>(const Position&, MoveList&);
template void generate<GenType::NOISY>(const Position&, MoveList&);
template void generate<GenType::QUIET>(const Position&, MoveList&);
template void generate<GenType::EVASIONS>(const Position&, MoveList&);

std::uint64_t count_legal_moves(const Position& pos) {
    CountSink sink;
    if (pos.side_to_move() == WHITE)
        generate_moves<WHITE, GenType::ALL>(pos, sink);
    else
        generate_moves<BLACK, GenType::ALL>(pos, sink);
    return sink.count;
}

} // namespace horizon
