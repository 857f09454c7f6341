// Search through Engine::search_sync, the bench signature, and the transposition table.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/position.hpp"
#include "engine/bench.hpp"
#include "engine/engine.hpp"
#include "movegen/movegen.hpp"
#include "notation/uci_move.hpp"
#include "search/history.hpp"
#include "search/movepick.hpp"
#include "search/search.hpp"
#include "search/tt.hpp"

#include "support.hpp"

using namespace horizon;
using namespace horizon::test;

namespace {

struct Searched {
    SearchResult result;
    std::vector<SearchReport> reports;
};

Searched search(Engine& engine, const std::string& fen, int depth, std::uint64_t nodes = 0) {
    INFO(fen);
    REQUIRE_FALSE(engine.set_position(fen, {}));
    SearchLimits limits;
    limits.depth = depth;
    limits.nodes = nodes;
    Searched s;
    s.result = engine.search_sync(limits, [&](const SearchReport& r) { s.reports.push_back(r); });
    return s;
}

std::string uci(const Engine& engine, Move m) { return move_to_uci(engine.position(), m); }

// The move a fresh engine chooses in `fen` within `nodes` nodes (no depth limit).
std::string best_within(const std::string& fen, std::uint64_t nodes) {
    Engine engine;
    const auto s = search(engine, fen, MAX_PLY - 10, nodes);
    return uci(engine, s.result.best);
}

// Gives `engine` the weights of tuning/NAME: those a search test was measured with, so that
// later weights do not move the test.
void use_weights(Engine& engine, const std::string& name) {
    EvalWeights weights;
    REQUIRE_FALSE(EvalWeights::load(std::string(HORIZON_SOURCE_DIR) + "/tuning/" + name, weights));
    engine.set_weights(weights);
}

} // namespace

TEST_CASE("uci_score: centipawns and mate distances in moves", "[search]") {
    CHECK(uci_score(0) == "cp 0");
    CHECK(uci_score(123) == "cp 123");
    CHECK(uci_score(-45) == "cp -45");
    CHECK(uci_score(mate_in(1)) == "mate 1"); // we mate with our next move
    CHECK(uci_score(mate_in(3)) == "mate 2");
    CHECK(uci_score(mate_in(5)) == "mate 3");
    CHECK(uci_score(mated_in(0)) == "mate 0");  // mated now
    CHECK(uci_score(mated_in(2)) == "mate -1"); // mated after our move and theirs
    CHECK(uci_score(mated_in(4)) == "mate -2");
    // The largest non-mate scores are still centipawns.
    CHECK(uci_score(SCORE_MATE_IN_MAX_PLY - 1).rfind("cp ", 0) == 0);
    CHECK(uci_score(-SCORE_MATE_IN_MAX_PLY + 1).rfind("cp ", 0) == 0);
}

TEST_CASE("search finds a mate in one", "[search]") {
    Engine engine;
    const auto s = search(engine, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 5);
    CHECK(uci(engine, s.result.best) == "a1a8");
    CHECK(uci_score(s.result.score) == "mate 1");
    CHECK(s.result.score == mate_in(1));
}

TEST_CASE("search finds a mate in two", "[search]") {
    Engine engine;
    const std::string fen = "7k/8/8/8/8/8/1R6/R6K w - - 0 1";
    Position root;
    REQUIRE_FALSE(root.set_fen(fen));
    REQUIRE_FALSE(mates_in_one(root));
    const auto s = search(engine, fen, 6);
    CHECK(uci_score(s.result.score) == "mate 2");
    CHECK(forces_mate_in_two(root, s.result.best));
}

TEST_CASE("search mates rather than stalemates", "[search]") {
    Engine engine;
    // Queen and king against king: Qc7?? stalemates; Qc8# mates.
    const std::string fen = "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1";
    const auto s = search(engine, fen, 5);
    Position after = engine.position();
    after.make_move(s.result.best);
    CHECK(is_checkmate(after));
    CHECK(uci_score(s.result.score) == "mate 1");
}

TEST_CASE("search holds the wrong-bishop draw: the lone king's moves are not pruned", "[search]") {
    // King, light bishop and h-pawn against the king in the dark corner h8: a draw. With
    // move-count pruning in the defender's king-only nodes its one holding move (Kh8 after
    // h7) went unsearched, and the search reported +4.5 to +10.6 at depths 15 to 20.
    Engine engine;
    const auto s = search(engine, "7k/8/6K1/8/8/5B1P/8/8 w - - 0 1", 18);
    REQUIRE(s.reports.size() == 18);
    for (const auto& r : s.reports) {
        INFO("depth " << r.depth);
        CHECK(r.score > -150);
        CHECK(r.score < 150);
    }
}

