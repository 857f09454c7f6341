// Evaluation: colour symmetry, engine.json against terms.def, JSON round trip, the trace, and
// weights files (load, refusals).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/position.hpp"
#include "engine/engine.hpp"
#include "eval/engine_file.hpp"
#include "eval/evaluate.hpp"
#include "eval/params.hpp"
#include "eval/wdl.hpp"
#include "movegen/movegen.hpp"
#include "uci/uci.hpp"

#include "support.hpp"

using namespace horizon;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

char swap_case(char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isupper(u) ? char(std::tolower(u)) : char(std::toupper(u));
}

// The same position with colours swapped and the board flipped top to bottom.
std::string mirror_fen(const std::string& fen) {
    const auto f = split(fen, ' ');
    REQUIRE(f.size() == 6);
    const auto ranks = split(f[0], '/');
    REQUIRE(ranks.size() == 8);
    std::string placement;
    for (int r = 7; r >= 0; --r) {
        for (char c : ranks[std::size_t(r)])
            placement += swap_case(c);
        if (r) placement += '/';
    }
    const std::string side = f[1] == "w" ? "b" : "w";
    std::string castling = "-";
    if (f[2] != "-") {
        // White's rights (upper case) first, as FEN writes them.
        std::string upper, lower;
        for (char c : f[2])
            (std::islower(static_cast<unsigned char>(c)) ? upper : lower) += swap_case(c);
        castling = upper + lower;
    }
    std::string ep = f[3];
    if (ep != "-") ep[1] = char('1' + ('8' - ep[1]));
    return placement + " " + side + " " + castling + " " + ep + " " + f[4] + " " + f[5];
}

// About twenty positions of the standard perft suite.
std::vector<std::string> suite_fens() {
    std::vector<std::string> fens;
    const auto all = test::perft_suite_fens("standard.epd");
    for (std::size_t i = 0; i < all.size(); i += 6)
        fens.push_back(all[i]);
    return fens;
}

Position from_fen(const std::string& fen) {
    Position p;
    const auto err = p.set_fen(fen);
    INFO(fen << ": " << (err ? err->message : ""));
    REQUIRE_FALSE(err);
    return p;
}

// The two numbers of "Final evaluation: X cp (white's view), Y cp (side to move)".
std::pair<int, int> final_numbers(const std::string& trace) {
    std::istringstream in(trace);
    for (std::string line; std::getline(in, line);) {
        const std::string tag = "Final evaluation: ";
        if (line.rfind(tag, 0) != 0) continue;
        const std::string rest = line.substr(tag.size());
        const auto comma = rest.find(", ");
        REQUIRE(comma != std::string::npos);
        REQUIRE(rest.find("cp (white's view)") != std::string::npos);
        REQUIRE(rest.find("cp (side to move)") != std::string::npos);
        return {std::stoi(rest), std::stoi(rest.substr(comma + 2))};
    }
    FAIL("no 'Final evaluation' line in:\n" << trace);
    return {};
}

const std::vector<std::string> EXTRA_FENS = {
    std::string(Position::START_FEN),
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3", // en passant possible
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 b - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/8/3PK3/8/8/8 b - - 0 60",
    "6k1/5p2/6p1/8/8/1r6/5PPP/3R2K1 w - - 0 40",
};

} // namespace

TEST_CASE("eval: the mirror helper builds legal mirrored FENs", "[eval]") {
    CHECK(mirror_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") ==
          "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1");
    CHECK(mirror_fen("4k3/8/8/8/8/8/8/4K2R w K - 3 9") == "4k2r/8/8/8/8/8/8/4K3 b k - 3 9");
    for (const auto& fen : EXTRA_FENS)
        CHECK(mirror_fen(mirror_fen(fen)) == fen);
}

TEST_CASE("eval: evaluation is colour symmetric", "[eval]") {
    auto fens = suite_fens();
    CHECK(fens.size() >= 18);
    fens.insert(fens.end(), EXTRA_FENS.begin(), EXTRA_FENS.end());
    for (const auto& fen : fens) {
        const std::string m = mirror_fen(fen);
        INFO(fen << "  <->  " << m);
        const Position a = from_fen(fen);
        const Position b = from_fen(m);
        // Scores are from the side to move's view, so the two sides see the same number.
        CHECK(evaluate(a) == evaluate(b));
        CHECK(game_phase(a) == game_phase(b));
    }
}

TEST_CASE("eval: material decides a lopsided position", "[eval]") {
    // White has an extra queen.
    const Position w = from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    const Position b = from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    CHECK(evaluate(w) > 500);
    CHECK(evaluate(b) < -500);
    CHECK(game_phase(from_fen(std::string(Position::START_FEN))) == PHASE_MAX);
    CHECK(game_phase(from_fen("8/8/4k3/8/3PK3/8/8/8 w - - 0 60")) == 0);
}

TEST_CASE("eval: engine.json's weights match terms.def exactly", "[eval]") {
    const auto& eval = builtin_config().at("eval");
    REQUIRE(eval.is_object());
    CHECK(int(eval.size()) == TERM_COUNT);
    for (int t = 0; t < TERM_COUNT; ++t) {
        INFO(TERM_NAMES[t]);
        REQUIRE(eval.contains(TERM_NAMES[t]));
        const auto& arr = eval.at(TERM_NAMES[t]);
        REQUIRE(arr.is_array());
        CHECK(int(arr.size()) == TERM_SIZES[t]);
        for (const auto& pair : arr) {
            CHECK(pair.is_array());
            CHECK(pair.size() == 2);
        }
    }
    EvalParams p;
    const auto err = EvalParams::from_json(eval, p);
    INFO((err ? *err : ""));
    CHECK_FALSE(err);
    // The loaded weights are the ones in the file, in terms.def order.
    for (int t = 0; t < TERM_COUNT; ++t)
        for (int i = 0; i < TERM_SIZES[t]; ++i) {
            const Weight w = p.weights[std::size_t(TERM_OFFSETS[t] + i)];
            CHECK(w.mg == eval.at(TERM_NAMES[t]).at(std::size_t(i)).at(0).get<int>());
            CHECK(w.eg == eval.at(TERM_NAMES[t]).at(std::size_t(i)).at(1).get<int>());
        }
    CHECK(p.to_json() == default_eval_params().to_json());
}

