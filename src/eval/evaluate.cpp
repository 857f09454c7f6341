#include "eval/evaluate.hpp"

#include <cstdio>
#include <sstream>

namespace horizon {

namespace {

int centrality(Square s) {
    const int f = file_of(s), r = rank_of(s);
    return std::min(std::min(f, 7 - f), std::min(r, 7 - r));
}

Bitboard forward_files(Color c, Square s) {
    // Squares strictly in front of s on its file and the adjacent files.
    Bitboard files = file_bb(file_of(s));
    if (file_of(s) > 0) files |= file_bb(file_of(s) - 1);
    if (file_of(s) < 7) files |= file_bb(file_of(s) + 1);
    Bitboard ahead = 0;
    for (int r = 0; r < 8; ++r)
        if (c == WHITE ? r > rank_of(s) : r < rank_of(s)) ahead |= rank_bb(r);
    return files & ahead;
}

Bitboard adjacent_files(Square s) {
    Bitboard b = 0;
    if (file_of(s) > 0) b |= file_bb(file_of(s) - 1);
    if (file_of(s) < 7) b |= file_bb(file_of(s) + 1);
    return b;
}

struct ScoreSink {
    const EvalParams& params;
    int mg = 0;
    int eg = 0;
    void add(int feature, Color c, int count) {
        const Weight w = params.weights[feature];
        const int sign = c == WHITE ? 1 : -1;
        mg += sign * count * w.mg;
        eg += sign * count * w.eg;
    }
};

struct TraceSink {
    EvalTrace& trace;
    void add(int feature, Color c, int count) { trace.counts[c][feature] += count; }
};

} // namespace

int game_phase(const Position& pos) {
    const int phase = popcount(pos.pieces(KNIGHT, BISHOP)) + 2 * popcount(pos.pieces(ROOK)) +
                      4 * popcount(pos.pieces(QUEEN));
    return std::min(phase, PHASE_MAX);
}

template <class Sink>
void evaluate_features(const Position& pos, Sink& sink) {
    const Bitboard occ = pos.pieces();
    for (Color c : {WHITE, BLACK}) {
        const Color them = ~c;
        const Bitboard own = pos.pieces(c);
        const Bitboard own_pawns = pos.pieces(c, PAWN);
        const Bitboard their_pawns = pos.pieces(them, PAWN);

        for (int pt = PAWN; pt <= QUEEN; ++pt) {
            const int n = pos.count(c, PieceType(pt));
            if (n) sink.add(feature_index(Term::material, pt - PAWN), c, n);
        }

        for (Bitboard b = own_pawns; b;) {
            const Square s = pop_lsb(b);
            const int rr = relative_rank(c, rank_of(s));
            sink.add(feature_index(Term::pawn_rank, rr), c, 1);
            if (!(forward_files(c, s) & their_pawns))
                sink.add(feature_index(Term::passed_pawn, rr), c, 1);
            if (!(adjacent_files(s) & own_pawns)) sink.add(feature_index(Term::isolated_pawn), c, 1);
        }
        for (int f = 0; f < 8; ++f) {
            const int n = popcount(own_pawns & file_bb(f));
            if (n > 1) sink.add(feature_index(Term::doubled_pawn), c, n - 1);
        }

        for (int pt = KNIGHT; pt <= KING; ++pt) {
            int central = 0, mobile = 0;
            for (Bitboard b = pos.pieces(c, PieceType(pt)); b;) {
                const Square s = pop_lsb(b);
                central += centrality(s);
                if (pt != KING) mobile += popcount(piece_attacks(PieceType(pt), s, occ) & ~own);
                if (pt == ROOK) {
                    const Bitboard file = file_bb(file_of(s));
                    if (!(file & (own_pawns | their_pawns)))
                        sink.add(feature_index(Term::rook_open_file), c, 1);
                    else if (!(file & own_pawns))
                        sink.add(feature_index(Term::rook_semi_open), c, 1);
                }
            }
            if (central) sink.add(feature_index(Term::centrality, pt - PAWN), c, central);
            if (mobile) sink.add(feature_index(Term::mobility, pt - PAWN), c, mobile);
        }

        if (pos.count(c, BISHOP) >= 2) sink.add(feature_index(Term::bishop_pair), c, 1);

        const Square ksq = pos.king_square(c);
        Bitboard shelter = forward_files(c, ksq);
        const int kr = rank_of(ksq);
        for (int r = 0; r < 8; ++r)
            if (std::abs(r - kr) > 2) shelter &= ~rank_bb(r);
        const int shield = popcount(shelter & own_pawns);
        if (shield) sink.add(feature_index(Term::king_shelter), c, shield);
    }
    sink.add(feature_index(Term::tempo), pos.side_to_move(), 1);
}

Score evaluate(const Position& pos, const EvalParams& params) {
    ScoreSink sink{params};
    evaluate_features(pos, sink);
    const int phase = game_phase(pos);
    const int score = (sink.mg * phase + sink.eg * (PHASE_MAX - phase)) / PHASE_MAX;
    return pos.side_to_move() == WHITE ? score : -score;
}

EvalTrace trace_evaluation(const Position& pos) {
    EvalTrace trace;
    TraceSink sink{trace};
    evaluate_features(pos, sink);
    trace.phase = game_phase(pos);
    trace.side_to_move = pos.side_to_move();
    return trace;
}

std::string format_trace(const Position& pos, const EvalParams& params) {
    const EvalTrace t = trace_evaluation(pos);
    std::ostringstream out;
    char line[160];
    std::snprintf(line, sizeof line, "%-16s | %13s | %13s | %13s\n", "term", "white mg  eg",
                  "black mg  eg", "total mg  eg");
    out << line << std::string(66, '-') << "\n";
    int total_mg = 0, total_eg = 0;
    for (int term = 0; term < TERM_COUNT; ++term) {
        int v[2][2] = {};
        for (int i = TERM_OFFSETS[term]; i < TERM_OFFSETS[term + 1]; ++i)
            for (Color c : {WHITE, BLACK}) {
                v[c][0] += t.counts[c][i] * params.weights[i].mg;
                v[c][1] += t.counts[c][i] * params.weights[i].eg;
            }
        const int mg = v[0][0] - v[1][0], eg = v[0][1] - v[1][1];
        total_mg += mg;
        total_eg += eg;
        std::snprintf(line, sizeof line, "%-16s | %6d %6d | %6d %6d | %6d %6d\n", TERM_NAMES[term],
                      v[0][0], v[0][1], v[1][0], v[1][1], mg, eg);
        out << line;
    }
    out << std::string(66, '-') << "\n";
    const int tapered = (total_mg * t.phase + total_eg * (PHASE_MAX - t.phase)) / PHASE_MAX;
    std::snprintf(line, sizeof line, "%-16s | %13s | %13s | %6d %6d\n", "total", "", "", total_mg,
                  total_eg);
    out << line;
    out << "Phase: " << t.phase << "/" << PHASE_MAX << "\n";
    out << "Final evaluation: " << tapered << " cp (white's view), "
        << (pos.side_to_move() == WHITE ? tapered : -tapered) << " cp (side to move)\n";
    return out.str();
}

template void evaluate_features<ScoreSink>(const Position&, ScoreSink&);
template void evaluate_features<TraceSink>(const Position&, TraceSink&);

} // namespace horizon
