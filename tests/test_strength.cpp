// Play at a chosen strength: the level table, the choice among root lines, and limited games
// through the engine (legal moves within the node budget; the same seed, the same game).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "core/random.hpp"
#include "engine/engine.hpp"
#include "movegen/movegen.hpp"
#include "notation/uci_move.hpp"
#include "search/strength.hpp"

#include "support.hpp"

using namespace horizon;
using horizon::test::has_legal_move;

TEST_CASE("strength: the levels get stronger with the Elo and stay in range", "[strength]") {
    const auto table = strength_table();
    REQUIRE(table.size() >= 2);
    CHECK(table.front().elo == STRENGTH_ELO_MIN);
    CHECK(table.back().elo == STRENGTH_ELO_MAX);
    StrengthLevel previous = strength_level(STRENGTH_ELO_MIN);
    for (int elo = STRENGTH_ELO_MIN + 10; elo <= STRENGTH_ELO_MAX; elo += 10) {
        INFO("elo " << elo);
        const StrengthLevel level = strength_level(elo);
        CHECK(level.elo == elo);
        CHECK(level.nodes >= previous.nodes);
        CHECK(level.temperature <= previous.temperature);
        CHECK(level.max_loss <= previous.max_loss);
        CHECK(level.lines >= 1);
        // Never a queen's worth thrown away by the choice itself.
        CHECK(level.max_loss < 900);
        previous = level;
    }
    CHECK(strength_level(STRENGTH_ELO_MAX).nodes > 10 * strength_level(STRENGTH_ELO_MIN).nodes);
    // The anchors are hit exactly; outside the range, the nearest end.
    for (const StrengthLevel& anchor : table)
        CHECK(strength_level(anchor.elo).nodes == anchor.nodes);
    CHECK(strength_level(100).nodes == table.front().nodes);
    CHECK(strength_level(5000).nodes == table.back().nodes);
}

TEST_CASE("strength: lines are chosen by a softmax of their loss, never past the bound",
          "[strength]") {
    StrengthLevel level;
    level.temperature = 30;
    level.max_loss = 150;
    const std::vector<Score> scores = {20, 10, -30, -280};
    const double w[3] = {1.0, std::exp(-10.0 / 30), std::exp(-50.0 / 30)};
    const double total = w[0] + w[1] + w[2];
    constexpr int DRAWS = 20000;
    int count[4] = {};
    std::uint64_t state = 12345;
    for (int i = 0; i < DRAWS; ++i)
        ++count[choose_line(scores, level, splitmix64(state))];
    CHECK(count[3] == 0); // 300 cp below the best: past max_loss
    for (int k = 0; k < 3; ++k) {
        INFO("line " << k << ": " << count[k]);
        CHECK(std::abs(double(count[k]) / DRAWS - w[k] / total) < 0.02);
    }
    // The smallest draw takes the best line, the largest the worst allowed.
    CHECK(choose_line(scores, level, 0) == 0);
    CHECK(choose_line(scores, level, ~std::uint64_t(0)) == 2);
    // One line, or no temperature: the best.
    CHECK(choose_line(std::vector<Score>{5}, level, ~std::uint64_t(0)) == 0);
    level.temperature = 0;
    CHECK(choose_line(scores, level, ~std::uint64_t(0)) == 0);
    // Mate scores count as large differences, not as overflows.
    level.temperature = 30;
    const std::vector<Score> mate = {SCORE_MATE - 3, 50};
    for (std::uint64_t d : {std::uint64_t(0), ~std::uint64_t(0)})
        CHECK(choose_line(mate, level, d) == 0);
}

namespace {

struct PlyResult {
    Move best;
    std::uint64_t nodes = 0;
    int multipv_seen = 0;
};

// One limited move from the engine's position: under a 2+0.02 clock, or (clock false) within
// the node budget alone, which makes the search itself repeatable.
PlyResult limited_move(Engine& engine, bool clock) {
    SearchLimits limits;
    if (clock) {
        limits.time[WHITE] = limits.time[BLACK] = 2000;
        limits.inc[WHITE] = limits.inc[BLACK] = 20;
    }
    PlyResult out;
    SearchCallbacks cb;
    cb.on_report = [&](const SearchReport& r) {
        out.nodes = std::max(out.nodes, r.nodes);
        out.multipv_seen = std::max(out.multipv_seen, r.multipv);
    };
    cb.on_bestmove = [&](Move b, Move) { out.best = b; };
    engine.go(limits, {}, cb);
    engine.wait();
    return out;
}

// `plies` limited moves from the start, the engine playing both sides; the moves played.
std::vector<Move> limited_game(int elo, std::uint64_t seed, int plies, bool clock) {
    Engine engine;
    engine.set_limit_strength(true);
    engine.set_elo(elo);
    engine.set_strength_seed(seed);
    engine.new_game();
    Position start;
    REQUIRE_FALSE(start.set_fen(Position::START_FEN));
    REQUIRE_FALSE(engine.set_position(start));
    const StrengthLevel level = strength_level(elo);
    std::vector<Move> moves;
    for (int ply = 0; ply < plies && has_legal_move(engine.position()); ++ply) {
        INFO("elo " << elo << " ply " << ply << " " << engine.position().fen());
        const PlyResult r = limited_move(engine, clock);
        REQUIRE(engine.position().is_legal(r.best));
        // Within the node budget (checked at every node once depth 1 is done), the guard's
        // searches included.
        CHECK(r.nodes <= move_node_budget(level) + 1024);
        CHECK(r.multipv_seen <= level.lines);
        moves.push_back(r.best);
        REQUIRE_FALSE(engine.play(r.best));
    }
    return moves;
}

} // namespace