TEST_CASE("eval: from_json rejects any mismatch with terms.def", "[eval]") {
    const nlohmann::json good = builtin_config().at("eval");
    EvalParams sentinel;
    sentinel.weights[0] = Weight{12345, -12345};

    const auto rejects = [&](const nlohmann::json& j, const std::string& why) {
        INFO(why);
        EvalParams out = sentinel;
        const auto err = EvalParams::from_json(j, out);
        CHECK(err);
        // Nothing is half-loaded.
        CHECK(out.weights[0].mg == 12345);
        CHECK(out.weights[0].eg == -12345);
    };

    for (int t = 0; t < TERM_COUNT; ++t) {
        auto missing = good;
        missing.erase(TERM_NAMES[t]);
        rejects(missing, std::string("missing ") + TERM_NAMES[t]);

        auto longer = good;
        longer[TERM_NAMES[t]].push_back({1, 2});
        rejects(longer, std::string("one pair too many in ") + TERM_NAMES[t]);

        auto shorter = good;
        shorter[TERM_NAMES[t]].erase(shorter[TERM_NAMES[t]].size() - 1);
        rejects(shorter, std::string("one pair too few in ") + TERM_NAMES[t]);

        auto not_pair = good;
        not_pair[TERM_NAMES[t]][0] = {1, 2, 3};
        rejects(not_pair, std::string("a triple in ") + TERM_NAMES[t]);

        auto not_int = good;
        not_int[TERM_NAMES[t]][0][1] = 1.5;
        rejects(not_int, std::string("a fraction in ") + TERM_NAMES[t]);

        auto not_number = good;
        not_number[TERM_NAMES[t]][0][0] = "10";
        rejects(not_number, std::string("a string in ") + TERM_NAMES[t]);

        auto scalar = good;
        scalar[TERM_NAMES[t]] = 5;
        rejects(scalar, std::string("a scalar for ") + TERM_NAMES[t]);
    }
    auto unknown = good;
    unknown["no_such_term"] = nlohmann::json::array({{1, 2}});
    rejects(unknown, "an unknown term");
    rejects(nlohmann::json::array(), "an array instead of an object");
    rejects(nlohmann::json::object(), "an empty object");
}

TEST_CASE("eval: to_json round-trips", "[eval]") {
    const auto& params = default_eval_params();
    CHECK(params.to_json() == builtin_config().at("eval"));

    // Arbitrary weights survive the trip too.
    EvalParams p;
    for (int i = 0; i < WEIGHT_COUNT; ++i)
        p.weights[std::size_t(i)] = Weight{i * 7 - 50, 300 - i * 3};
    EvalParams back;
    REQUIRE_FALSE(EvalParams::from_json(p.to_json(), back));
    for (int i = 0; i < WEIGHT_COUNT; ++i) {
        CHECK(back.weights[std::size_t(i)].mg == p.weights[std::size_t(i)].mg);
        CHECK(back.weights[std::size_t(i)].eg == p.weights[std::size_t(i)].eg);
    }
    // And through text.
    EvalParams reparsed;
    REQUIRE_FALSE(EvalParams::from_json(nlohmann::json::parse(p.to_json().dump()), reparsed));
    CHECK(reparsed.to_json() == p.to_json());
}

TEST_CASE("eval: the trace adds up to evaluate()", "[eval]") {
    auto fens = suite_fens();
    fens.insert(fens.end(), EXTRA_FENS.begin(), EXTRA_FENS.end());
    int black_to_move = 0;
    for (const auto& fen : fens) {
        INFO(fen);
        const Position pos = from_fen(fen);
        const std::string trace = format_trace(pos);
        const auto [white_view, stm_view] = final_numbers(trace);
        const Score e = evaluate(pos);
        CHECK(stm_view == e);
        CHECK(white_view == (pos.side_to_move() == WHITE ? e : -e));
        for (int t = 0; t < TERM_COUNT; ++t)
            CHECK(trace.find(TERM_NAMES[t]) != std::string::npos);
        black_to_move += pos.side_to_move() == BLACK;

        // The trace's feature counts, weighted, tapered and scaled, give the same score.
        const EvalTrace tr = trace_evaluation(pos);
        CHECK(evaluate_trace(tr, default_eval_params()) == white_view);
        CHECK(tr.phase == game_phase(pos));
        CHECK(tr.side_to_move == pos.side_to_move());
    }
    CHECK(black_to_move > 0);

    // With other weights, the trace and evaluate() still agree.
    EvalParams doubled = default_eval_params();
    for (auto& wt : doubled.weights)
        wt = Weight{wt.mg * 2, wt.eg * 3};
    doubled.seal();
    const Position pos = from_fen(EXTRA_FENS[1]);
    CHECK(final_numbers(format_trace(pos, doubled)).second == evaluate(pos, doubled));
    CHECK(evaluate_trace(trace_evaluation(pos), doubled) ==
          (pos.side_to_move() == WHITE ? 1 : -1) * evaluate(pos, doubled));
}

namespace {

// Positions reached by random walks from the suite positions: a few thousand, reproducible.
std::vector<std::string> random_walk_fens(int count) {
    auto roots = suite_fens();
    roots.insert(roots.end(), EXTRA_FENS.begin(), EXTRA_FENS.end());
    std::vector<std::string> out;
    std::uint64_t rng = 0x2545F4914F6CDD1DULL;
    const auto next = [&rng] {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return rng;
    };
    for (std::size_t r = 0; int(out.size()) < count; r = (r + 1) % roots.size()) {
        Position pos = from_fen(roots[r]);
        for (int ply = 0; ply < 40 && int(out.size()) < count; ++ply) {
            MoveList moves;
            generate<GenType::ALL>(pos, moves);
            if (moves.empty()) break;
            pos.make_move(moves[std::size_t(next() % moves.size())]);
            out.push_back(pos.fen());
        }
    }
    return out;
}

} // namespace

TEST_CASE("eval: colour symmetry and trace agreement over thousands of positions", "[eval]") {
    const auto fens = random_walk_fens(3000);
    PawnCache cache;
    int checked = 0;
    for (const auto& fen : fens) {
        const Position a = from_fen(fen);
        const Position b = from_fen(mirror_fen(fen));
        const Score e = evaluate(a);
        if (e != evaluate(b) || e != evaluate(a, default_eval_params(), &cache) ||
            evaluate_trace(trace_evaluation(a), default_eval_params()) !=
                (a.side_to_move() == WHITE ? e : -e)) {
            INFO(fen);
            CHECK(e == evaluate(b));
            CHECK(e == evaluate(a, default_eval_params(), &cache));
            CHECK(evaluate_trace(trace_evaluation(a), default_eval_params()) ==
                  (a.side_to_move() == WHITE ? e : -e));
        }
        ++checked;
    }
    CHECK(checked == 3000);
}

TEST_CASE("eval: the pawn hash gives what a fresh evaluation gives, also after new weights",
          "[eval]") {
    PawnCache cache;
    const Position pos = from_fen(EXTRA_FENS[1]);
    const Score before = evaluate(pos, default_eval_params(), &cache);
    CHECK(before == evaluate(pos));
    EvalParams other = default_eval_params();
    other.weights[std::size_t(feature_index(Term::isolated_pawn))] = Weight{-200, -200};
    other.weights[std::size_t(feature_index(Term::supported_pawn, 2))] = Weight{90, 90};
    other.seal();
    CHECK(other.signature != default_eval_params().signature);
    // The cached entry of the old weights must not be reused.
    CHECK(evaluate(pos, other, &cache) == evaluate(pos, other));
    CHECK(evaluate(pos, other, &cache) != before);
    CHECK(evaluate(pos, default_eval_params(), &cache) == before);
}

