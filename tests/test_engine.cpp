// The engine facade: positions handed over as positions (a start and typed moves, or one move
// at a time) and as text, with the same result; a refused position keeps the last good one.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/position.hpp"
#include "engine/config.hpp"
#include "engine/engine.hpp"
#include "eval/engine_file.hpp"
#include "notation/uci_move.hpp"

using namespace horizon;

namespace {

std::vector<Move> typed(Position pos, const std::vector<std::string>& texts) {
    std::vector<Move> moves;
    for (const auto& t : texts) {
        auto m = parse_uci_move(pos, t);
        REQUIRE(m);
        moves.push_back(*m);
        pos.make_move(*m);
    }
    return moves;
}

} // namespace

TEST_CASE("Engine: a start position and typed moves give what the text form gives", "[engine]") {
    const std::vector<std::string> texts = {"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"};
    Engine by_text, by_moves, by_play;
    REQUIRE_FALSE(by_text.set_position(std::string(Position::START_FEN), texts));
    Position start;
    REQUIRE_FALSE(start.set_fen(Position::START_FEN));
    const auto moves = typed(start, texts);
    REQUIRE_FALSE(by_moves.set_position(start, moves));
    REQUIRE_FALSE(by_play.set_position(start));
    for (Move m : moves)
        REQUIRE_FALSE(by_play.play(m));
    CHECK(by_moves.position().fen() == by_text.position().fen());
    CHECK(by_moves.position().key() == by_text.position().key());
    CHECK(by_play.position().fen() == by_text.position().fen());
    CHECK(by_play.position().key() == by_text.position().key());
}

TEST_CASE("Engine: moves handed over as positions keep the history for repetitions", "[engine]") {
    Position start;
    REQUIRE_FALSE(start.set_fen(Position::START_FEN));
    const auto moves = typed(start, {"g1f3", "g8f6", "f3g1", "f6g8"});
    Engine engine;
    REQUIRE_FALSE(engine.set_position(start, moves));
    // Twice is not yet a repetition before the root; three times is.
    CHECK_FALSE(engine.position().is_repetition(0));
    REQUIRE_FALSE(engine.set_position(engine.position(), moves));
    CHECK(engine.position().is_repetition(0));
    Engine fresh;
    REQUIRE_FALSE(fresh.set_position(engine.position()));
    CHECK(fresh.position().is_repetition(0));
}

TEST_CASE("Engine: an illegal typed move is refused and the last good position kept", "[engine]") {
    Position start;
    REQUIRE_FALSE(start.set_fen(Position::START_FEN));
    Engine engine;
    const auto moves = typed(start, {"e2e4"});
    REQUIRE_FALSE(engine.set_position(start, moves));
    const std::string good = engine.position().fen();
    // e2e4 again: no pawn on e2 any more.
    auto err = engine.set_position(engine.position(), moves);
    REQUIRE(err);
    CHECK(err->find("e2e4") != std::string::npos);
    CHECK(engine.position().fen() == good);
    err = engine.play(moves[0]);
    REQUIRE(err);
    CHECK(engine.position().fen() == good);
    // A legal one goes through.
    auto reply = parse_uci_move(engine.position(), "e7e5");
    REQUIRE(reply);
    CHECK_FALSE(engine.play(*reply));
    CHECK(engine.position().fen() != good);
}

TEST_CASE("Engine: one version, engine.json's, which the build takes too", "[engine]") {
    // HORIZON_VERSION is the project version CMake read from engine.json; the UCI id name and
    // the release files' names come from the two.
    CHECK(std::string(HORIZON_VERSION) == engine_identity().version);
    CHECK(builtin_config().at("engine").at("version") == engine_identity().version);
}