TEST_CASE("strength: limited games give legal moves - a seed repeats the game", "[strength]") {
    // Node budgets alone (no clock): the same seed, the same game.
    for (int elo : {STRENGTH_ELO_MIN, 1600, 1900}) {
        const auto a = limited_game(elo, 42, 16, false);
        const auto b = limited_game(elo, 42, 16, false);
        CHECK(a == b);
        if (elo == STRENGTH_ELO_MIN) {
            // Low down the choice is wide: other seeds give other games.
            int differ = 0;
            for (std::uint64_t seed : {7, 8, 9})
                differ += limited_game(elo, seed, 16, false) != a;
            CHECK(differ > 0);
        }
    }
    // Under a clock, at every level up to the top, whose budget is the clock's alone.
    for (int elo : {STRENGTH_ELO_MIN, 2000, 2500, STRENGTH_ELO_MAX})
        CHECK(limited_game(elo, 42, 4, true).size() == 4);
}

TEST_CASE("strength: the guard stays within the move's time - a spent clock skips it",
          "[strength]") {
    // UCI_Elo 1350 searches 600 nodes, below GUARD_NODES: unhurried, the guard adds its two
    // searches of GUARD_NODES each. With 5 ms on the clock, the move's budget is 1 ms: each
    // guard search stops at its first look at the clock once that is spent (every 1024 nodes),
    // or is not started, so together they stay far below one unhurried guard search. (How many
    // looks a millisecond takes depends on the machine's speed: the bound does not count them.)
    Engine engine;
    engine.set_limit_strength(true);
    engine.set_elo(STRENGTH_ELO_MIN);
    engine.set_strength_seed(3);
    const StrengthLevel level = strength_level(STRENGTH_ELO_MIN);
    REQUIRE(level.nodes < GUARD_NODES);
    const std::string fens[] = {std::string(Position::START_FEN),
                                "4k3/8/8/8/8/8/PP6/3QK3 w - - 0 1"};
    for (const std::string& fen : fens) {
        INFO(fen);
        REQUIRE_FALSE(engine.set_position(fen, {}));
        SearchLimits limits;
        limits.time[WHITE] = limits.time[BLACK] = 5;
        std::uint64_t nodes = 0;
        Move best = Move::none();
        SearchCallbacks cb;
        cb.on_report = [&](const SearchReport& r) { nodes = std::max(nodes, r.nodes); };
        cb.on_bestmove = [&](Move b, Move) { best = b; };
        engine.go(limits, {}, cb);
        engine.wait();
        CHECK(engine.position().is_legal(best));
        CHECK(nodes < level.nodes + GUARD_NODES);
        // Without a clock the same level's guard searches in full.
        nodes = 0;
        engine.go(SearchLimits{}, {}, cb);
        engine.wait();
        CHECK(nodes > level.nodes + GUARD_NODES);
    }
}

TEST_CASE("strength: a level written as a row reads back as itself - bad rows say why",
          "[strength]") {
    for (const StrengthLevel& anchor : strength_table()) {
        StrengthLevel read;
        REQUIRE_FALSE(parse_strength_row(format_strength_row(anchor), read));
        CHECK(read.nodes == anchor.nodes);
        CHECK(read.lines == anchor.lines);
        CHECK(read.temperature == anchor.temperature);
        CHECK(read.max_loss == anchor.max_loss);
    }
    StrengthLevel level;
    level.elo = 1234;
    REQUIRE_FALSE(parse_strength_row(" 2000, 3,33 ,145 ", level));
    CHECK(level.elo == 1234); // the row does not say the Elo
    CHECK(format_strength_row(level) == "2000 3 33 145");
    const auto said = [](const char* text) {
        StrengthLevel l;
        const auto err = parse_strength_row(text, l);
        return err ? *err : std::string();
    };
    CHECK(said("").find("four numbers") != std::string::npos);
    CHECK(said("1 2 3").find("not 3") != std::string::npos);
    CHECK(said("1 2 x3 4").find("'x3'") != std::string::npos);
    CHECK(said("1 2 3.5 4").find("'3.5'") != std::string::npos);
    CHECK(said("1000000001 1 0 0").find("NODES") != std::string::npos);
    CHECK(said("99999999999999999999 1 0 0").find("too large") != std::string::npos);
    CHECK(said("100 0 0 0").find("LINES") != std::string::npos);
    CHECK(said("100 1 2001 0").find("TEMPERATURE") != std::string::npos);
    CHECK(said("100 1 0 -1").find("MAX_LOSS") != std::string::npos);
    CHECK(said("1000000000 16 2000 2000").empty());
}