TEST_CASE("eval: the material table gives what a fresh evaluation gives, also after new weights",
          "[eval]") {
    // Weights of its own for the imbalance products, so that the table's entries matter
    // whatever engine.json holds.
    EvalParams a = default_eval_params();
    EvalParams b = default_eval_params();
    for (int i = 0; i < TERM_SIZES[int(Term::imbalance)]; ++i) {
        a.weights[std::size_t(feature_index(Term::imbalance, i))] = Weight{7 * i - 70, 40 - 5 * i};
        b.weights[std::size_t(feature_index(Term::imbalance, i))] = Weight{60 - 3 * i, 4 * i - 30};
    }
    a.seal();
    b.seal();
    REQUIRE(a.signature != b.signature);
    PawnCache cache;
    int differ = 0;
    const auto fens = random_walk_fens(600);
    for (const auto& fen : fens) {
        const Position pos = from_fen(fen);
        INFO(fen);
        const Score fresh_a = evaluate(pos, a);
        const Score fresh_b = evaluate(pos, b);
        // In turn, so that each weight set meets the other's entries in the table.
        CHECK(evaluate(pos, a, &cache) == fresh_a);
        CHECK(evaluate(pos, b, &cache) == fresh_b);
        CHECK(evaluate(pos, a, &cache) == fresh_a);
        differ += fresh_a != fresh_b;
    }
    // The two weight sets do score the positions differently where the material is not the
    // same on both sides (where it is, the products of the two sides cancel): 268 of 600.
    CHECK(differ > 200);
}

TEST_CASE("eval: dead draws are 0 and drawish endings are scaled down", "[eval]") {
    for (const char* fen : {"8/8/4k3/8/8/3NK3/8/8 w - - 0 1", "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
                            "8/4b3/4k3/8/8/4K3/3B4/8 w - - 0 1", "8/8/4k3/8/8/4K3/8/8 w - - 0 1"}) {
        INFO(fen);
        CHECK(evaluate(from_fen(fen)) == 0);
    }
    // Bishops of opposite colours with a pawn more: far less than the pawn-up ending with
    // bishops of the same colour.
    const Position ocb = from_fen("8/4kp2/8/3b4/8/2B2PP1/5K2/8 w - - 0 1");
    const Position same = from_fen("8/4kp2/8/4b3/8/2B2PP1/5K2/8 w - - 0 1");
    CHECK(trace_evaluation(ocb).scale[WHITE] < SCALE_NORMAL);
    CHECK(trace_evaluation(same).scale[WHITE] == SCALE_NORMAL);
    // A rook against a bishop, no pawns: scaled down hard.
    CHECK(trace_evaluation(from_fen("8/8/4k3/8/3b4/8/3RK3/8 w - - 0 1")).scale[WHITE] <= 16);
    // Two knights cannot force mate.
    CHECK(trace_evaluation(from_fen("8/8/4k3/8/8/2NNK3/8/8 w - - 0 1")).scale[WHITE] == 0);
    // A minor piece and a pawn against a minor piece: drawn, whichever minors. The first is
    // from a match against Glaurung in which Horizon, with a knight and the e-pawn against a
    // bishop, scored its winning chances at more than a pawn and traded into that ending.
    for (const char* fen :
         {"8/8/8/4p3/2B5/5k2/3K1n2/8 w - - 0 71", "8/8/3b4/8/3N4/4p3/4K3/6k1 w - - 0 1",
          "8/2k5/8/2b5/8/3PB3/4K3/8 b - - 0 1", "8/2k5/8/2n5/8/3PB3/4K3/8 b - - 0 1"}) {
        INFO(fen);
        const EvalTrace t = trace_evaluation(from_fen(fen));
        CHECK(t.scale[WHITE] <= 16);
        CHECK(t.scale[BLACK] <= 16);
        CHECK(std::abs(evaluate(from_fen(fen))) < 50);
    }
    // With a second pawn the extra pawn is real again.
    CHECK(trace_evaluation(from_fen("8/2k5/8/2b5/8/3PBP2/4K3/8 b - - 0 1")).scale[WHITE] ==
          SCALE_NORMAL);
}

TEST_CASE("eval: a near-draw scale scales the middlegame part too", "[eval]") {
    // Two knights (phase 2 of 24): the scale is 0, so the score is 0, pieces and all.
    for (const char* fen :
         {"8/8/4k3/8/8/2NNK3/8/8 w - - 0 1", "8/8/3k4/8/8/2N3N1/6K1/8 b - - 0 1"}) {
        INFO(fen);
        REQUIRE(game_phase(from_fen(fen)) > 0);
        CHECK(trace_evaluation(from_fen(fen)).scale[WHITE] == 0);
        CHECK(evaluate(from_fen(fen)) == 0);
        CHECK(evaluate(from_fen(mirror_fen(fen))) == 0);
    }
    // Rook and minor piece against rook, no pawns (phase 5): games from such positions scored
    // 50 % in self-play, where the middlegame part alone had given the knight 50 cp or more.
    for (const char* fen :
         {"8/8/3k4/8/3NR3/8/2K5/4r3 w - - 0 1", "8/8/3k4/8/3BR3/8/2K5/4r3 w - - 0 1"}) {
        INFO(fen);
        REQUIRE(trace_evaluation(from_fen(fen)).scale[WHITE] <= SCALE_NEAR_DRAW);
        const Score score = evaluate(from_fen(fen));
        CHECK(score > 0);
        CHECK(score < 64);
        CHECK(evaluate(from_fen(mirror_fen(fen))) == score);
    }
}

