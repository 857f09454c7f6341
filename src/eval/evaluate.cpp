#include "eval/evaluate.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "core/attacks.hpp"

namespace horizon {

namespace {

// The squares of the colour of `s` (dark or light).
constexpr Bitboard squares_of_colour(Square s) {
    return (DARK_SQUARES_BB & square_bb(s)) ? DARK_SQUARES_BB : ~DARK_SQUARES_BB;
}

// ---------------------------------------------------------------------------------------
// Masks, built once at compile time.

// Ranks strictly in front of `rank` as seen by colour c.
constexpr auto FORWARD_RANKS = [] {
    std::array<std::array<Bitboard, 8>, COLOR_NB> t{};
    for (int r = 0; r < 8; ++r)
        for (int q = 0; q < 8; ++q) {
            if (q > r) t[WHITE][r] |= rank_bb(q);
            if (q < r) t[BLACK][r] |= rank_bb(q);
        }
    return t;
}();

constexpr auto ADJACENT_FILES = [] {
    std::array<Bitboard, 8> t{};
    for (int f = 0; f < 8; ++f)
        t[f] = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
    return t;
}();

constexpr Bitboard forward_file(Color c, Square s) {
    return FORWARD_RANKS[c][rank_of(s)] & file_bb(file_of(s));
}
// Squares an enemy pawn must not stand on for a pawn on s to be passed.
constexpr Bitboard passed_span(Color c, Square s) {
    return FORWARD_RANKS[c][rank_of(s)] & (file_bb(file_of(s)) | ADJACENT_FILES[file_of(s)]);
}
// Squares from which an enemy pawn could ever attack s (for a piece of colour c on s).
constexpr Bitboard attack_span(Color c, Square s) {
    return FORWARD_RANKS[c][rank_of(s)] & ADJACENT_FILES[file_of(s)];
}

constexpr Bitboard CENTER_FILES = file_bb(2) | file_bb(3) | file_bb(4) | file_bb(5);
constexpr Bitboard QUEEN_SIDE = file_bb(0) | file_bb(1) | file_bb(2) | file_bb(3);
constexpr Bitboard CENTER_SQUARES = (file_bb(3) | file_bb(4)) & (rank_bb(3) | rank_bb(4));

// The flank a king on file f stands on: files a-d, c-f or e-h.
constexpr Bitboard king_flank(int f) {
    return f <= 2 ? QUEEN_SIDE : f >= 5 ? ~QUEEN_SIDE : CENTER_FILES;
}

// Ranks 4-6 for colour c: where its knights and bishops can make outposts.
constexpr Bitboard OUTPOST_RANKS[COLOR_NB] = {rank_bb(3) | rank_bb(4) | rank_bb(5),
                                              rank_bb(2) | rank_bb(3) | rank_bb(4)};

// A colour's camp: the five ranks nearest its own back rank.
constexpr Bitboard CAMP[COLOR_NB] = {RANK_1_BB | RANK_2_BB | RANK_3_BB | RANK_4_BB | RANK_5_BB,
                                     RANK_8_BB | RANK_7_BB | RANK_6_BB | RANK_5_BB | RANK_4_BB};

int distance(Square a, Square b) {
    return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

// The squares at distance 1..d from s, per square and d (index 0 unused).
const auto WITHIN = [] {
    std::array<std::array<Bitboard, 8>, 64> t{};
    for (int s = 0; s < 64; ++s)
        for (int q = 0; q < 64; ++q)
            for (int d = std::max(1, distance(Square(s), Square(q))); d < 8; ++d)
                if (q != s) t[std::size_t(s)][std::size_t(d)] |= square_bb(Square(q));
    return t;
}();

// The two long diagonals, a1-h8 and h1-a8: only a bishop on one of them can see two centre
// squares along it.
constexpr Bitboard LONG_DIAGONALS = 0x8142241818244281ULL;

Bitboard pawn_attacks_of(Color c, Bitboard pawns) {
    return c == WHITE ? pawn_attacks_bb<WHITE>(pawns) : pawn_attacks_bb<BLACK>(pawns);
}
Bitboard pawn_double_attacks_of(Color c, Bitboard pawns) {
    return c == WHITE ? shift<NORTH_EAST>(pawns) & shift<NORTH_WEST>(pawns)
                      : shift<SOUTH_EAST>(pawns) & shift<SOUTH_WEST>(pawns);
}
Bitboard push(Color c, Bitboard b) { return c == WHITE ? shift<NORTH>(b) : shift<SOUTH>(b); }

// Every square of b and in front of it as colour c's pawns move (b filled towards c's last
// rank): of c's pawn attacks, every square c's pawns can ever attack.
Bitboard fill_forward(Color c, Bitboard b) {
    if (c == WHITE) {
        b |= b << 8;
        b |= b << 16;
        return b | b << 32;
    }
    b |= b >> 8;
    b |= b >> 16;
    return b | b >> 32;
}

// The nearest square of `b` in front of a king of colour c (b holds only such squares).
Square nearest_ahead(Color c, Bitboard b) { return c == WHITE ? lsb(b) : msb(b); }

constexpr Term PSQT_TERM[] = {Term::psqt_pawn,   Term::psqt_pawn, Term::psqt_knight,
                              Term::psqt_bishop, Term::psqt_rook, Term::psqt_queen,
                              Term::psqt_king};
constexpr Term MOBILITY_TERM[] = {Term::tempo,           Term::tempo,         Term::mobility_knight,
                                  Term::mobility_bishop, Term::mobility_rook, Term::mobility_queen};

// ---------------------------------------------------------------------------------------
// Sinks

struct ScoreSink {
    const EvalParams& params;
    int mg = 0;
    int eg = 0;
    int danger_mg[COLOR_NB]{};
    int danger_eg[COLOR_NB]{};
    int complexity_eg = 0; // the endgame weights only
    void add(Term t, int i, Color c, int count) {
        const Weight w = params.weights[feature_index(t, i)];
        const int n = c == WHITE ? count : -count;
        mg += n * w.mg;
        eg += n * w.eg;
    }
    void danger(Term t, int i, Color c, int count) {
        const Weight w = params.weights[feature_index(t, i)];
        danger_mg[c] += count * w.mg;
        danger_eg[c] += count * w.eg;
    }
    void complexity(int i, int count) {
        const Weight w = params.weights[feature_index(Term::complexity, i)];
        complexity_eg += count * w.eg;
    }
};

struct TraceSink {
    EvalTrace& trace;
    void add(Term t, int i, Color c, int count) { trace.counts[c][feature_index(t, i)] += count; }
    void danger(Term t, int i, Color c, int count) { add(t, i, c, count); }
    // Complexity features belong to neither side: white's counts hold them.
    void complexity(int i, int count) { add(Term::complexity, i, WHITE, count); }
};

// ---------------------------------------------------------------------------------------
// Pawn structure: what depends on the pawns alone (the pawn hash caches it).

template <class Sink>
void pawn_structure(const Position& pos, Sink& sink, Bitboard passed[COLOR_NB]) {
    for (Color c : {WHITE, BLACK}) {
        passed[c] = 0;
        const Bitboard own = pos.pieces(c, PAWN);
        const Bitboard theirs = pos.pieces(~c, PAWN);
        for (Bitboard b = own; b;) {
            const Square s = pop_lsb(b);
            const int rr = relative_rank(c, rank_of(s));
            const Bitboard adjacent = ADJACENT_FILES[file_of(s)];
            sink.add(Term::psqt_pawn, relative_square(c, s), c, 1);

            const bool isolated = !(own & adjacent);
            const bool supported = pawn_attacks(~c, s) & own;
            const bool doubled = own & forward_file(~c, s);
            if (isolated) sink.add(Term::isolated_pawn, 0, c, 1);
            if (doubled) sink.add(Term::doubled_pawn, 0, c, 1);
            if (doubled && isolated) sink.add(Term::doubled_isolated, 0, c, 1);
            if ((rr == 4 || rr == 5) && (theirs & square_bb(Square(s + pawn_push(c)))))
                sink.add(Term::blocked_pawn, rr - 4, c, 1);
            if (supported) sink.add(Term::supported_pawn, rr, c, 1);
            if (own & adjacent & rank_bb(rank_of(s))) sink.add(Term::phalanx_pawn, rr, c, 1);

            if (!(theirs & passed_span(c, s))) {
                passed[c] |= square_bb(s);
                sink.add(Term::passed_pawn, rr, c, 1);
                if (supported) sink.add(Term::passed_supported, rr, c, 1);
                continue;
            }
            const Bitboard level_or_behind = ~FORWARD_RANKS[c][rank_of(s)];
            const Square stop = Square(s + pawn_push(c));
            const bool backward = !isolated && !(own & adjacent & level_or_behind) &&
                                  (pawn_attacks(c, stop) & theirs);
            if (backward) sink.add(Term::backward_pawn, 0, c, 1);
            if (!(theirs & forward_file(c, s))) {
                if (isolated || backward) sink.add(Term::weak_unopposed, 0, c, 1);
                const int supporters = popcount(own & adjacent & level_or_behind);
                const int sentries = popcount(theirs & attack_span(c, s));
                if (supporters >= sentries) sink.add(Term::candidate_passer, rr, c, 1);
            }
        }
    }
}

// The scoring path reads the pawn hash when it has one; the tracing path always walks.
template <class Sink>
void pawn_part(const Position& pos, Sink& sink, PawnCache*, Bitboard passed[COLOR_NB]) {
    pawn_structure(pos, sink, passed);
}

void pawn_part(const Position& pos, ScoreSink& sink, PawnCache* cache, Bitboard passed[COLOR_NB]) {
    if (!cache) return pawn_structure(pos, sink, passed);
    PawnEntry& e = cache->slot(pos.pawn_key());
    if (e.key != pos.pawn_key() || e.params_signature != sink.params.signature) {
        ScoreSink local{sink.params};
        pawn_structure(pos, local, e.passed);
        e.key = pos.pawn_key();
        e.params_signature = sink.params.signature;
        e.mg = local.mg;
        e.eg = local.eg;
    }
    sink.mg += e.mg;
    sink.eg += e.eg;
    passed[WHITE] = e.passed[WHITE];
    passed[BLACK] = e.passed[BLACK];
}

// ---------------------------------------------------------------------------------------
// Everything else.

struct AttackInfo {
    Bitboard by[COLOR_NB][KING + 1]{}; // [c][0]: all of c's attacks; [c][pt]: by piece type
    Bitboard twice[COLOR_NB]{};        // attacked at least twice
    Bitboard zone[COLOR_NB]{};         // the squares around c's king
    Bitboard mobility_area[COLOR_NB]{};
    Bitboard outposts[COLOR_NB]{};   // empty or not, c's outpost squares
    Bitboard pawn_proof[COLOR_NB]{}; // squares no pawn of the other side can ever attack
    int zone_attackers[COLOR_NB]{};  // c's pieces attacking the other king's zone
    int zone_attacks[COLOR_NB]{};

    void add(Color c, PieceType pt, Bitboard a) {
        twice[c] |= by[c][0] & a;
        by[c][0] |= a;
        by[c][pt] |= a;
    }
};

// The pairs of piece types whose counts' products the imbalance term weighs, in terms.def's
// order: first each with an own piece type, then each with the enemy's.
struct TypePair {
    PieceType a, b;
};
constexpr TypePair IMBALANCE_OWN[] = {{KNIGHT, KNIGHT}, {KNIGHT, BISHOP}, {KNIGHT, ROOK},
                                      {KNIGHT, QUEEN},  {BISHOP, PAWN},   {BISHOP, ROOK},
                                      {BISHOP, QUEEN},  {ROOK, ROOK},     {ROOK, QUEEN},
                                      {QUEEN, PAWN},    {QUEEN, QUEEN},   {PAWN, PAWN}};
constexpr TypePair IMBALANCE_THEIRS[] = {
    {PAWN, KNIGHT}, {PAWN, BISHOP},  {PAWN, ROOK},   {PAWN, QUEEN},   {KNIGHT, BISHOP},
    {KNIGHT, ROOK}, {KNIGHT, QUEEN}, {BISHOP, ROOK}, {BISHOP, QUEEN}, {ROOK, QUEEN}};
static_assert(std::size(IMBALANCE_OWN) + std::size(IMBALANCE_THEIRS) ==
              std::size_t(TERM_SIZES[int(Term::imbalance)]));

// Both sides' imbalance products, from each side's piece counts taken once.
template <class Sink>
void imbalance_products(const int count[COLOR_NB][PIECE_TYPE_NB], Sink& sink) {
    for (Color c : {WHITE, BLACK}) {
        const int* own = count[c];
        const int* theirs = count[~c];
        int idx = 0;
        for (const TypePair& p : IMBALANCE_OWN) {
            if (int n = own[p.a] * own[p.b]) sink.add(Term::imbalance, idx, c, n);
            ++idx;
        }
        for (const TypePair& p : IMBALANCE_THEIRS) {
            if (int n = own[p.a] * theirs[p.b]) sink.add(Term::imbalance, idx, c, n);
            ++idx;
        }
    }
}

// Fills each side's piece counts; returns them packed four bits a count, plus one (so never
// 0, the material table's empty key), or 0 for a position set up with 16 or more of a kind.
std::uint64_t piece_counts(const Position& pos, int count[COLOR_NB][PIECE_TYPE_NB]) {
    std::uint64_t key = 0;
    bool packable = true;
    for (Color c : {WHITE, BLACK})
        for (int pt = PAWN; pt <= QUEEN; ++pt) {
            count[c][pt] = pos.count(c, PieceType(pt));
            packable &= count[c][pt] <= 15;
            key = key << 4 | std::uint64_t(count[c][pt] & 15);
        }
    return packable ? key + 1 : 0;
}

// The scoring path reads the material table when it has one; the tracing path always counts.
template <class Sink> void material_imbalance(const Position& pos, Sink& sink, PawnCache*) {
    int count[COLOR_NB][PIECE_TYPE_NB] = {};
    piece_counts(pos, count);
    imbalance_products(count, sink);
}

void material_imbalance(const Position& pos, ScoreSink& sink, PawnCache* cache) {
    int count[COLOR_NB][PIECE_TYPE_NB] = {};
    const std::uint64_t key = piece_counts(pos, count);
    if (!cache || !key) return imbalance_products(count, sink);
    MaterialEntry& e = cache->material_slot(key);
    if (e.key != key || e.params_signature != sink.params.signature) {
        ScoreSink local{sink.params};
        imbalance_products(count, local);
        e.key = key;
        e.params_signature = sink.params.signature;
        e.mg = local.mg;
        e.eg = local.eg;
    }
    sink.mg += e.mg;
    sink.eg += e.eg;
}

template <class Sink> void pieces(const Position& pos, Sink& sink, AttackInfo& ai, Color c) {
    const Color them = ~c;
    const Bitboard occ = pos.pieces();
    const Bitboard own_pawns = pos.pieces(c, PAWN);
    const Bitboard all_pawns = pos.pieces(PAWN);
    const Square their_king = pos.king_square(them);
    const Square ksq = pos.king_square(c);

    for (int p = KNIGHT; p <= QUEEN; ++p) {
        const PieceType pt = PieceType(p);
        for (Bitboard b = pos.pieces(c, pt); b;) {
            const Square s = pop_lsb(b);
            const Bitboard a = piece_attacks(pt, s, occ);
            ai.add(c, pt, a);
            sink.add(PSQT_TERM[pt], relative_square(c, s), c, 1);
            const int mobility = popcount(a & ai.mobility_area[c]);
            sink.add(MOBILITY_TERM[pt], mobility, c, 1);
            if (a & ai.zone[them]) {
                ++ai.zone_attackers[c];
                ai.zone_attacks[c] += popcount(a & ai.zone[them]);
                sink.danger(Term::king_attackers, pt - KNIGHT, c, 1);
            }
            const int rr = relative_rank(c, rank_of(s));
            if (pt == KNIGHT || pt == BISHOP) {
                if (ai.outposts[c] & square_bb(s))
                    sink.add(pt == KNIGHT ? Term::knight_outpost : Term::bishop_outpost, 0, c, 1);
                else if (pt == KNIGHT && (a & ai.outposts[c] & ~pos.pieces(c)))
                    sink.add(Term::outpost_reachable, 0, c, 1);
                // The square in front: none on the last rank.
                if (push(c, square_bb(s)) & all_pawns) sink.add(Term::minor_behind_pawn, 0, c, 1);
                sink.add(Term::minor_king_distance, 0, c, distance(s, ksq));
            }
            if (pt == BISHOP) {
                const Bitboard colour = squares_of_colour(s);
                const int bad = popcount(own_pawns & colour);
                if (bad) sink.add(Term::bad_bishop, 0, c, bad);
                if ((LONG_DIAGONALS & square_bb(s)) &&
                    more_than_one(bishop_attacks(s, all_pawns) & CENTER_SQUARES))
                    sink.add(Term::bishop_long_diagonal, 0, c, 1);
            }
            if (pt == ROOK) {
                const Bitboard file = file_bb(file_of(s));
                if (!(file & all_pawns))
                    sink.add(Term::rook_open_file, 0, c, 1);
                else if (!(file & own_pawns))
                    sink.add(Term::rook_semi_open, 0, c, 1);
                if (rr == 6 && (relative_rank(c, rank_of(their_king)) == 7 ||
                                (pos.pieces(them, PAWN) & rank_bb(relative_rank(c, 6)))))
                    sink.add(Term::rook_on_seventh, 0, c, 1);
                if (file & pos.pieces(them, QUEEN)) sink.add(Term::rook_on_queen_file, 0, c, 1);
                if (a & file & pos.pieces(c, ROOK)) sink.add(Term::doubled_rooks, 0, c, 1);
                const int kf = file_of(ksq), rf = file_of(s);
                if (mobility <= 3 && relative_rank(c, rank_of(ksq)) == 0 && rf != kf &&
                    (kf < 4) == (rf < kf)) {
                    const int rights = c == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
                    const bool can_castle = pos.castling_rights() & rights;
                    sink.add(Term::trapped_rook, can_castle ? 0 : 1, c, 1);
                }
            }
            if (pt == QUEEN) {
                if (rr >= 4 && (ai.pawn_proof[c] & square_bb(s)))
                    sink.add(Term::queen_infiltration, 0, c, 1);
                const Bitboard sliders = (rook_attacks(s, 0) & pos.pieces(them, ROOK)) |
                                         (bishop_attacks(s, 0) & pos.pieces(them, BISHOP));
                if (int n = popcount(pos.lone_blockers(s, sliders)))
                    sink.add(Term::weak_queen, 0, c, n);
            }
        }
    }
    sink.add(Term::psqt_king, relative_square(c, ksq), c, 1);
    for (int p = PAWN; p <= QUEEN; ++p) {
        const int n = pos.count(c, PieceType(p));
        if (n) sink.add(Term::material, p - PAWN, c, n);
    }
    if (pos.count(c, BISHOP) >= 2) sink.add(Term::bishop_pair, 0, c, 1);
    const int pawns = pos.count(c, PAWN);
    if (int n = pos.count(c, KNIGHT) * pawns) sink.add(Term::knight_pawns, 0, c, n);
    if (int n = pos.count(c, ROOK) * pawns) sink.add(Term::rook_pawns, 0, c, n);
}

// c's own king: the pawns in front of it and the files by it.
template <class Sink> void king_shelter(const Position& pos, Sink& sink, Color c) {
    const Square ksq = pos.king_square(c);
    const Bitboard ahead = FORWARD_RANKS[c][rank_of(ksq)];
    const int centre = std::clamp(file_of(ksq), 1, 6);
    for (int f = centre - 1; f <= centre + 1; ++f) {
        const Bitboard file = file_bb(f);
        const Bitboard own = pos.pieces(c, PAWN) & file;
        const Bitboard theirs = pos.pieces(~c, PAWN) & file;
        int shield = 0, storm = 0;
        if (own & ahead)
            shield = std::min(7, std::abs(rank_of(nearest_ahead(c, own & ahead)) - rank_of(ksq)));
        if (theirs & ahead)
            storm = std::min(7, std::abs(rank_of(nearest_ahead(c, theirs & ahead)) - rank_of(ksq)));
        sink.add(Term::pawn_shield, shield, c, 1);
        sink.add(Term::pawn_storm, storm, c, 1);
        if (!own) sink.add(theirs ? Term::king_semi_open : Term::king_open_file, 0, c, 1);
    }
    int nearest = 0; // 0: no pawns
    if (const Bitboard pawns = pos.pieces(c, PAWN))
        for (nearest = 1; !(pawns & WITHIN[ksq][std::size_t(nearest)]);)
            ++nearest;
    sink.add(Term::king_pawn_distance, nearest, c, 1);
    if (!(pos.pieces(PAWN) & king_flank(file_of(ksq)))) sink.add(Term::pawnless_flank, 0, c, 1);
}

// c's attack on the other king, in KING_DANGER features.
template <class Sink>
void king_attack(const Position& pos, Sink& sink, const AttackInfo& ai, Color c) {
    if (!ai.zone_attackers[c]) return;
    const Color them = ~c;
    const Square ksq = pos.king_square(them);
    const Bitboard occ = pos.pieces();
    const Bitboard safe = ~pos.pieces(c) & ~ai.by[them][0];
    const Bitboard diagonal = bishop_attacks(ksq, occ), straight = rook_attacks(ksq, occ);
    const Bitboard checks[4] = {
        knight_attacks(ksq) & ai.by[c][KNIGHT] & safe, diagonal & ai.by[c][BISHOP] & safe,
        straight & ai.by[c][ROOK] & safe, (diagonal | straight) & ai.by[c][QUEEN] & safe};
    for (int i = 0; i < 4; ++i)
        if (checks[i]) sink.danger(Term::safe_check, i, c, popcount(checks[i]));
    const Bitboard unsafe = ((knight_attacks(ksq) & ai.by[c][KNIGHT]) |
                             (diagonal & (ai.by[c][BISHOP] | ai.by[c][QUEEN])) |
                             (straight & (ai.by[c][ROOK] | ai.by[c][QUEEN]))) &
                            ~pos.pieces(c) & ai.by[them][0];
    if (unsafe) sink.danger(Term::unsafe_check, 0, c, popcount(unsafe));
    const Bitboard pinners = pos.slider_attackers(ksq, c, 0);
    if (int n = popcount(pos.lone_blockers(ksq, pinners) & pos.pieces(them)))
        sink.danger(Term::king_blockers, 0, c, n);
    if (int n = popcount(pos.pieces(them, KNIGHT) & ai.zone[them]))
        sink.danger(Term::knight_defender, 0, c, n);
    sink.danger(Term::king_zone_attacks, 0, c, ai.zone_attacks[c]);
    const Bitboard defended =
        ai.by[them][PAWN] | ai.by[them][KNIGHT] | ai.by[them][BISHOP] | ai.by[them][ROOK];
    const int weak = popcount(ai.by[c][0] & ai.zone[them] & ~defended);
    if (weak) sink.danger(Term::king_weak_squares, 0, c, weak);
    if (!pos.pieces(c, QUEEN)) sink.danger(Term::king_no_queen, 0, c, 1);
    const Bitboard flank = king_flank(file_of(ksq)) & CAMP[them];
    if (int n = popcount(ai.by[c][0] & flank) + popcount(ai.twice[c] & flank))
        sink.danger(Term::king_flank_attacks, 0, c, n);
    sink.danger(Term::king_danger_base, 0, c, 1);
}

// c's threats against the other side's pieces, and c's passed pawns and space.
template <class Sink> void threats(const Position& pos, Sink& sink, const AttackInfo& ai, Color c) {
    const Color them = ~c;
    const Bitboard their_pieces = pos.pieces(them) & ~pos.pieces(them, KING);
    const Bitboard non_pawns = their_pieces & ~pos.pieces(them, PAWN);
    const Bitboard by_minor = ai.by[c][KNIGHT] | ai.by[c][BISHOP];
    const Bitboard minor_targets =
        their_pieces & (~ai.by[them][PAWN] | pos.pieces(them, ROOK, QUEEN));
    const Bitboard rook_targets = their_pieces & (~ai.by[them][0] | pos.pieces(them, QUEEN));
    for (int p = PAWN; p <= QUEEN; ++p) {
        const Bitboard targets = pos.pieces(them, PieceType(p));
        if (p != PAWN) {
            if (int n = popcount(targets & ai.by[c][PAWN]))
                sink.add(Term::threat_by_pawn, p - PAWN, c, n);
        }
        if (int n = popcount(targets & minor_targets & by_minor))
            sink.add(Term::threat_by_minor, p - PAWN, c, n);
        if (int n = popcount(targets & rook_targets & ai.by[c][ROOK]))
            sink.add(Term::threat_by_rook, p - PAWN, c, n);
    }
    if (int n = popcount(non_pawns & ai.by[c][0] & ~ai.by[them][0]))
        sink.add(Term::hanging_piece, 0, c, n);
    if (int n = popcount(their_pieces & ai.by[c][KING] & ~ai.by[them][0]))
        sink.add(Term::threat_by_king, 0, c, n);
    const Bitboard strongly_protected = ai.by[them][PAWN] | (ai.twice[them] & ~ai.twice[c]);
    if (int n = popcount(ai.by[them][0] & ai.by[c][0] & ~strongly_protected))
        sink.add(Term::restricted, 0, c, n);
    if (pos.count(them, QUEEN) == 1) {
        const Square q = lsb(pos.pieces(them, QUEEN));
        const Bitboard safe = ai.mobility_area[c] & ~strongly_protected;
        if (int n = popcount(knight_attacks(q) & ai.by[c][KNIGHT] & safe))
            sink.add(Term::knight_on_queen, 0, c, n);
        const Bitboard occ = pos.pieces();
        const Bitboard sliders =
            (bishop_attacks(q, occ) & ai.by[c][BISHOP]) | (rook_attacks(q, occ) & ai.by[c][ROOK]);
        if (int n = popcount(sliders & safe & ai.twice[c]))
            sink.add(Term::slider_on_queen, 0, c, n);
    }

    const Bitboard pushes = push(c, pos.pieces(c, PAWN)) & ~pos.pieces();
    const Bitboard safe_pushes = pushes & ~ai.by[them][PAWN] & (ai.by[c][0] | ~ai.by[them][0]);
    if (int n = popcount(pawn_attacks_of(c, safe_pushes) & non_pawns))
        sink.add(Term::pawn_push_threat, 0, c, n);

    const Bitboard own_pawns = pos.pieces(c, PAWN);
    const Bitboard home =
        c == WHITE ? (RANK_2_BB | RANK_3_BB | RANK_4_BB) : (RANK_7_BB | RANK_6_BB | RANK_5_BB);
    const Bitboard area = CENTER_FILES & home & ~own_pawns & ~ai.by[them][PAWN];
    Bitboard behind = c == WHITE ? own_pawns >> 8 : own_pawns << 8;
    behind |= c == WHITE ? behind >> 8 : behind << 8;
    behind |= c == WHITE ? behind >> 16 : behind << 16;
    if (int n = popcount(area) + popcount(area & behind)) sink.add(Term::space, 0, c, n);
}

template <class Sink>
void passed_pawns(const Position& pos, Sink& sink, const AttackInfo& ai, Bitboard passed, Color c) {
    const Color them = ~c;
    for (Bitboard b = passed; b;) {
        const Square s = pop_lsb(b);
        const int rr = relative_rank(c, rank_of(s));
        const Square stop = Square(s + pawn_push(c));
        if (pos.pieces() & square_bb(stop)) sink.add(Term::passed_blocked, rr, c, 1);
        const Bitboard path = forward_file(c, s);
        if (!(path & (pos.pieces() | ai.by[them][0]))) sink.add(Term::passed_free, rr, c, 1);
        if (int d = distance(pos.king_square(c), stop)) sink.add(Term::passed_own_king, rr, c, d);
        if (int d = distance(pos.king_square(them), stop))
            sink.add(Term::passed_their_king, rr, c, d);
        const int f = file_of(s);
        sink.add(Term::passed_file, std::min(f, 7 - f), c, 1);
        const Bitboard behind = forward_file(~c, s) & rook_attacks(s, pos.pieces());
        if (behind & pos.pieces(c, ROOK)) sink.add(Term::rook_behind_passer, 0, c, 1);
        if (behind & pos.pieces(them, ROOK)) sink.add(Term::rook_behind_passer, 1, c, 1);
    }
}

int non_pawn_material(const Position& pos, Color c) {
    return 3 * pos.count(c, KNIGHT) + 3 * pos.count(c, BISHOP) + 5 * pos.count(c, ROOK) +
           9 * pos.count(c, QUEEN);
}

// Pawns on one rook file and no piece but bishops that miss the queening square's colour,
// against a king at the queening corner: the king cannot be driven out (seen in matches: a
// bishop and h-pawn against the bare king judged more than four pawns up). Pawns of the
// defender change nothing: in the training data's 4,949 such positions the bishop's side
// scored 42 % (Stockfish's score and the result), yet the evaluation gave it 3,521 of them,
// by 3 to 4 pawns in the ones looked at.
bool rook_pawn_fortress(const Position& pos, Color strong) {
    const Bitboard pawns = pos.pieces(strong, PAWN);
    const int file = (pawns & ~FILE_A_BB) ? 7 : 0;
    if (pawns & ~file_bb(file)) return false;
    if (pos.pieces(strong) != (pos.pieces(strong, PAWN, BISHOP) | pos.pieces(strong, KING)))
        return false;
    const Square queening = make_square(file, strong == WHITE ? 7 : 0);
    return !(pos.pieces(strong, BISHOP) & squares_of_colour(queening)) &&
           distance(pos.king_square(~strong), queening) <= 1;
}

// c against a bare king with the material to mate it: the lone king's distance from the
// centre, the closeness of the two kings, and with bishop and knight alone the lone king's
// closeness to a corner of the bishop's colour, the only corners where they mate. Without
// them a search that sees no mate yet has nothing to steer by: in self-play at 25,000 nodes
// a move, king and rook against king took up to 90 plies to mate and some games were drawn.
//
// The same, without the corner, against a lone piece and no pawn when c has four pawns' worth
// of pieces more (queen against rook, two rooks against rook): those are won the same way, by
// driving the king to the edge. Queen against rook, 40 won positions against Stockfish with
// the tables at 1+0.01 (scripts/measure/tb_conversion.py): 23 converted without this, 29 with it.
template <class Sink> void mop_up(const Position& pos, Sink& sink, Color c) {
    const Color them = ~c;
    const Bitboard defenders = pos.pieces(them) ^ pos.pieces(them, KING);
    const Bitboard bishops = pos.pieces(c, BISHOP);
    const bool bishop_and_knight = bishops && pos.pieces(c, KNIGHT);
    if (defenders) {
        if (more_than_one(defenders) || (defenders & pos.pieces(PAWN)) ||
            non_pawn_material(pos, c) - non_pawn_material(pos, them) < 4)
            return;
    } else {
        const bool two_bishop_colours = (bishops & DARK_SQUARES_BB) && (bishops & ~DARK_SQUARES_BB);
        if (!pos.pieces(c, ROOK, QUEEN) && !bishop_and_knight && !two_bishop_colours) return;
    }
    const Square lone = pos.king_square(them);
    const int file = file_of(lone), rank = rank_of(lone);
    // From the edges as passed_file counts files (0..3), so from the centre 3 - that per axis.
    const int from_centre = 6 - std::min(file, 7 - file) - std::min(rank, 7 - rank);
    sink.add(Term::mop_up_edge, 0, c, from_centre);
    sink.add(Term::mop_up_kings, 0, c, 7 - distance(pos.king_square(c), lone));
    if (bishop_and_knight && popcount(pos.pieces(c)) == 3) {
        const bool dark = bishops & DARK_SQUARES_BB;
        const Square a = dark ? A1 : A8, b = dark ? H8 : H1;
        sink.add(Term::mop_up_corner, 0, c, 7 - std::min(distance(lone, a), distance(lone, b)));
    }
}

// The endgame scale (of SCALE_NORMAL) when `strong` is ahead: drawish material.
int endgame_scale(const Position& pos, Color strong) {
    const Color weak = ~strong;
    const int npm_strong = non_pawn_material(pos, strong), npm_weak = non_pawn_material(pos, weak);
    const int pawns_strong = pos.count(strong, PAWN), pawns_weak = pos.count(weak, PAWN);
    if (!pawns_strong) {
        // Pawnless: a minor piece more (or less) wins nothing; two knights mate no one.
        if (npm_strong - npm_weak <= 3) return npm_strong < 5 ? 0 : 16;
        if (pos.pieces(strong) == pos.pieces(strong, KNIGHT, KING) &&
            pos.count(strong, KNIGHT) <= 2)
            return 0;
    }
    if (pawns_strong && rook_pawn_fortress(pos, strong)) return 0;
    if (pawns_strong == 1 && npm_strong <= 3 && npm_weak >= 3) {
        // A minor piece (or none) and one pawn against a minor piece or more: the defender
        // gives the piece for the pawn or blockades it, and the rest is a draw. Seen in
        // matches: a knight and pawn against a bishop judged more than a pawn up.
        return 16;
    }
    if (pos.count(WHITE, BISHOP) == 1 && pos.count(BLACK, BISHOP) == 1 &&
        bool(pos.pieces(WHITE, BISHOP) & DARK_SQUARES_BB) !=
            bool(pos.pieces(BLACK, BISHOP) & DARK_SQUARES_BB)) {
        // Opposite-coloured bishops: alone they draw often, with other pieces less so.
        return npm_strong == 3 && npm_weak == 3 ? 48 : 96;
    }
    if (npm_strong == 5 && npm_weak == 5 && pos.count(strong, ROOK) == 1 &&
        pos.count(weak, ROOK) == 1 && pawns_strong - pawns_weak <= 1) {
        // Rook endings a pawn up with all pawns on one wing are hard to win.
        const Bitboard p = pos.pieces(PAWN);
        if (!(p & QUEEN_SIDE) || !(p & ~QUEEN_SIDE)) return 96;
    }
    return SCALE_NORMAL;
}

// What makes an advantage easier or harder to win, whoever has it (Term::complexity).
template <class Sink> void complexity(const Position& pos, Sink& sink, const Bitboard passed[]) {
    const Bitboard pawns = pos.pieces(PAWN);
    const Square wk = pos.king_square(WHITE), bk = pos.king_square(BLACK);
    sink.complexity(0, 1);
    if (int n = popcount(passed[WHITE] | passed[BLACK])) sink.complexity(1, n);
    if (int n = popcount(pawns)) sink.complexity(2, n);
    if (int n = std::abs(file_of(wk) - file_of(bk)) - std::abs(rank_of(wk) - rank_of(bk)))
        sink.complexity(3, n);
    if ((pawns & QUEEN_SIDE) && (pawns & ~QUEEN_SIDE)) sink.complexity(4, 1);
    if (!(pos.pieces(KNIGHT, BISHOP) | pos.pieces(ROOK, QUEEN))) sink.complexity(5, 1);
    if (int n = (relative_rank(WHITE, rank_of(wk)) >= 4) + (relative_rank(BLACK, rank_of(bk)) >= 4))
        sink.complexity(6, n);
}

template <class Sink> void evaluate_all(const Position& pos, Sink& sink, PawnCache* cache) {
    Bitboard passed[COLOR_NB];
    pawn_part(pos, sink, cache, passed);

    AttackInfo ai;
    for (Color c : {WHITE, BLACK}) {
        const Bitboard pawns = pos.pieces(c, PAWN);
        const Square ksq = pos.king_square(c);
        ai.by[c][PAWN] = pawn_attacks_of(c, pawns);
        ai.by[c][KING] = king_attacks(ksq);
        ai.by[c][0] = ai.by[c][PAWN] | ai.by[c][KING];
        ai.twice[c] = pawn_double_attacks_of(c, pawns) | (ai.by[c][PAWN] & ai.by[c][KING]);
        ai.zone[c] = king_attacks(ksq) | square_bb(ksq);
    }
    for (Color c : {WHITE, BLACK}) {
        ai.mobility_area[c] = ~(pos.pieces(c, PAWN, KING) | ai.by[~c][PAWN]);
        ai.pawn_proof[c] = ~fill_forward(~c, pawn_attacks_of(~c, pos.pieces(~c, PAWN)));
        ai.outposts[c] = OUTPOST_RANKS[c] & ai.by[c][PAWN] & ai.pawn_proof[c];
    }
    for (Color c : {WHITE, BLACK})
        pieces(pos, sink, ai, c);
    material_imbalance(pos, sink, cache);
    for (Color c : {WHITE, BLACK}) {
        king_shelter(pos, sink, c);
        king_attack(pos, sink, ai, c);
        threats(pos, sink, ai, c);
        passed_pawns(pos, sink, ai, passed[c], c);
        mop_up(pos, sink, c);
    }
    sink.add(Term::tempo, 0, pos.side_to_move(), 1);
    complexity(pos, sink, passed);
}

// mg and eg totals (white's view) to the tapered, scaled score.
int blend(int mg, int eg, int phase, int scale) {
    const int scaled_mg = mg * middlegame_scale(scale) / SCALE_NORMAL;
    const int scaled_eg = eg * scale / SCALE_NORMAL;
    return (scaled_mg * phase + scaled_eg * (PHASE_MAX - phase)) / PHASE_MAX;
}

std::array<int, COLOR_NB> scales(const Position& pos) {
    return {endgame_scale(pos, WHITE), endgame_scale(pos, BLACK)};
}

} // namespace

int game_phase(const Position& pos) {
    const int phase = popcount(pos.pieces(KNIGHT, BISHOP)) + 2 * popcount(pos.pieces(ROOK)) +
                      4 * popcount(pos.pieces(QUEEN));
    return std::min(phase, PHASE_MAX);
}

Score evaluate(const Position& pos, const EvalParams& params, PawnCache* pawns) {
    if (pos.has_insufficient_material()) return SCORE_DRAW;
    ScoreSink sink{params};
    evaluate_all(pos, sink, pawns);
    const int mg =
        sink.mg + king_danger_mg(sink.danger_mg[WHITE]) - king_danger_mg(sink.danger_mg[BLACK]);
    const int eg =
        sink.eg + king_danger_eg(sink.danger_eg[WHITE]) - king_danger_eg(sink.danger_eg[BLACK]);
    // Never in the tablebase or mate range, whatever the weights.
    const int bound = SCORE_EVAL_MAX;
    // Only the stronger side's scale matters: the other is not computed.
    const int scale = endgame_scale(pos, eg > 0 ? WHITE : BLACK);
    const int score = std::clamp(
        blend(mg, with_complexity(eg, sink.complexity_eg), game_phase(pos), scale), -bound, bound);
    return Score(pos.side_to_move() == WHITE ? score : -score);
}

EvalTrace trace_evaluation(const Position& pos) {
    EvalTrace trace;
    TraceSink sink{trace};
    evaluate_all(pos, sink, nullptr);
    trace.phase = game_phase(pos);
    trace.scale = scales(pos);
    trace.dead_draw = pos.has_insufficient_material();
    trace.side_to_move = pos.side_to_move();
    return trace;
}

namespace {

// Per colour, the linear mg/eg sums and the danger figures of a trace.
struct TraceSums {
    int mg[COLOR_NB]{}, eg[COLOR_NB]{};
    int danger_mg[COLOR_NB]{}, danger_eg[COLOR_NB]{};
    int complexity = 0; // the endgame weights of the complexity features (white's counts)
};

TraceSums sum_trace(const EvalTrace& t, const EvalParams& params, int first, int last) {
    TraceSums s;
    for (int i = first; i < last; ++i)
        for (Color c : {WHITE, BLACK}) {
            const int n = t.counts[c][i];
            if (!n) continue;
            const Weight w = params.weights[i];
            if (FEATURE_KINDS[i] == TermKind::LINEAR) {
                s.mg[c] += n * w.mg;
                s.eg[c] += n * w.eg;
            } else if (FEATURE_KINDS[i] == TermKind::COMPLEXITY) {
                s.complexity += n * w.eg;
            } else {
                s.danger_mg[c] += n * w.mg;
                s.danger_eg[c] += n * w.eg;
            }
        }
    return s;
}

} // namespace

int evaluate_trace(const EvalTrace& t, const EvalParams& params) {
    if (t.dead_draw) return 0;
    const TraceSums s = sum_trace(t, params, 0, WEIGHT_COUNT);
    const int mg = s.mg[WHITE] - s.mg[BLACK] + king_danger_mg(s.danger_mg[WHITE]) -
                   king_danger_mg(s.danger_mg[BLACK]);
    const int eg = s.eg[WHITE] - s.eg[BLACK] + king_danger_eg(s.danger_eg[WHITE]) -
                   king_danger_eg(s.danger_eg[BLACK]);
    const int bound = SCORE_EVAL_MAX;
    return std::clamp(
        blend(mg, with_complexity(eg, s.complexity), t.phase, t.scale[eg > 0 ? WHITE : BLACK]),
        -bound, bound);
}

std::string format_trace(const Position& pos, const EvalParams& params) {
    const EvalTrace t = trace_evaluation(pos);
    std::ostringstream out;
    char line[192];
    // The name column is as wide as the longest term name.
    int width = 0;
    for (int term = 0; term < TERM_COUNT; ++term)
        width = std::max(width, int(std::strlen(TERM_NAMES[term])));
    const std::string rule(std::size_t(width) + 50, '-');
    const auto row = [&](const char* name, int wmg, int weg, int bmg, int beg) {
        std::snprintf(line, sizeof line, "%-*s | %6d %6d | %6d %6d | %6d %6d\n", width, name, wmg,
                      weg, bmg, beg, wmg - bmg, weg - beg);
        out << line;
    };
    std::snprintf(line, sizeof line, "%-*s | %13s | %13s | %13s\n", width, "term", "white mg  eg",
                  "black mg  eg", "total mg  eg");
    out << line << rule << "\n";
    for (int term = 0; term < TERM_COUNT; ++term) {
        if (TERM_KINDS[term] != TermKind::LINEAR) continue;
        const TraceSums s = sum_trace(t, params, TERM_OFFSETS[term], TERM_OFFSETS[term + 1]);
        row(TERM_NAMES[term], s.mg[WHITE], s.eg[WHITE], s.mg[BLACK], s.eg[BLACK]);
    }
    out << rule << "\n"
        << "King danger: units each side's attack adds up to (not summed below)\n";
    for (int term = 0; term < TERM_COUNT; ++term) {
        if (TERM_KINDS[term] != TermKind::KING_DANGER) continue;
        const TraceSums s = sum_trace(t, params, TERM_OFFSETS[term], TERM_OFFSETS[term + 1]);
        row(TERM_NAMES[term], s.danger_mg[WHITE], s.danger_eg[WHITE], s.danger_mg[BLACK],
            s.danger_eg[BLACK]);
    }
    const TraceSums all = sum_trace(t, params, 0, WEIGHT_COUNT);
    out << rule << "\n";
    const int kd[COLOR_NB][2] = {
        {king_danger_mg(all.danger_mg[WHITE]), king_danger_eg(all.danger_eg[WHITE])},
        {king_danger_mg(all.danger_mg[BLACK]), king_danger_eg(all.danger_eg[BLACK])}};
    row("king_danger", kd[WHITE][0], kd[WHITE][1], kd[BLACK][0], kd[BLACK][1]);
    const int mg = all.mg[WHITE] - all.mg[BLACK] + kd[WHITE][0] - kd[BLACK][0];
    const int eg = all.eg[WHITE] - all.eg[BLACK] + kd[WHITE][1] - kd[BLACK][1];
    const int eg_after = with_complexity(eg, all.complexity);
    // Complexity belongs to neither side: its figure c, then what it moved the endgame by.
    std::snprintf(line, sizeof line, "%-*s | c %11d | %13s | %6d %6d\n", width, "complexity",
                  all.complexity, "", 0, eg_after - eg);
    out << line << rule << "\n";
    std::snprintf(line, sizeof line, "%-*s | %13s | %13s | %6d %6d\n", width, "total", "", "", mg,
                  eg_after);
    out << line;
    const int tapered = evaluate_trace(t, params);
    out << "Phase: " << t.phase << "/" << PHASE_MAX
        << ", endgame scale: " << t.scale[eg > 0 ? WHITE : BLACK] << "/" << SCALE_NORMAL
        << (t.dead_draw ? " (insufficient material: a dead draw)" : "") << "\n";
    out << "Final evaluation: " << tapered << " cp (white's view), "
        << (pos.side_to_move() == WHITE ? tapered : -tapered) << " cp (side to move)\n";
    return out.str();
}

} // namespace horizon