TEST_CASE("strength: an override plays its own level, not UCI_Elo's", "[strength]") {
    // UCI_Elo 1350 searches 600 nodes a move with four lines; the override, 40,000 with two.
    Engine engine;
    engine.set_limit_strength(true);
    engine.set_elo(STRENGTH_ELO_MIN);
    engine.set_strength_seed(5);
    StrengthLevel over;
    REQUIRE_FALSE(parse_strength_row("40000 2 10 50", over));
    engine.set_strength_override(over);
    REQUIRE_FALSE(engine.set_position(std::string(Position::START_FEN), {}));
    const PlyResult r = limited_move(engine, false);
    CHECK(engine.position().is_legal(r.best));
    CHECK(r.nodes > move_node_budget(strength_level(STRENGTH_ELO_MIN)));
    CHECK(r.nodes >= 40000);
    CHECK(r.nodes <= 40000 + 1024); // above GUARD_NODES: no guard searches
    CHECK(r.multipv_seen == 2);
    // Cleared: UCI_Elo's level again.
    engine.set_strength_override(std::nullopt);
    const PlyResult back = limited_move(engine, false);
    CHECK(back.nodes <= move_node_budget(strength_level(STRENGTH_ELO_MIN)) + 1024);
    CHECK(back.multipv_seen <= strength_level(STRENGTH_ELO_MIN).lines);
}

TEST_CASE("strength: off by default - the tools' searches stay at full strength", "[strength]") {
    Engine engine;
    CHECK_FALSE(engine.limit_strength());
    engine.set_limit_strength(true);
    engine.set_elo(STRENGTH_ELO_MIN);
    // search_sync is the tools' search: the limit does not reach it, neither its node budget
    // nor its choice among lines.
    SearchLimits limits;
    limits.nodes = 10 * strength_level(STRENGTH_ELO_MIN).nodes;
    int lines = 0;
    const SearchResult r = engine.search_sync(
        limits, [&](const SearchReport& rep) { lines = std::max(lines, rep.multipv); });
    CHECK(r.nodes >= limits.nodes);
    CHECK(lines == 1);
}

TEST_CASE("strength: the guard refuses a move that hangs the queen, and only such a move",
          "[strength]") {
    CHECK(guard_refuses(900, 900 - GUARD_MARGIN - 1));
    CHECK_FALSE(guard_refuses(900, 900 - GUARD_MARGIN));
    CHECK(guard_refuses(SCORE_MATE - 5, 0));                      // a mate thrown away
    CHECK_FALSE(guard_refuses(SCORE_MATE - 5, SCORE_MATE - 9));   // a slower mate
    CHECK_FALSE(guard_refuses(-SCORE_MATE + 3, -SCORE_MATE + 1)); // mated either way

    Engine engine;
    engine.set_threads(1);
    // White is a queen and two pawns up; Qd7+ gives the queen away (Kxd7).
    REQUIRE_FALSE(engine.set_position("4k3/8/8/8/8/8/PP6/3QK3 w - - 0 1", {}));
    const Position& pos = engine.position();
    const Move hang = *parse_uci_move(pos, "d1d7");
    const Move quiet = *parse_uci_move(pos, "a2a3");
    const Move centre = *parse_uci_move(pos, "d1d5");

    std::uint64_t nodes = 0;
    const auto refused = engine.blunder_guard(hang, {}, &nodes);
    REQUIRE(refused);
    CHECK(refused->pv.at(0) != hang);
    CHECK(refused->score > GUARD_MARGIN);
    CHECK(refused->multipv == 1);
    CHECK(nodes > GUARD_NODES / 2); // both searches ran, each within its budget
    CHECK(nodes <= 2 * GUARD_NODES + 4096);
    // A quiet move that keeps the queen stands.
    CHECK_FALSE(engine.blunder_guard(quiet, {}));
    // The best move the guard offers is one of searchmoves.
    const auto within = engine.blunder_guard(hang, {hang, centre});
    REQUIRE(within);
    CHECK(within->pv.at(0) == centre);
}