TEST_CASE("eval: rook pawns and a bishop of the wrong colour draw against the cornered king",
          "[eval]") {
    // Drawn: the defending king at or next to the queening corner, the bishop (if any) on the
    // other colour than that square, all the pawns on one rook file. From a match against
    // Ethereal in which Horizon, a bishop and the h-pawn up, kept a score of +3.5 for 20 moves.
    for (const char* fen : {"7k/8/8/8/8/5B1P/8/6K1 w - - 0 1", "8/6k1/8/7P/8/5B1P/8/6K1 b - - 0 1",
                            "7k/8/8/8/8/7P/8/6K1 w - - 0 1", "1k6/8/8/8/8/P7/8/2B3K1 w - - 0 1"}) {
        INFO(fen);
        CHECK(trace_evaluation(from_fen(fen)).scale[WHITE] == 0);
        CHECK(std::abs(evaluate(from_fen(fen))) < 50);
        // The same with the colours swapped: Black's pawns, White's king in the corner.
        CHECK(trace_evaluation(from_fen(mirror_fen(fen))).scale[BLACK] == 0);
    }
    // The defender's own pawns change nothing (from the training data, where the search had
    // scored these around -3.5 for the bishop's side; Stockfish and the results say drawn).
    for (const char* fen : {"8/8/7p/b7/8/7k/7P/6K1 b - - 6 42", "8/8/3b4/7p/8/7k/7P/6K1 w - - 0 45",
                            "k7/8/K7/p7/P2B4/8/8/8 w - - 57 83"}) {
        INFO(fen);
        const Position pos = from_fen(fen);
        const Color bishop_side = pos.pieces(WHITE, BISHOP) ? WHITE : BLACK;
        CHECK(trace_evaluation(pos).scale[bishop_side] == 0);
        CHECK(std::abs(evaluate(pos)) < 50);
    }
    // Not drawn: the bishop of the queening square's colour, the king away from the corner,
    // pawns on two files, or a knight beside the bishop.
    for (const char* fen :
         {"7k/8/8/8/8/6BP/8/6K1 w - - 0 1", "8/8/8/8/4k3/7P/8/5BK1 w - - 0 1",
          "7k/8/8/8/8/P4B1P/8/6K1 w - - 0 1", "7k/8/8/8/8/4NB1P/8/6K1 w - - 0 1"}) {
        INFO(fen);
        CHECK(trace_evaluation(from_fen(fen)).scale[WHITE] == SCALE_NORMAL);
        CHECK(evaluate(from_fen(fen)) > 250);
    }
}

// --------------------------------------------------------------------------------------------
// Weights files

namespace {

// engine.json with the tempo weights changed: the start position evaluates differently.
nlohmann::json tempo_changed_config() {
    nlohmann::json j = builtin_config();
    j["eval"]["tempo"] = nlohmann::json::array({{60, 40}});
    return j;
}

// `j` is refused with a message naming `key`, and `out` keeps the sentinel weights.
void check_refused(const nlohmann::json& j, const std::string& key) {
    EvalWeights out;
    out.params.weights[0] = Weight{4321, -4321};
    out.wdl.a[3] = 777;
    const auto err = EvalWeights::from_json(j, out);
    INFO("key " << key << ": " << (err ? *err : std::string("accepted")));
    REQUIRE(err);
    CHECK(err->find(key) != std::string::npos);
    CHECK(out.params.weights[0].mg == 4321);
    CHECK(out.params.weights[0].eg == -4321);
    CHECK(out.wdl.a[3] == 777);
}

} // namespace

TEST_CASE("eval: the built-in weights are engine.json's", "[eval][weights]") {
    const EvalWeights& w = builtin_weights();
    CHECK(w.params.to_json() == builtin_config().at("eval"));
    CHECK(w.params.signature == default_eval_params().signature);
    REQUIRE(builtin_config().contains("wdl"));
    CHECK(w.wdl.to_json() == default_wdl_model().to_json());
    // engine.json itself passes the run-time checks of a weights file.
    EvalWeights again;
    REQUIRE_FALSE(EvalWeights::from_json(builtin_config(), again));
    CHECK(again.to_json() == w.to_json());
}

TEST_CASE("eval: a weights file needs only its eval section - wdl and engine are optional",
          "[eval][weights]") {
    nlohmann::json only_eval = nlohmann::json::object();
    only_eval["eval"] = tempo_changed_config()["eval"];
    EvalWeights w;
    REQUIRE_FALSE(EvalWeights::from_json(only_eval, w));
    CHECK(w.params(Term::tempo).mg == 60);
    CHECK(w.params(Term::tempo).eg == 40);
    CHECK(w.wdl.to_json() == default_wdl_model().to_json()); // the built-in model
    CHECK(w.params.signature != default_eval_params().signature);

    nlohmann::json with_wdl = only_eval;
    with_wdl["wdl"] = {{"a", {1.5, -2, 3, 140}}, {"b", {0, 0, 10, 70.25}}};
    REQUIRE_FALSE(EvalWeights::from_json(with_wdl, w));
    CHECK(w.wdl.a[0] == 1.5);
    CHECK(w.wdl.a[3] == 140);
    CHECK(w.wdl.b[3] == 70.25);
}

TEST_CASE("eval: a weights file with anything wrong is refused whole - naming the key",
          "[eval][weights]") {
    const nlohmann::json good = tempo_changed_config();
    check_refused(nlohmann::json::array(), "\"eval\"");
    check_refused(nlohmann::json("text"), "\"eval\"");

    auto no_eval = good;
    no_eval.erase("eval");
    check_refused(no_eval, "\"eval\"");

    auto unknown = good;
    unknown["evaluation"] = nlohmann::json::object();
    check_refused(unknown, "\"evaluation\"");

    auto engine_scalar = good;
    engine_scalar["engine"] = 3;
    check_refused(engine_scalar, "\"engine\"");

    auto missing_term = good;
    missing_term["eval"].erase("mobility_rook");
    check_refused(missing_term, "mobility_rook");

    auto short_term = good;
    short_term["eval"]["psqt_king"].erase(0);
    check_refused(short_term, "psqt_king");

    auto not_pair = good;
    not_pair["eval"]["material"][2] = 330;
    check_refused(not_pair, "material");

    for (const nlohmann::json& bad :
         {nlohmann::json("5"), nlohmann::json(nullptr), nlohmann::json(true), nlohmann::json(2.5),
          nlohmann::json(4294967301LL), nlohmann::json(-4294967301LL)}) {
        auto non_number = good;
        non_number["eval"]["bishop_pair"][0][1] = bad;
        check_refused(non_number, "bishop_pair");
    }

    auto huge_linear = good;
    huge_linear["eval"]["space"][0][0] = EvalWeights::LINEAR_LIMIT + 1;
    check_refused(huge_linear, "space");
    auto huge_danger = good;
    huge_danger["eval"]["safe_check"][3][1] = -EvalWeights::KING_DANGER_LIMIT - 1;
    check_refused(huge_danger, "safe_check");

    auto wdl_scalar = good;
    wdl_scalar["wdl"] = 150;
    check_refused(wdl_scalar, "\"wdl\"");
    auto wdl_short = good;
    wdl_short["wdl"]["b"] = {0, 0, 80};
    check_refused(wdl_short, "\"b\"");
    auto wdl_string = good;
    wdl_string["wdl"]["a"][1] = "0";
    check_refused(wdl_string, "\"a\"");
}

