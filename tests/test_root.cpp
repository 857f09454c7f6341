// Root-move bookkeeping (src/search/root.*): the moves searched, their results and ranking.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/position.hpp"
#include "notation/uci_move.hpp"
#include "search/root.hpp"

using namespace horizon;

namespace {

Move move(const Position& pos, const std::string& text) {
    const auto m = parse_uci_move(pos, text);
    REQUIRE(m);
    return *m;
}

} // namespace

TEST_CASE("root moves: the legal moves, or those of searchmoves", "[search]") {
    Position pos;
    REQUIRE_FALSE(pos.set_fen(Position::START_FEN));
    RootMoves all;
    all.init(pos, {});
    CHECK(all.size() == 20);
    RootMoves some;
    const Move e4 = move(pos, "e2e4"), d4 = move(pos, "d2d4");
    some.init(pos, {e4, d4});
    REQUIRE(some.size() == 2);
    // In the order generated (as in `all`), whatever the order given.
    const bool d4_first = all.find(d4) < all.find(e4);
    CHECK(some[0].move == (d4_first ? d4 : e4));
    CHECK(some[1].move == (d4_first ? e4 : d4));
    // The root searches a move for a line from the line's index on (MultiPV: the moves of the
    // lines before are taken), and never a move that searchmoves left out.
    CHECK(some.searches(e4, 0));
    CHECK(some.searches(d4, 0));
    CHECK(some.searches(some[1].move, 1));
    CHECK_FALSE(some.searches(some[0].move, 1));
    CHECK_FALSE(some.searches(some[1].move, 2));
    CHECK_FALSE(some.searches(move(pos, "g1f3"), 0));
    CHECK(some.find(some[1].move) == &some[1]);
    CHECK(some.find(move(pos, "g1f3")) == nullptr);
}

TEST_CASE("root moves: results recorded, ranked, restored, and a line put first", "[search]") {
    Position pos;
    REQUIRE_FALSE(pos.set_fen(Position::START_FEN));
    const Move a = move(pos, "a2a3"), b = move(pos, "b2b3"), c = move(pos, "c2c3");
    RootMoves moves;
    moves.init(pos, {a, b, c});
    REQUIRE(moves.size() == 3);
    const Move reply[] = {move(pos, "e2e4")}; // any move stands for the rest of the line

    moves.start_iteration();
    moves.record(a, true, 10, -50, 50, 4, 100, reply, 1);   // the first move: exact
    moves.record(b, false, 10, 10, 11, 5, 200, nullptr, 0); // no better: unknown
    moves.record(c, false, 60, 10, 50, 6, 300, nullptr, 0); // fails high
    CHECK(moves[0].score == 10);
    CHECK(moves[0].bound == BOUND_EXACT);
    CHECK(moves[0].pv == std::vector<Move>{a, reply[0]});
    CHECK(moves[1].score == -SCORE_INFINITE);
    CHECK(moves[1].nodes == 200);
    CHECK(moves[2].bound == BOUND_LOWER);
    CHECK(moves[2].seldepth == 6);
    const RootMoves before = moves;

    moves.rank(0, false);
    CHECK(moves[0].move == c);
    CHECK(moves[1].move == a);
    CHECK(moves[2].move == b);
    moves.start_iteration();
    CHECK(moves[0].previous_score == 60);
    CHECK(moves[0].score == -SCORE_INFINITE);
    CHECK(moves[2].previous_score == -SCORE_INFINITE); // b was never scored

    moves.record(b, true, 5, -50, 50, 3, 1000, nullptr, 0);
    moves.restore(before); // the order and scores of before, the nodes of now
    CHECK(moves[0].move == a);
    CHECK(moves[1].move == b);
    CHECK(moves[1].score == -SCORE_INFINITE);
    CHECK(moves[1].nodes == 1200);

    CHECK_FALSE(moves.put_first({}, 0, 0));
    CHECK_FALSE(moves.put_first({reply[0]}, 0, 0)); // not a root move
    REQUIRE(moves.put_first({c, reply[0]}, 77, 9));
    CHECK(moves[0].move == c);
    CHECK(moves[0].score == 77);
    CHECK(moves[0].bound == BOUND_EXACT);
    CHECK(moves[0].seldepth == 9);
    CHECK(moves[1].move == a); // the others keep their order
    CHECK(moves[2].move == b);
}