TEST_CASE("search sees the quiet mate a null move threatens", "[search]") {
    // Win at Chess 1: Qg6 threatens Qh7 mate, which no capture reaches. A null move that
    // drops straight into quiescence sees the threat only if quiescence tries quiet checks
    // there; without them Qg6 was found at depth 19. Measured with round 6's weights, which
    // the test keeps. Since the mate-threat guard on reverse futility and the null move (next
    // test) this search finds Qg6 at depth 10 with quiet checks in quiescence left out as
    // well: the test now fails only where both rules are gone.
    Engine engine;
    use_weights(engine, "round6.json");
    const auto s =
        search(engine, "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 10);
    CHECK(uci(engine, s.result.best) == "g3g6");
}

TEST_CASE("search sees a mate that only quiet checks below a null move reveal", "[search]") {
    // Win at Chess 163: Qg2+ gives the queen and mates. With quiet checks tried in the
    // quiescence search straight below a null move, it is found at depth 15 and scored as a
    // mate at depth 16 (219,000 nodes); with them left out, not before depth 19 (955,000). The
    // mate-threat guard does not cover this position, so this test pins the rule alone, where
    // the WAC.001 test above pins it only together with the guard. Measured with round 7's
    // weights, which the test keeps.
    Engine engine;
    use_weights(engine, "round7.json");
    const auto s = search(engine, "5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - 0 1", 16);
    CHECK(uci(engine, s.result.best) == "f3g2");
    CHECK(s.result.score >= SCORE_MATE_IN_MAX_PLY);
}

TEST_CASE("mate_threat_beside_king: a supported queen or rook check beside the king that mates",
          "[search]") {
    struct Case {
        const char* fen;
        bool threat;
        const char* why;
    };
    const Case cases[] = {
        {"2rr3k/pp3pp1/1nnqbNQp/3pN3/2pP4/2P5/PPB4P/R4RK1 b - - 1 1", true,
         "Win at Chess 1 after Qg6: Qh7, supported by the knight on f6, mates"},
        {"5rk1/5ppp/8/8/8/3Q4/6PP/1B4K1 b - - 0 1", true,
         "Qxh7 supported by the bishop behind the queen, the rook on f8 taking the flight"},
        {"6k1/5ppp/8/8/8/3Q4/6PP/1B4K1 b - - 0 1", false,
         "the same check without the rook: the king escapes to f8"},
        {"5rk1/5ppp/5n2/8/8/3Q4/6PP/1B4K1 b - - 0 1", false, "a knight on f6 defends h7"},
        {"5rk1/5ppp/8/8/8/3Q4/6PP/6K1 b - - 0 1", false,
         "nothing supports h7: the king takes the queen"},
        {"3r1bk1/5ppp/8/8/8/3Q4/6PP/1BK5 b - - 0 1", true,
         "the bishop on f8 takes the flight instead"},
        {"3r1bk1/5ppp/8/8/8/3Q4/6PP/1B1K4 b - - 0 1", false,
         "the queen is pinned to its king by the rook on d8"},
        {"5rk1/5ppp/8/8/8/3B4/6PP/1B4K1 b - - 0 1", false, "no queen or rook to fear"},
        {"r3r1k1/pp1q1p2/4bBp1/3p4/7R/8/PPP3PP/4R1K1 b - - 0 1", true,
         "Win at Chess 55 after Qxg7+ Kxg7 Bf6+ Kg8 Rh4: Rh8, supported by the bishop, mates"},
        {"r3r1k1/pp1q1p2/4b1p1/3p4/7R/8/PPP3PP/4R1K1 b - - 0 1", false,
         "without the bishop the king takes the rook"},
        {"6k1/5pp1/8/8/8/8/6PR/6KR b - - 0 1", true, "Rh8 supported by the rook behind it on h1"},
        {"6k1/5np1/8/8/8/8/6PR/6KR b - - 0 1", false, "a knight on f7 for the pawn guards h8"},
    };
    for (const Case& c : cases) {
        INFO(c.fen << ": " << c.why);
        Position pos;
        REQUIRE_FALSE(pos.set_fen(c.fen));
        const std::string before = pos.fen();
        CHECK(mate_threat_beside_king(pos) == c.threat);
        CHECK(pos.fen() == before); // left as it was
    }
}

TEST_CASE("search does not cut a reply by its eval while a queen mate threatens", "[search]") {
    // Win at Chess 1 with the built-in weights: after Qg6 Black stands two pawns up, and while
    // reverse futility pruning trusted that eval the reply was cut without a move searched;
    // Qg6 was found only at depth 17 (283,000 nodes). With no such cut while the opponent
    // threatens a queen mate beside the king it comes at depth 8 (5,000 nodes), as mate.
    Engine engine;
    const auto s =
        search(engine, "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 10);
    CHECK(uci(engine, s.result.best) == "g3g6");
    CHECK(s.result.score >= SCORE_MATE_IN_MAX_PLY);
}

TEST_CASE("search counts a line back to the root as a draw", "[search]") {
    // Win at Chess 299: Nca4 wins. Na8+ Kc8 Nb6+ Kc7 comes back to the root position, and while
    // that repetition did not count inside the search the detour scored as Nca4 played four
    // plies later, and at depth 22 it was chosen. Counted as a draw, it is not.
    Engine engine;
    const auto s = search(engine, "1n2rr2/1pk3pp/pNn2p2/2N1p3/8/6P1/PP2PPKP/2RR4 w - - 0 1", 22);
    CHECK(uci(engine, s.result.best) == "c5a4");
}

TEST_CASE("search keeps a capture that checks on the principal variation", "[search]") {
    // Win at Chess 245: Qxg6+ gives the queen for a pawn (SEE says it loses) and wins. Kept on
    // the principal variation it is found at depth 20 in about 745,000 nodes; SEE-pruned there
    // too, at depth 21 in about 1,790,000 (before the mate-threat guard and the root-repetition
    // draw: 280,000 against none in 3,000,000). Measured with round 7's weights, which the test
    // keeps: how soon the search gets there depends on the weights and on the rest of the
    // search as much as on the rule. The test used Win at Chess 49 with round 3's weights
    // (34,000 nodes, and not found in 3,000,000 without the rule) until reverse futility
    // stopped trusting the eval under a mate threat: with that, Win at Chess 49 takes 775,000
    // nodes with the rule and 1,000,000 without it.
    Engine engine;
    use_weights(engine, "round7.json");
    const auto s = search(engine, "4rrn1/ppq3bk/3pPnpp/2p5/2PB4/2NQ1RPB/PP5P/5R1K w - - 0 1",
                          MAX_PLY - 10, 1000000);
    CHECK(uci(engine, s.result.best) == "d3g6");
}

TEST_CASE("search prunes quiet checks that lose material off the principal variation", "[search]") {
    // Win at Chess 228: Bxe4 (removing the knight, then a king-side attack). While every quiet
    // check was searched, however much it lost, the checks of the position's many lines kept
    // the search from it for 2,400,000 nodes; with the losing ones SEE-pruned off the
    // principal variation it is found in about 49,000.
    CHECK(best_within("r4rk1/1bq1bp1p/4p1p1/p2p4/3BnP2/1N1B3R/PPP3PP/R2Q2K1 w - - 0 1", 200000) ==
          "d3e4");
}

TEST_CASE("search prunes captures that cannot bring the static eval near alpha", "[search]") {
    // Win at Chess 145: Re8, a rook offered on the back rank. Without futility pruning of the
    // many captures in its lines that cannot lift a lost position to alpha, it was not found in
    // 1,500,000 nodes; with it, in about 140,000.
    CHECK(best_within("r1bq4/1p4kp/3p1n2/p4pB1/2pQ4/8/1P4PP/4RRK1 w - - 0 1", 300000) == "e1e8");
}

namespace {

// Plays on from `fen`, both sides searching `nodes` nodes a move with one engine (its table
// kept from move to move, as in a game): the plies until the side to move is checkmated, or
// -1 when the game is drawn first (stalemate, or the fifty-move rule, which a repetition also
// runs into here).
int plies_to_mate(const std::string& fen, std::uint64_t nodes) {
    Engine engine;
    REQUIRE_FALSE(engine.set_position(fen, {}));
    for (int ply = 0;; ++ply) {
        const Position& pos = engine.position();
        if (is_checkmate(pos)) return ply;
        if (pos.rule50() >= 100 || !has_legal_move(pos)) return -1;
        SearchLimits limits;
        limits.nodes = nodes;
        const SearchResult r = engine.search_sync(limits, [](const SearchReport&) {});
        REQUIRE(r.best);
        REQUIRE_FALSE(engine.play(r.best));
    }
}

} // namespace

TEST_CASE("search mates the bare king at 25,000 nodes a move: rook, bishop and knight",
          "[search]") {
    // Without the mop-up terms to steer by, the rook drew this one (from a self-play game) by
    // the fifty-move rule, and bishop and knight drew both of theirs.
    const char* fens[] = {"8/8/8/8/4K2k/8/6r1/8 b - - 1 71", "8/8/8/8/3k4/8/8/1B2K1N1 w - - 0 1",
                          "8/2k5/8/8/8/8/8/4KB1N w - - 0 1"};
    for (const char* fen : fens) {
        INFO(fen);
        const int plies = plies_to_mate(fen, 25000);
        CAPTURE(plies);
        CHECK(plies > 0);
    }
}

TEST_CASE("main picker: a piece attacked by a lesser one moves first and into such attacks last",
          "[search]") {
    // The knight on e4 stands attacked by the pawn on d5; h4 is attacked by the pawn on g5.
    const Position pos = position_from("4k3/8/8/3p2p1/4N3/8/8/4K2R w - - 0 1");
    auto history = std::make_unique<History>();
    history->clear();
    OrderingContext oc{};
    oc.killers[0] = oc.killers[1] = oc.counter = Move::none();
    for (auto& c : oc.continuation)
        c = history->sentinel();
    oc.threats = pos.attack_tiers(BLACK);
    MovePicker picker(pos, Move::none(), *history, oc);
    std::vector<Move> quiets;
    for (Move m = picker.next(); m; m = picker.next())
        if (!pos.is_capture_or_promotion(m)) quiets.push_back(m);
    REQUIRE(quiets.size() > 10);
    // With no history, every knight move comes before every other quiet move.
    std::size_t knights = 0;
    while (knights < quiets.size() && quiets[knights].from() == E4)
        ++knights;
    CHECK(knights == 7); // all but the capture on g5
    for (std::size_t i = knights; i < quiets.size(); ++i)
        CHECK(quiets[i].from() != E4);
    // The rook walking into the pawn's attack comes last.
    CHECK(quiets.back() == Move::make(H1, H4));
}

TEST_CASE("main picker: quiet moves come as a stable sort by their ordering score", "[search]") {
    // The picker picks the first few quiets one at a time and sorts the rest: either way the
    // order must be that of a stable sort (ties in generation order), which a random history
    // with many equal scores tests.
    const std::string fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "4k3/8/8/3p2p1/4N3/8/8/4K2R w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    };
    auto history = std::make_unique<History>();
    std::mt19937 rng(7);
    for (const auto& fen : fens)
        for (int round = 0; round < 20; ++round) {
            INFO(fen << " round " << round);
            const Position pos = position_from(fen);
            history->clear();
            MoveList quiets;
            generate<GenType::QUIET>(pos, quiets);
            const Bitboard threats = pos.attacked_by(~pos.side_to_move());
            for (Move m : quiets) // a few distinct values, so that many scores tie
                if (rng() % 2)
                    history->update_quiet(pos.side_to_move(), m, threats,
                                          int(rng() % 3) * 400 - 400);
            OrderingContext oc{};
            oc.killers[0] = oc.killers[1] = oc.counter = Move::none();
            for (auto& c : oc.continuation)
                c = history->sentinel();
            oc.threats = pos.attack_tiers(~pos.side_to_move());
            std::vector<std::pair<int, Move>> expected;
            for (Move m : quiets)
                expected.push_back({MovePicker::quiet_order_score(pos, *history, oc, m), m});
            std::stable_sort(expected.begin(), expected.end(),
                             [](const auto& a, const auto& b) { return a.first > b.first; });
            std::vector<Move> picked, wanted;
            MovePicker picker(pos, Move::none(), *history, oc);
            for (Move m = picker.next(); m; m = picker.next())
                if (!pos.is_capture_or_promotion(m)) picked.push_back(m);
            for (const auto& e : expected)
                wanted.push_back(e.second);
            REQUIRE(wanted.size() > 10);
            CHECK(picked == wanted);
        }
}

TEST_CASE("quiescence picker: captures then quiet checks only when asked", "[search]") {
    const std::string fens[] = {
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    };
    History history;
    history.clear();
    for (const auto& fen : fens) {
        INFO(fen);
        const Position pos = position_from(fen);
        REQUIRE_FALSE(pos.in_check());
        for (bool checks : {false, true}) {
            std::vector<Move> picked;
            MovePicker picker(pos, Move::none(), history, checks);
            for (Move m = picker.next(); m; m = picker.next())
                picked.push_back(m);
            MoveList legal;
            generate<GenType::ALL>(pos, legal);
            std::vector<Move> expected;
            for (Move m : legal)
                if (pos.is_capture_or_promotion(m) || (checks && pos.gives_check(m)))
                    expected.push_back(m);
            const auto order = [](Move a, Move b) { return a.raw() < b.raw(); };
            std::sort(picked.begin(), picked.end(), order);
            std::sort(expected.begin(), expected.end(), order);
            CHECK(picked == expected);
        }
    }
}

TEST_CASE("quiet history: kept apart by whether the from and to squares are attacked", "[search]") {
    auto history = std::make_unique<History>();
    history->clear();
    const Move m = Move::make(G1, F3);
    const Bitboard none = 0, on_from = Bitboard(1) << G1, on_to = Bitboard(1) << F3;
    const Bitboard elsewhere = Bitboard(1) << A7; // squares the move does not touch
    history->update_quiet(WHITE, m, on_to, 1000);
    CHECK(history->quiet_score(WHITE, m, on_to) > 0);
    CHECK(history->quiet_score(WHITE, m, on_to | elsewhere) ==
          history->quiet_score(WHITE, m, on_to));
    CHECK(history->quiet_score(WHITE, m, none) == 0);
    CHECK(history->quiet_score(WHITE, m, on_from) == 0);
    CHECK(history->quiet_score(WHITE, m, on_from | on_to) == 0);
    CHECK(history->quiet_score(BLACK, m, on_to) == 0);
    history->update_quiet(WHITE, m, none, -500);
    CHECK(history->quiet_score(WHITE, m, none) < 0);
    CHECK(history->quiet_score(WHITE, m, on_to) > 0);
}

TEST_CASE("pawn history: by pawn structure slot and piece and destination", "[search]") {
    auto history = std::make_unique<History>();
    history->clear();
    const Key pawns = 0x5A5A1234;
    history->update_pawn(pawns, W_KNIGHT, F3, 1200);
    CHECK(history->pawn_score(pawns, W_KNIGHT, F3) > 0);
    // Keys that share the slot share the entry; another slot, piece or square does not.
    CHECK(history->pawn_score(pawns + History::PAWN_HISTORY_SIZE, W_KNIGHT, F3) ==
          history->pawn_score(pawns, W_KNIGHT, F3));
    CHECK(history->pawn_score(pawns + 1, W_KNIGHT, F3) == 0);
    CHECK(history->pawn_score(pawns, W_BISHOP, F3) == 0);
    CHECK(history->pawn_score(pawns, W_KNIGHT, E2) == 0);
    // Gravity: repeated maluses saturate at the limit.
    for (int i = 0; i < 200; ++i)
        history->update_pawn(pawns, W_KNIGHT, F3, -3000);
    CHECK(history->pawn_score(pawns, W_KNIGHT, F3) >= -search_params::HISTORY_MAX);
    CHECK(history->pawn_score(pawns, W_KNIGHT, F3) < -search_params::HISTORY_MAX * 9 / 10);
}

TEST_CASE("correction history: learned by side and keys and weighted by table", "[search]") {
    namespace sp = search_params;
    auto history = std::make_unique<History>();
    history->clear();
    const History::CorrectionKeys keys{0x1234, {0x5678, 0x9abc}};
    for (int i = 0; i < 400; ++i)
        history->update_correction(WHITE, keys, 100, 20);
    // Every table has converged on the error; the correction is their weighted sum.
    const int full = 100 * (sp::CORRECTION_PAWN_WEIGHT + 2 * sp::CORRECTION_NON_PAWN_WEIGHT) /
                     sp::CORRECTION_UNIT;
    CHECK(std::abs(history->correction_cp(WHITE, keys) - full) <= 1);
    // Nothing for the other side to move, nor for other keys.
    CHECK(history->correction_cp(BLACK, keys) == 0);
    CHECK(history->correction_cp(WHITE, {0x1235, {0x5679, 0x9abd}}) == 0);
    // The same pawns with other pieces: the pawn table's share only.
    const int pawn_share = 100 * sp::CORRECTION_PAWN_WEIGHT / sp::CORRECTION_UNIT;
    CHECK(std::abs(history->correction_cp(WHITE, {0x1234, {0x5679, 0x9abd}}) - pawn_share) <= 1);
    // An error the other way pulls it back.
    for (int i = 0; i < 400; ++i)
        history->update_correction(WHITE, keys, -50, 20);
    CHECK(std::abs(history->correction_cp(WHITE, keys) + full / 2) <= 1);
}

TEST_CASE("search reports every depth with a legal PV", "[search]") {
    Engine engine;
    const std::string fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    const auto s = search(engine, fen, 6);
    REQUIRE(s.reports.size() == 6);
    for (std::size_t i = 0; i < s.reports.size(); ++i) {
        const auto& r = s.reports[i];
        CHECK(r.depth == int(i) + 1);
        CHECK(r.seldepth >= r.depth);
        CHECK(r.hashfull >= 0);
        CHECK(r.hashfull <= 1000);
        REQUIRE(!r.pv.empty());
        Position p = engine.position();
        for (Move m : r.pv) {
            REQUIRE(p.is_legal(m));
            p.make_move(m);
        }
        if (i) CHECK(r.nodes >= s.reports[i - 1].nodes);
    }
    CHECK(s.result.depth == 6);
    CHECK(s.result.best == s.reports.back().pv.front());
    CHECK(s.result.score == s.reports.back().score);
    CHECK(s.result.nodes >= s.reports.back().nodes);
    if (s.result.ponder) {
        Position after = engine.position();
        after.make_move(s.result.best);
        CHECK(after.is_legal(s.result.ponder));
    }
}

TEST_CASE("search is deterministic from a fresh state", "[search]") {
    Engine a, b;
    const std::string fen =
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
    const auto sa = search(a, fen, 7);
    const auto sb = search(b, fen, 7);
    CHECK(sa.result.nodes == sb.result.nodes);
    CHECK(sa.result.best == sb.result.best);
    CHECK(sa.result.score == sb.result.score);
    // new_game forgets everything: the same search again gives the same count.
    a.new_game();
    const auto sc = search(a, fen, 7);
    CHECK(sc.result.nodes == sa.result.nodes);
}

TEST_CASE("search respects a node limit", "[search]") {
    Engine engine;
    const auto s = search(engine, std::string(Position::START_FEN), 0, 3000);
    // Checked at every node after depth 1: only the unwinding may overshoot a little.
    CHECK(s.result.nodes >= 3000);
    CHECK(s.result.nodes <= 3000 + 1024);
    REQUIRE(s.result.best);
    CHECK(engine.position().is_legal(s.result.best));
}

TEST_CASE("search with no legal move returns no move", "[search]") {
    Engine engine;
    auto mated = search(engine, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 4);
    CHECK_FALSE(mated.result.best);
    auto stalemate = search(engine, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 4);
    CHECK_FALSE(stalemate.result.best);
}

TEST_CASE("bench: the node count is deterministic", "[search]") {
    std::ostringstream out1, out2;
    const auto r1 = run_bench(4, out1);
    const auto r2 = run_bench(4, out2);
    CHECK(r1.nodes > 0);
    CHECK(r1.nodes == r2.nodes);
    // The report names the same total, and one line per position.
    CHECK(out1.str().find("Nodes searched: " + std::to_string(r1.nodes) + "\n") !=
          std::string::npos);
    std::istringstream lines(out1.str());
    int positions = 0;
    for (std::string l; std::getline(lines, l);)
        positions += l.rfind("Position ", 0) == 0;
    CHECK(positions == BENCH_FEN_COUNT);
    // A deeper bench searches more.
    std::ostringstream out3;
    CHECK(run_bench(5, out3).nodes > r1.nodes);
}

// --------------------------------------------------------------------------------------------
// Transposition table

TEST_CASE("tt: store and probe round trip", "[search]") {
    TranspositionTable tt(1);
    tt.new_search();
    const Key key = 0x9E3779B97F4A7C15ULL;
    const Move move = Move::make(E2, E4);
    TTData d;
    CHECK_FALSE(tt.probe(key, 0, d));
    tt.store(key, 0, move, 123, -45, 7, BOUND_LOWER);
    REQUIRE(tt.probe(key, 0, d));
    CHECK(d.move == move);
    CHECK(d.score == 123);
    CHECK(d.eval == -45);
    CHECK(d.depth == 7);
    CHECK(d.bound == BOUND_LOWER);
    // Ordinary scores do not depend on the ply they are probed at.
    REQUIRE(tt.probe(key, 17, d));
    CHECK(d.score == 123);
    // Other keys miss: neighbours in the low bits and in the high bits. (Keys that differ
    // only in bits neither the index nor the 16-bit check reads must collide: not tested.)
    for (Key other : {key ^ 1, key ^ 0x8000, key ^ (Key(1) << 63), ~key}) {
        INFO(std::hex << other);
        CHECK_FALSE(tt.probe(other, 0, d));
    }
    // A newer store of the same key replaces it.
    tt.store(key, 0, Move::make(D2, D4), -7, 3, 9, BOUND_EXACT);
    REQUIRE(tt.probe(key, 0, d));
    CHECK(d.move == Move::make(D2, D4));
    CHECK(d.score == -7);
    CHECK(d.depth == 9);
    CHECK(d.bound == BOUND_EXACT);
}

TEST_CASE("tt: keys that differ only in their low bits are told apart", "[search]") {
    for (std::size_t mib : {1, 16}) {
        TranspositionTable tt(mib);
        tt.new_search();
        const Key base = 0x123456789ABCDEF0ULL;
        // Three neighbours (they share a bucket when the index comes from the high bits).
        for (Key i = 1; i <= 3; ++i)
            tt.store(base ^ i, 0, Move::none(), Score(100 * i), 0, 5, BOUND_EXACT);
        for (Key i = 1; i <= 3; ++i) {
            INFO("table " << mib << " MiB, key " << i);
            TTData d;
            REQUIRE(tt.probe(base ^ i, 0, d));
            CHECK(d.score == Score(100 * i));
        }
        TTData d;
        CHECK_FALSE(tt.probe(base, 0, d));
        CHECK_FALSE(tt.probe(base ^ 4, 0, d));
    }
}

TEST_CASE("tt: mate and tablebase scores are stored relative to the node", "[search]") {
    TranspositionTable tt(1);
    tt.new_search();
    const Key key = 0x0123456789ABCDEFULL;
    TTData d;
    // Found at ply 5: we mate at ply 9, four plies below this node.
    tt.store(key, 5, Move::none(), mate_in(9), 0, 4, BOUND_EXACT);
    REQUIRE(tt.probe(key, 5, d));
    CHECK(d.score == mate_in(9));
    // Reached again at ply 2 (a transposition): still four plies below it.
    REQUIRE(tt.probe(key, 2, d));
    CHECK(d.score == mate_in(6));
    REQUIRE(tt.probe(key, 10, d));
    CHECK(d.score == mate_in(14));

    tt.store(key, 3, Move::none(), mated_in(8), 0, 4, BOUND_UPPER);
    REQUIRE(tt.probe(key, 3, d));
    CHECK(d.score == mated_in(8));
    REQUIRE(tt.probe(key, 0, d));
    CHECK(d.score == mated_in(5));

    // Tablebase wins and losses are plies from the root too, and move with the node the same.
    tt.store(key, 4, Move::none(), tb_win_in(4), 0, 4, BOUND_LOWER);
    REQUIRE(tt.probe(key, 1, d));
    CHECK(d.score == tb_win_in(1));
    tt.store(key, 4, Move::none(), tb_loss_in(6), 0, 4, BOUND_UPPER);
    REQUIRE(tt.probe(key, 7, d));
    CHECK(d.score == tb_loss_in(9));

    // The conversions are inverse for every score possible at a ply (no mate is nearer the
    // root than the node itself), and leave ordinary scores (evaluations) alone.
    for (int ply = 0; ply < MAX_PLY; ply += 7) {
        for (Score s = -(SCORE_MATE - ply); s <= SCORE_MATE - ply; s += 13) {
            CHECK(score_from_tt(score_to_tt(s, ply), ply) == s);
            if (std::abs(s) <= SCORE_EVAL_MAX) CHECK(score_to_tt(s, ply) == s);
        }
        CHECK(score_from_tt(SCORE_NONE, ply) == SCORE_NONE);
    }
}

TEST_CASE("tt: hashfull counts this search's entries - from 0 to 1000", "[search]") {
    TranspositionTable tt(1);
    CHECK(tt.hashfull() == 0);
    tt.new_search();
    CHECK(tt.hashfull() == 0);
    std::mt19937_64 rng(42);
    // A handful of entries: a little above zero.
    for (int i = 0; i < 2000; ++i)
        tt.store(rng(), 0, Move::none(), 0, 0, 1, BOUND_EXACT);
    const int some = tt.hashfull();
    CHECK(some > 0);
    CHECK(some < 500);
    // Far more entries than the table holds: full.
    for (int i = 0; i < (1 << 20); ++i)
        tt.store(rng(), 0, Move::none(), 0, 0, 1, BOUND_EXACT);
    CHECK(tt.hashfull() >= 990);
    CHECK(tt.hashfull() <= 1000);
    // A new search starts from empty as far as hashfull is concerned.
    tt.new_search();
    CHECK(tt.hashfull() == 0);
    tt.clear();
    CHECK(tt.hashfull() == 0);
}

TEST_CASE("tt: resize and clear empty the table", "[search]") {
    TranspositionTable tt(1);
    CHECK(tt.size_mib() == 1);
    tt.new_search();
    const Key key = 0xDEADBEEFCAFEF00DULL;
    tt.store(key, 0, Move::make(G1, F3), 50, 0, 3, BOUND_EXACT);
    TTData d;
    REQUIRE(tt.probe(key, 0, d));
    tt.resize(4);
    CHECK(tt.size_mib() == 4);
    CHECK_FALSE(tt.probe(key, 0, d));
    tt.store(key, 0, Move::make(G1, F3), 50, 0, 3, BOUND_EXACT);
    REQUIRE(tt.probe(key, 0, d));
    CHECK(d.move == Move::make(G1, F3));
    tt.clear();
    CHECK_FALSE(tt.probe(key, 0, d));
    tt.resize(2);
    CHECK(tt.size_mib() == 2);

    Engine engine;
    CHECK(engine.hash_mib() == std::size_t(Engine::DEFAULT_HASH_MIB));
    REQUIRE(engine.set_hash(2));
    CHECK(engine.hash_mib() == 2);
    // Still searches after a resize.
    const auto s = search(engine, std::string(Position::START_FEN), 4);
    CHECK(engine.position().is_legal(s.result.best));
}

TEST_CASE("tt: clearing a table larger than a memset clear empties it", "[search]") {
    // 96 MiB is past the size up to which clear() zeroes the whole table: it zeroes the pages
    // a search touched instead. The stores below touch pages in the first half only (the
    // index comes from the key's high bits) and leave the rest untouched.
    TranspositionTable tt(96);
    tt.new_search();
    std::mt19937_64 rng(7);
    std::vector<Key> keys;
    for (int i = 0; i < 20000; ++i)
        keys.push_back(rng() >> 1);
    for (Key k : keys)
        tt.store(k, 0, Move::make(E2, E4), 11, 0, 6, BOUND_LOWER);
    TTData d;
    for (Key k : keys)
        REQUIRE(tt.probe(k, 0, d));
    CHECK(tt.hashfull() > 0);
    tt.clear();
    CHECK(tt.hashfull() == 0);
    int found = 0;
    for (Key k : keys)
        found += tt.probe(k, 0, d);
    CHECK(found == 0);
    // Both halves take entries again after the clear.
    tt.new_search();
    for (Key k : {keys[0], keys[1] | (Key(1) << 63)}) {
        tt.store(k, 0, Move::make(D2, D4), -3, 0, 4, BOUND_EXACT);
        REQUIRE(tt.probe(k, 0, d));
        CHECK(d.move == Move::make(D2, D4));
        CHECK(d.score == -3);
    }
}

namespace {

// The final depth's lines of a MultiPV search, in multipv order.
std::vector<SearchReport> last_depth_lines(const std::vector<SearchReport>& reports) {
    std::vector<SearchReport> lines;
    if (reports.empty()) return lines;
    const int depth = reports.back().depth;
    for (const auto& r : reports)
        if (r.depth == depth) lines.push_back(r);
    return lines;
}

bool same_entry(const TTData& a, const TTData& b) {
    return a.move == b.move && a.score == b.score && a.eval == b.eval && a.depth == b.depth &&
           a.bound == b.bound;
}

} // namespace

TEST_CASE("multipv: the one winning move ranks first, the rest follow by score", "[search]") {
    Engine engine;
    engine.set_multipv(3);
    // Only Rxd5 wins the queen; every other move leaves White a queen down.
    const auto s = search(engine, "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 8);
    const auto lines = last_depth_lines(s.reports);
    REQUIRE(lines.size() == 3);
    for (int k = 0; k < 3; ++k)
        CHECK(lines[std::size_t(k)].multipv == k + 1);
    CHECK(uci(engine, lines[0].pv.at(0)) == "d2d5");
    CHECK(uci(engine, s.result.best) == "d2d5");
    CHECK(lines[0].score > lines[1].score + 500);
    CHECK(lines[1].score >= lines[2].score);
    // Three different first moves.
    CHECK(lines[0].pv[0] != lines[1].pv[0]);
    CHECK(lines[1].pv[0] != lines[2].pv[0]);
    CHECK(lines[0].pv[0] != lines[2].pv[0]);
}

TEST_CASE("multipv: more lines than legal moves gives one line per move", "[search]") {
    Engine engine;
    engine.set_multipv(10);
    // Black king in the corner with three moves (a7, b7, b8 minus what the king covers).
    const auto s = search(engine, "k7/8/2K5/8/8/8/8/7R b - - 0 1", 5);
    const auto lines = last_depth_lines(s.reports);
    Position p = position_from("k7/8/2K5/8/8/8/8/7R b - - 0 1");
    MoveList legal;
    generate<GenType::ALL>(p, legal);
    CHECK(lines.size() == legal.size());
    for (std::size_t i = 1; i < lines.size(); ++i)
        CHECK(lines[i - 1].score >= lines[i].score);
}

TEST_CASE("multipv 1 and multipv 3 agree on the best move of a clear position", "[search]") {
    Engine one, three;
    three.set_multipv(3);
    const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    const auto a = search(one, fen + "", 1);
    const auto b = search(three, fen, 1);
    // At depth 1 both are exact: the same best score.
    CHECK(a.result.score == b.result.score);
}

TEST_CASE("singular search leaves the TT entry and the stack as it found them", "[search]") {
    Engine engine;
    const std::vector<std::string> fens = {
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4r1k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 45",
    };
    int ran = 0;
    for (const auto& fen : fens) {
        INFO(fen);
        engine.new_game();
        search(engine, fen, 10); // fills the table: the root entry has a move and a bound
        const Position pos = engine.position();
        TTData before;
        REQUIRE(engine.tt().probe(pos.key(), 1, before));
        if (!(before.bound & BOUND_LOWER)) continue;
        for (Score beta : {before.score - 50, before.score, before.score + 50}) {
            const auto probe = engine.main_searcher().singular_probe(pos, 8, beta);
            REQUIRE(probe.ran);
            ++ran;
            TTData after;
            REQUIRE(engine.tt().probe(pos.key(), 1, after));
            CHECK(same_entry(before, after));
            CHECK(probe.excluded_after == Move::none());
            CHECK(probe.static_eval_after == probe.static_eval_before);
            CHECK(probe.extension >= -2);
            CHECK(probe.extension <= 2);
            if (probe.multi_cut) CHECK(*probe.multi_cut >= beta);
        }
    }
    CHECK(ran > 0);
}

TEST_CASE("a quiet move learns history from the change of static eval it caused", "[search]") {
    const Position pos =
        position_from("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const Move quiet = Move::make(A2, A3), capture = Move::make(E5, G6);
    REQUIRE_FALSE(pos.is_capture_or_promotion(quiet));
    REQUIRE(pos.is_capture_or_promotion(capture));
    const auto probe = [&](Move m, Score before, Score after) {
        Engine engine; // a fresh history each time
        return engine.main_searcher().eval_change_probe(pos, m, before, after);
    };
    // 50 for white before, -100 for black after: white gained 50.
    CHECK(probe(quiet, 50, -100) > 0);
    // 50 before, 100 for black after: white lost 150, more than it gained above.
    const int lost = probe(quiet, 50, 100);
    CHECK(lost < 0);
    CHECK(-lost > probe(quiet, 50, -100));
    // A huge swing gains no more than the cap.
    CHECK(probe(quiet, 0, -5000) == probe(quiet, 0, -1000));
    // Unchanged: nothing learned; a capture or an unknown eval: nothing either.
    CHECK(probe(quiet, 30, -30) == 0);
    CHECK(probe(capture, 50, -400) == 0);
    CHECK(probe(quiet, SCORE_NONE, -100) == 0);
}

TEST_CASE("a TT move that is not singular loses two plies where the node should fail high",
          "[search]") {
    // Opening positions have several moves about as good as the best. Which of them has a
    // TT move that is not singular depends on the evaluation's weights: the first such.
    const Depth depth = 8;
    Engine engine;
    Position pos;
    TTData tt;
    Searcher::SingularProbe at;
    for (const std::string& fen :
         {std::string(Position::START_FEN),
          std::string("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
          std::string("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"),
          std::string("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
          std::string("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")}) {
        engine.new_game();
        search(engine, fen, 10);
        pos = engine.position();
        REQUIRE(engine.tt().probe(pos.key(), 1, tt));
        REQUIRE((tt.bound & BOUND_LOWER));
        // beta at the table score: the singular beta (well below) is under beta.
        at = engine.main_searcher().singular_probe(pos, depth, tt.score);
        REQUIRE(at.ran);
        if (at.extension <= 0) break;
    }
    INFO(pos.fen());
    CHECK_FALSE(at.multi_cut);
    CHECK(at.extension == -2);
    // beta above the table score: no reduction at a PV or all node, two plies at a cut node.
    const auto above = engine.main_searcher().singular_probe(pos, depth, tt.score + 30);
    REQUIRE(above.ran);
    CHECK(above.extension == 0);
    const auto cut = engine.main_searcher().singular_probe(pos, depth, tt.score + 30, true);
    REQUIRE(cut.ran);
    CHECK(cut.extension == -2);
}

TEST_CASE("lazy smp: 4 threads on any machine return a legal move at every stop", "[search][smp]") {
    Engine engine;
    engine.set_threads(4);
    CHECK(engine.threads() == 4);
    std::mt19937 rng(7);
    const std::vector<std::string> fens = {
        std::string(Position::START_FEN),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    };
    for (int i = 0; i < 12; ++i) {
        const std::string& fen = fens[std::size_t(i) % fens.size()];
        REQUIRE_FALSE(engine.set_position(fen, {}));
        Move best = Move::none();
        std::atomic<bool> done{false};
        SearchCallbacks cb;
        cb.on_bestmove = [&](Move b, Move) {
            best = b;
            done = true;
        };
        SearchLimits limits;
        limits.infinite = true;
        engine.go(limits, {}, cb);
        std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 60));
        engine.stop();
        engine.wait();
        REQUIRE(done);
        INFO(fen);
        CHECK(engine.position().is_legal(best));
    }
}

TEST_CASE("lazy smp: a depth-limited search with 2 threads finds the mate", "[search][smp]") {
    Engine engine;
    engine.set_threads(2);
    const auto s = search(engine, "r6k/1r6/8/8/8/8/8/7K b - - 0 1", 6);
    CHECK(s.result.score == mate_in(3));
    CHECK(engine.position().is_legal(s.result.best));
}

TEST_CASE(
    "lazy smp: with 2 threads the depths reported rise, every PV is legal, the limit is reached",
    "[search][smp]") {
    // A thread that another has overtaken gives up its iteration and reports the deeper
    // line instead: the depths seen by the GUI must still only go up, and each line must be
    // a legal sequence from the root.
    Engine engine;
    engine.set_threads(2);
    for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
                            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}) {
        const auto s = search(engine, fen, 13);
        INFO(fen);
        REQUIRE_FALSE(s.reports.empty());
        int last = 0;
        for (const SearchReport& r : s.reports) {
            CHECK(r.depth >= last);
            last = r.depth;
            Position pos = engine.position();
            for (Move m : r.pv) {
                REQUIRE(pos.is_legal(m));
                pos.make_move(m);
            }
        }
        CHECK(last == 13);
        CHECK(s.result.depth >= 13);
        CHECK(engine.position().is_legal(s.result.best));
    }
}

TEST_CASE("tt: a size the machine cannot hold is refused and the table kept", "[search]") {
    TranspositionTable tt(2);
    tt.new_search();
    const Key key = 0x1234567887654321ULL;
    tt.store(key, 0, Move::make(E2, E4), 42, 0, 6, BOUND_EXACT);
    const std::size_t physical = TranspositionTable::physical_mib();
    REQUIRE(physical > 0);
    CHECK_FALSE(tt.resize(physical + 1024));
    CHECK(tt.size_mib() == 2);
    TTData d;
    REQUIRE(tt.probe(key, 0, d));
    CHECK(d.score == 42);
    // And a size it can hold is taken.
    CHECK(tt.resize(4));
    CHECK(tt.size_mib() == 4);
}