TEST_CASE("eval: weights files load from disk and refuse what cannot be read", "[eval][weights]") {
    test::TempDir dir;
    EvalWeights sentinel;
    sentinel.params.weights[5] = Weight{999, 999};

    // Saved and loaded back unchanged.
    EvalWeights changed;
    REQUIRE_FALSE(EvalWeights::from_json(tempo_changed_config(), changed));
    const std::string saved = dir.path("saved.json");
    REQUIRE_FALSE(changed.save(saved));
    EvalWeights loaded = sentinel;
    const auto ok = EvalWeights::load(saved, loaded);
    INFO((ok ? *ok : ""));
    REQUIRE_FALSE(ok);
    CHECK(loaded.to_json() == changed.to_json());
    CHECK(loaded.params.signature == changed.params.signature);
    const Position start = from_fen(std::string(Position::START_FEN));
    CHECK(evaluate(start, loaded.params) != evaluate(start));

    // Every refusal names the file and leaves the weights as they were.
    const auto refused = [&](const std::string& path, const std::string& why) {
        EvalWeights out = sentinel;
        const auto err = EvalWeights::load(path, out);
        INFO(path << ": " << (err ? *err : std::string("accepted")));
        REQUIRE(err);
        CHECK(err->find(path) != std::string::npos);
        CHECK(err->find(why) != std::string::npos);
        CHECK(out.params.weights[5].mg == 999);
    };
    refused(dir.path("no-such-file.json"), "no such file");
    refused(dir.path(""), "not a regular file");
    refused(dir.write("empty.json", ""), "not valid JSON");
    refused(dir.write("broken.json", "{\"eval\": {\"material\": [[1, 2],]}"), "line 1");
    refused(dir.write("array.json", "[1, 2, 3]"), "\"eval\"");
    nlohmann::json missing = tempo_changed_config();
    missing["eval"].erase("tempo");
    refused(dir.write("missing.json", missing.dump()), "\"tempo\"");

    EvalWeights out = sentinel;
    const auto none = EvalWeights::load("", out);
    CHECK(none);
}

namespace {

// engine.json's text with `text` inserted right after the first occurrence of `after`.
std::string engine_json_with(const std::string& after, const std::string& text) {
    std::string s = test::read_text_file(std::string(HORIZON_SOURCE_DIR) + "/engine.json");
    const auto at = s.find(after);
    REQUIRE(at != std::string::npos);
    return s.insert(at + after.size(), text);
}

// The text is refused by parse_config (both forms) and by EvalWeights::from_text, each time
// with a message holding every one of `names`; the outputs stay as they were.
void check_text_refused(const std::string& text, const std::vector<std::string>& names) {
    nlohmann::json plain = {{"kept", 1}};
    nlohmann::ordered_json ordered = {{"kept", 2}};
    EvalWeights weights;
    weights.params.weights[0] = Weight{4321, -4321};
    const auto plain_err = parse_config(text, plain);
    const auto ordered_err = parse_config(text, ordered);
    const auto weights_err = EvalWeights::from_text(text, weights);
    for (const auto* err : {&plain_err, &ordered_err, &weights_err}) {
        INFO(err->value_or("accepted"));
        REQUIRE(*err);
        for (const auto& name : names)
            CHECK((*err)->find(name) != std::string::npos);
        CHECK((*err)->find('\n') == std::string::npos);
    }
    CHECK(*plain_err == *ordered_err);
    CHECK(plain == nlohmann::json{{"kept", 1}});
    CHECK(ordered == nlohmann::ordered_json{{"kept", 2}});
    CHECK(weights.params.weights[0].mg == 4321);
}

} // namespace

TEST_CASE("eval: parse_config reads engine.json as the JSON parser does", "[eval][weights]") {
    const std::string text = test::read_text_file(std::string(HORIZON_SOURCE_DIR) + "/engine.json");
    nlohmann::json plain;
    REQUIRE_FALSE(parse_config(text, plain));
    CHECK(plain == nlohmann::json::parse(text));
    CHECK(plain == builtin_config());
    nlohmann::ordered_json ordered;
    REQUIRE_FALSE(parse_config(text, ordered));
    CHECK(ordered == builtin_config_ordered());
    EvalWeights w;
    REQUIRE_FALSE(EvalWeights::from_text(text, w));
    CHECK(w.to_json() == builtin_weights().to_json());
    // The same key in different objects is no duplicate; arrays of objects are walked.
    REQUIRE_FALSE(
        parse_config(R"({"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 2}]})", plain));
    CHECK(plain.at("c").at(1).at("x") == 2);
}

TEST_CASE("eval: a key twice in one object is refused at any depth, naming it", "[eval][weights]") {
    // Top level.
    check_text_refused(engine_json_with("{", "\n  \"eval\": {},"),
                       {"duplicate key \"eval\"", "top level"});
    check_text_refused(
        engine_json_with("{", "\n  \"wdl\": {\"a\": [0, 0, 0, 1], \"b\": [0, 0, 0, 1]},"),
        {"duplicate key \"wdl\"", "top level"});
    // In a section.
    check_text_refused(engine_json_with("\"eval\": {", "\n    \"tempo\": [[60, 40]],"),
                       {"duplicate key \"tempo\" in \"eval\""});
    check_text_refused(engine_json_with("\"wdl\": {", "\"b\": [0, 0, 0, 80], "),
                       {"duplicate key \"b\" in \"wdl\""});
    check_text_refused(engine_json_with("\"engine\": {", "\"author\": \"x\", "),
                       {"duplicate key \"author\" in \"engine\""});
    // Deeper, and inside arrays.
    check_text_refused(R"({"eval": {"x": [[1, 2], {"k": 1, "j": {"m": 1, "m": 2}}]}})",
                       {"duplicate key \"m\" in \"eval\".\"x\"[1].\"j\""});
    check_text_refused(R"([{"k": 1}, {"k": 1, "k": 1}])", {"duplicate key \"k\" in [1]"});
    // Keys are shown escaped: no control character reaches a message.
    check_text_refused("{\"a\\nb\": 1, \"a\\nb\": 2}", {"duplicate key \"a\\nb\""});
}

TEST_CASE("eval: numbers that do not fit are refused, naming the key", "[eval][weights]") {
    // The line of "wdl" in the shipped file, wherever the weights above it end.
    const std::string shipped =
        test::read_text_file(std::string(HORIZON_SOURCE_DIR) + "/engine.json");
    const auto wdl_line =
        1 + std::count(shipped.begin(), shipped.begin() + long(shipped.find("\"wdl\"")), '\n');
    check_text_refused(
        engine_json_with("\"wdl\": {\"a\": [", "1e400, "),
        {"1e400", "too large", "\"wdl\".\"a\"[0]", "line " + std::to_string(wdl_line) + ","});
    // After the shipped file's first "a" coefficient, whatever it is.
    const auto first_a = shipped.find("\"wdl\": {\"a\": [");
    REQUIRE(first_a != std::string::npos);
    const auto comma = shipped.find(", ", first_a);
    REQUIRE(comma != std::string::npos);
    check_text_refused(engine_json_with(shipped.substr(first_a, comma + 2 - first_a), "-1e400, "),
                       {"-1e400", "\"wdl\".\"a\"[1]"});
    check_text_refused(engine_json_with("\"tempo\": [[", "1e999, "), {"\"eval\".\"tempo\"[0][0]"});
    // Integers too large for a weight are refused by the "eval" reader, naming the term.
    const std::pair<const char*, const char*> bigs[] = {
        {"2147483648", "2147483648 is out of range"},
        {"-2147483649", "-2147483649 is out of range"},
        {"18446744073709551616", "is out of range"},
        {"99999999999999999999999", "is out of range"},
        {"1e30", "is out of range"},
        {"12.5", "12.5 is not an integer"}};
    for (const auto& [big, why] : bigs) {
        INFO(big);
        // "tempo": [[<big>, 0]] in place of its one pair.
        std::string text = test::read_text_file(std::string(HORIZON_SOURCE_DIR) + "/engine.json");
        const auto at = text.find("\"tempo\": [[");
        REQUIRE(at != std::string::npos);
        const auto end = text.find("]]", at);
        text.replace(at, end + 2 - at, "\"tempo\": [[" + std::string(big) + ", 0]]");
        EvalWeights w;
        const auto err = EvalWeights::from_text(text, w);
        INFO(err.value_or("accepted"));
        REQUIRE(err);
        CHECK(err->find("\"tempo\" entry 0") != std::string::npos);
        CHECK(err->find(why) != std::string::npos);
    }
}

TEST_CASE("eval: text that is not JSON, or nests too deep, is refused with where",
          "[eval][weights]") {
    check_text_refused("", {"not valid JSON"});
    check_text_refused("{\"eval\": {\"tempo\": [[1, 2]]", {"not valid JSON", "line 1"});
    check_text_refused("{\"eval\": {\"tempo\": [[1, 2],]}}",
                       {"not valid JSON", "\"eval\".\"tempo\"[1]"});
    check_text_refused("{} {}", {"not valid JSON"});
    check_text_refused("{\"eval\": {}} // comment", {"not valid JSON"});
    std::string deep = "{\"engine\": ";
    for (int i = 0; i < MAX_CONFIG_DEPTH; ++i)
        deep += "[";
    for (int i = 0; i < MAX_CONFIG_DEPTH; ++i)
        deep += "]";
    check_text_refused(deep + "}", {"nested more than", "\"engine\""});
    // Just within the limit: parsed (the weights reader then has its own say).
    deep = "{\"engine\": ";
    for (int i = 1; i < MAX_CONFIG_DEPTH; ++i)
        deep += "[";
    for (int i = 1; i < MAX_CONFIG_DEPTH; ++i)
        deep += "]";
    nlohmann::json j;
    CHECK_FALSE(parse_config(deep + "}", j));
}

TEST_CASE("eval: quoted_key escapes and shortens", "[eval][weights]") {
    CHECK(quoted_key("tempo") == "\"tempo\"");
    CHECK(quoted_key("a\nb\x1b") == "\"a\\nb\\u001b\"");
    const std::string shown = quoted_key(std::string(500, 'k'));
    CHECK(shown.size() < 80);
    CHECK(shown.ends_with("...\""));
    CHECK(quoted_key("\xff") == "\"\xef\xbf\xbd\""); // not UTF-8: replaced, not thrown
}

TEST_CASE("eval: EvalFile refuses a duplicate key, an overflowing number or a WDL of 1e308",
          "[eval][weights][uci]") {
    test::TempDir dir;
    const std::string good = dir.write("good.json", tempo_changed_config().dump());
    Engine engine;
    std::istringstream in;
    std::ostringstream out;
    UciLoop loop(in, out, engine);
    REQUIRE_FALSE(loop.set_option("EvalFile", good));
    const auto signature = engine.weights().params.signature;
    const auto wdl = engine.weights().wdl.to_json();
    REQUIRE(signature != default_eval_params().signature);

    nlohmann::json huge_wdl = tempo_changed_config();
    huge_wdl["wdl"]["a"][3] = 1e308;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {dir.write("dup-top.json", engine_json_with("{", "\n  \"eval\": {},")),
         "duplicate key \"eval\""},
        {dir.write("dup-nested.json", engine_json_with("\"eval\": {", "\"tempo\": [[9, 9]], ")),
         "duplicate key \"tempo\" in \"eval\""},
        {dir.write("huge-wdl.json", huge_wdl.dump()), "\"a\"[3]"},
        {dir.write("1e400.json", engine_json_with("\"wdl\": {\"a\": [", "1e400, ")),
         "\"wdl\".\"a\"[0]"},
    };
    for (const auto& [file, key] : cases) {
        INFO(file);
        const auto mark = out.str().size();
        CHECK(loop.handle("setoption name EvalFile value " + file));
        const std::string said = out.str().substr(mark);
        INFO(said);
        CHECK(said.rfind("info string option EvalFile: ", 0) == 0);
        CHECK(said.find(file) != std::string::npos);
        CHECK(said.find(key) != std::string::npos);
        CHECK(std::count(said.begin(), said.end(), '\n') == 1);
        CHECK(loop.option_value("EvalFile") == good);
        CHECK(engine.weights().params.signature == signature);
        CHECK(engine.weights().wdl.to_json() == wdl);
    }
    // The model that was refused would have made every score a certain draw.
    WdlModel raw;
    for (std::size_t i = 0; i < 4; ++i) {
        raw.a[i] = huge_wdl["wdl"]["a"][i].get<double>();
        raw.b[i] = huge_wdl["wdl"]["b"][i].get<double>();
    }
    CHECK(wdl_from_score(raw, 1667, 78).draw == 1000);
    CHECK(wdl_from_score(engine.weights().wdl, 1667, 78).win > 900);
}

TEST_CASE("eval: the threat, pawn and king terms count what they name, in both colours", "[eval]") {
    struct Case {
        const char* fen;
        Term term;
        int index;
        int white, black;
    };
    const Case cases[] = {
        // The king takes the undefended knight on d3.
        {"4k3/8/8/8/8/3n4/4K3/8 w - - 0 1", Term::threat_by_king, 0, 1, 0},
        // a2 is isolated with no black pawn in front; b5 is isolated with no white pawn in
        // front; neither is passed.
        {"4k3/8/8/1p6/8/8/P7/4K3 w - - 0 1", Term::weak_unopposed, 0, 1, 1},
        // e1 to a2: four squares; black has no pawns (index 0).
        {"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", Term::king_pawn_distance, 4, 1, 0},
        {"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", Term::king_pawn_distance, 0, 0, 1},
        // Both kings stand on files c-f, and the only pawn is on a2.
        {"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", Term::pawnless_flank, 0, 1, 1},
        {"4k3/8/8/8/8/8/P7/1K6 w - - 0 1", Term::pawnless_flank, 0, 0, 1},
        {"3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", Term::rook_on_queen_file, 0, 1, 0},
        // Per knight (rook), per own pawn: 2 x 8 each side at the start.
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Term::knight_pawns, 0, 16, 16},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Term::rook_pawns, 0, 16, 16},
        // Imbalance: two white pawns, a knight and a rook against a queen. Own pairs: knight
        // with rook (2), pawn with pawn (11: 2 x 2), and black's queen with itself (10); with
        // the enemy's: white's pawns (15), knight (18) and rook (21) by black's queen.
        {"4k2q/8/8/8/8/8/PP6/RN2K3 w - - 0 1", Term::imbalance, 2, 1, 0},
        {"4k2q/8/8/8/8/8/PP6/RN2K3 w - - 0 1", Term::imbalance, 11, 4, 0},
        {"4k2q/8/8/8/8/8/PP6/RN2K3 w - - 0 1", Term::imbalance, 10, 0, 1},
        {"4k2q/8/8/8/8/8/PP6/RN2K3 w - - 0 1", Term::imbalance, 15, 2, 0},
        {"4k2q/8/8/8/8/8/PP6/RN2K3 w - - 0 1", Term::imbalance, 18, 1, 0},
        {"4k2q/8/8/8/8/8/PP6/RN2K3 w - - 0 1", Term::imbalance, 21, 1, 0},
        {"4k2q/8/8/8/8/8/PP6/RN2K3 w - - 0 1", Term::imbalance, 12, 0, 0},
        // b2 sees d4 and e5; a pawn on d4 would block it.
        {"4k3/8/8/8/8/8/1B6/4K3 w - - 0 1", Term::bishop_long_diagonal, 0, 1, 0},
        {"4k3/8/8/8/3P4/8/1B6/4K3 w - - 0 1", Term::bishop_long_diagonal, 0, 0, 0},
        // c3 reaches d5, defended by e4, where no black pawn can come to attack it.
        {"4k3/8/8/8/4P3/2N5/8/4K3 w - - 0 1", Term::outpost_reachable, 0, 1, 0},
        {"4k3/2p5/8/8/4P3/2N5/8/4K3 w - - 0 1", Term::outpost_reachable, 0, 0, 0},
        // From c3 the knight would attack the queen on d5.
        {"4k3/8/8/3q4/8/8/8/1N2K3 w - - 0 1", Term::knight_on_queen, 0, 1, 0},
        // d1 (rook c1 and king e1 attack it) would put a rook on the queen's file.
        {"4k3/8/8/3q4/8/8/8/R1R1K3 w - - 0 1", Term::slider_on_queen, 0, 1, 0},
        // d2-d7: attacked by both rooks, strongly held by neither side.
        {"3r3k/8/8/8/8/8/8/3R3K w - - 0 1", Term::restricted, 0, 6, 6},
        // A passed pawn on the a-file (index 0: the edge).
        {"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", Term::passed_file, 0, 1, 0},
        {"4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", Term::passed_file, 3, 1, 0},
        // A rook behind a passed pawn: its own (index 0), the other side's (index 1).
        {"4k3/8/8/8/P7/8/8/R3K3 w - - 0 1", Term::rook_behind_passer, 0, 1, 0},
        {"4k3/8/8/8/P7/8/8/r3K3 w - - 0 1", Term::rook_behind_passer, 1, 1, 0},
        {"4k3/8/8/8/P7/8/N7/R3K3 w - - 0 1", Term::rook_behind_passer, 0, 0, 0},
        // Knight a1 to king e1: four squares.
        {"4k3/8/8/8/8/8/8/N3K3 w - - 0 1", Term::minor_king_distance, 0, 4, 0},
        // Each of the two rooks sees the other.
        {"4k3/8/8/8/8/8/R7/R3K3 w - - 0 1", Term::doubled_rooks, 0, 2, 0},
        // The queen hits g4-g8 of the black king's flank (files e-h, ranks 4-8).
        {"7k/8/8/8/8/8/8/4K1Q1 w - - 0 1", Term::king_flank_attacks, 0, 5, 0},
        // Against the bare king on h8: three files and three ranks from the centre; the
        // kings (e1, h8) seven apart. On d5 it is in the centre, two squares from e3.
        {"7k/8/8/8/8/8/8/R3K3 w - - 0 1", Term::mop_up_edge, 0, 6, 0},
        {"7k/8/8/8/8/8/8/R3K3 w - - 0 1", Term::mop_up_kings, 0, 0, 0},
        {"8/8/8/3k4/8/4K3/8/R7 w - - 0 1", Term::mop_up_edge, 0, 0, 0},
        {"8/8/8/3k4/8/4K3/8/R7 w - - 0 1", Term::mop_up_kings, 0, 5, 0},
        {"8/8/8/8/8/8/6k1/R3K3 w - - 0 1", Term::mop_up_edge, 0, 4, 0},
        // Not while the lone side keeps a pawn, nor without the material to mate.
        {"7k/7p/8/8/8/8/8/R3K3 w - - 0 1", Term::mop_up_edge, 0, 0, 0},
        {"7k/8/8/8/8/8/8/2B1KB2 w - - 0 1", Term::mop_up_edge, 0, 6, 0},
        {"7k/8/8/8/8/8/8/1B2KB2 w - - 0 1", Term::mop_up_edge, 0, 0, 0},
        {"7k/8/8/8/8/8/8/4KN2 w - - 0 1", Term::mop_up_edge, 0, 0, 0},
        // Against a lone piece: with a queen against a rook or two rooks against one, not with
        // a rook against a minor piece (a draw) nor against a pawn.
        {"7k/8/8/8/8/8/r7/1Q2K3 w - - 0 1", Term::mop_up_edge, 0, 6, 0},
        {"7k/8/8/8/8/8/r7/1Q2K3 w - - 0 1", Term::mop_up_kings, 0, 0, 0},
        {"8/8/8/3k4/8/4K3/r7/RR6 w - - 0 1", Term::mop_up_kings, 0, 5, 0},
        {"7k/8/8/8/8/8/b7/R3K3 w - - 0 1", Term::mop_up_edge, 0, 0, 0},
        {"7k/8/8/8/8/8/p7/1Q2K3 w - - 0 1", Term::mop_up_edge, 0, 0, 0},
        {"7k/8/8/8/8/8/rp6/1Q2K3 w - - 0 1", Term::mop_up_edge, 0, 0, 0},
        // Bishop and knight: the dark bishop (c1) mates in a1 or h8, the light one (f1) in a8
        // or h1. The king on g8 is one step from h8 and six from a8.
        {"6k1/8/8/8/8/8/8/2B1KN2 w - - 0 1", Term::mop_up_corner, 0, 6, 0},
        {"6k1/8/8/8/8/8/8/4KBN1 w - - 0 1", Term::mop_up_corner, 0, 1, 0},
        {"6k1/8/8/8/8/8/8/R1B1KN2 w - - 0 1", Term::mop_up_corner, 0, 0, 0},
        {"7k/8/8/8/8/8/8/2B1KB2 w - - 0 1", Term::mop_up_corner, 0, 0, 0}, // any corner mates
        // A pawn on rank 5 (index 0) or 6 (index 1) with an enemy pawn right in front; black's
        // pawn in front of it is on its own rank 3 or 2.
        {"4k3/8/4p3/4P3/8/8/8/4K3 w - - 0 1", Term::blocked_pawn, 0, 1, 0},
        {"4k3/4p3/4P3/8/8/8/8/4K3 w - - 0 1", Term::blocked_pawn, 1, 1, 0},
        {"4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", Term::blocked_pawn, 0, 0, 0},
        // e4 has an own pawn behind it (e3) and no neighbours: doubled and isolated.
        {"4k3/8/8/8/4P3/4P3/8/4K3 w - - 0 1", Term::doubled_isolated, 0, 1, 0},
        {"4k3/8/8/8/4P3/4PP2/8/4K3 w - - 0 1", Term::doubled_isolated, 0, 0, 0},
        // The rook in the corner on the king's side, one safe square (g1): with the right to
        // castle still there (index 0) and without it (index 1).
        {"4k3/8/8/8/8/8/6PP/4KBNR w K - 0 1", Term::trapped_rook, 0, 1, 0},
        {"4k3/8/8/8/8/8/5PPP/5K1R w - - 0 1", Term::trapped_rook, 1, 1, 0},
        {"4k3/8/8/8/8/8/5PP1/5K1R w - - 0 1", Term::trapped_rook, 1, 0, 0}, // h-file open
        // The knight on d4 alone between the queen on d1 and the rook on d8.
        {"3rk3/8/8/8/3N4/8/8/3QK3 w - - 0 1", Term::weak_queen, 0, 1, 0},
        {"3rk3/8/8/3n4/3N4/8/8/3QK3 w - - 0 1", Term::weak_queen, 0, 0, 0},
        // A queen on d6 that no black pawn can ever attack; one on c7 could (it attacks d6).
        {"4k3/8/3Q4/8/8/8/8/4K3 w - - 0 1", Term::queen_infiltration, 0, 1, 0},
        {"4k3/2p5/3Q4/8/8/8/8/4K3 w - - 0 1", Term::queen_infiltration, 0, 0, 0},
        // The rook on d1 checks from e1 (safe) and from d8 (guarded by the king: unsafe).
        {"3rk3/8/8/8/8/8/8/K2R4 w - - 0 1", Term::unsafe_check, 0, 1, 0},
        // The knight on e7 is pinned to its king by the rook on e1.
        {"4k3/4n3/8/8/8/8/8/K3R3 w - - 0 1", Term::king_blockers, 0, 1, 0},
        // Black's knight on g7 stands by its king, which the rook on g1 attacks.
        {"7k/6n1/8/8/8/8/8/K5R1 w - - 0 1", Term::knight_defender, 0, 1, 0},
    };
    for (const auto& c : cases) {
        INFO(c.fen << " " << TERM_NAMES[int(c.term)] << "[" << c.index << "]");
        const int f = feature_index(c.term, c.index);
        const EvalTrace t = trace_evaluation(from_fen(c.fen));
        CHECK(t.counts[WHITE][f] == c.white);
        CHECK(t.counts[BLACK][f] == c.black);
        // Colours swapped, the counts swap.
        const EvalTrace m = trace_evaluation(from_fen(mirror_fen(c.fen)));
        CHECK(m.counts[WHITE][f] == c.black);
        CHECK(m.counts[BLACK][f] == c.white);
    }
}

TEST_CASE("eval: complexity counts what it names, the same for both colours", "[eval]") {
    struct Case {
        const char* fen;
        std::array<int, 7> counts; // bias, passers, pawns, outflanking, both wings, pawns only,
                                   // kings in the enemy half
    };
    const Case cases[] = {
        // Kings on one file, seven ranks apart: outflanking 0 - 7.
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {1, 0, 16, -7, 1, 0, 0}},
        {"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", {1, 1, 1, -4, 0, 1, 0}},
        // a2 and h7 passed, one pawn on each wing; the kings on b6 (white, in black's half)
        // and g3 (black, in white's half): files 5 apart, ranks 3.
        {"8/7p/1K6/8/8/6k1/P7/8 w - - 0 1", {1, 2, 2, 2, 1, 1, 2}},
        {"8/7p/1K6/8/8/6k1/P7/3R4 w - - 0 1", {1, 2, 2, 2, 1, 0, 2}},
    };
    for (const auto& c : cases) {
        for (const std::string& fen : {std::string(c.fen), mirror_fen(c.fen)}) {
            INFO(fen);
            const EvalTrace t = trace_evaluation(from_fen(fen));
            for (int i = 0; i < 7; ++i) {
                INFO("complexity[" << i << "]");
                CHECK(t.counts[WHITE][feature_index(Term::complexity, i)] == c.counts[i]);
                CHECK(t.counts[BLACK][feature_index(Term::complexity, i)] == 0);
            }
        }
    }
}

TEST_CASE("eval: complexity moves the endgame part towards 0 or away, never past it", "[eval]") {
    CHECK(with_complexity(100, 30) == 130);
    CHECK(with_complexity(-100, 30) == -130);
    CHECK(with_complexity(100, -30) == 70);
    CHECK(with_complexity(-100, -30) == -70);
    CHECK(with_complexity(100, -300) == 0);
    CHECK(with_complexity(-100, -300) == 0);
    CHECK(with_complexity(0, 50) == 0);

    // In a pawn ending the complexity weights decide: a large negative bias draws it, a
    // positive one makes it more won; only the endgame weights count.
    const Position pos = from_fen("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1");
    EvalParams params = default_eval_params();
    for (int i = 0; i < 7; ++i)
        params.weights[std::size_t(feature_index(Term::complexity, i))] = Weight{0, 0};
    params.seal();
    const int plain = evaluate(pos, params);
    REQUIRE(plain > 0);
    params.weights[std::size_t(feature_index(Term::complexity, 0))] = Weight{0, -10000};
    params.seal();
    CHECK(evaluate(pos, params) == 0);
    params.weights[std::size_t(feature_index(Term::complexity, 0))] = Weight{-10000, 40};
    params.seal();
    CHECK(evaluate(pos, params) == plain + 40);
}
