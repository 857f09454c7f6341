// Notation: UCI move text.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "core/position.hpp"
#include "movegen/movegen.hpp"
#include "notation/uci_move.hpp"

#include "support.hpp"

using namespace horizon;
using namespace horizon::test;

// ---------------------------------------------------------------------------------------
// UCI notation

TEST_CASE("parse_uci_move accepts legal moves only", "[notation][uci]") {
    Position pos;
    CHECK(parse_uci_move(pos, "e2e4") == std::optional<Move>(Move(E2, E4)));
    CHECK(parse_uci_move(pos, "g1f3") == std::optional<Move>(Move(G1, F3)));
    for (const char* bad : {"e2e5", "e7e8x", "", "zzzz", "e2e4e", "e7e5", "e2", "e2e4q", "0000",
                            "e1g1", "a1a1", "e2e4 ", "E2E4", "e2e4Q"}) {
        INFO("'" << bad << "'");
        CHECK_FALSE(parse_uci_move(pos, bad).has_value());
    }

    Position promo = position_from("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(parse_uci_move(promo, "a7a8q") ==
          std::optional<Move>(Move::make(A7, A8, PROMOTION, QUEEN)));
    CHECK(parse_uci_move(promo, "a7a8n") ==
          std::optional<Move>(Move::make(A7, A8, PROMOTION, KNIGHT)));
    CHECK(parse_uci_move(promo, "a7a8r") ==
          std::optional<Move>(Move::make(A7, A8, PROMOTION, ROOK)));
    CHECK(parse_uci_move(promo, "a7a8b") ==
          std::optional<Move>(Move::make(A7, A8, PROMOTION, BISHOP)));
    CHECK_FALSE(parse_uci_move(promo, "a7a8").has_value());
    CHECK_FALSE(parse_uci_move(promo, "a7a8k").has_value());
    CHECK_FALSE(parse_uci_move(promo, "a7a8p").has_value());

    Position ep = position_from("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    CHECK(parse_uci_move(ep, "e5f6") == std::optional<Move>(Move::make(E5, F6, EN_PASSANT)));
    CHECK_FALSE(parse_uci_move(ep, "e5d6").has_value()); // d6 was not the double push
}

TEST_CASE("move_to_uci and parse_uci_move are inverse on every legal move", "[notation][uci]") {
    Failures failures;
    auto check_all = [&](const std::string& fen, bool chess960) {
        Position pos = position_from(fen, chess960);
        MoveList list;
        generate<GenType::ALL>(pos, list);
        for (Move m : list) {
            const std::string text = move_to_uci(pos, m);
            const auto back = parse_uci_move(pos, text);
            if (!back || *back != m) failures.add(fen + " move " + text);
            if (text.size() != 4 + (m.type() == PROMOTION)) failures.add(fen + " length " + text);
        }
    };
    for_each_perft_position(1, [&](const std::string& fen, bool chess960, const std::string&) {
        check_all(fen, chess960);
    });
    INFO(failures.first);
    CHECK(failures.count == 0);
}

TEST_CASE("UCI castling: king's step in standard chess, king takes rook in Chess960",
          "[notation][uci]") {
    const std::string fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    Position standard = position_from(fen);
    Position c960 = position_from(fen, true);
    const Move oo = Move::make(E1, H1, CASTLING);
    CHECK(move_to_uci(standard, oo) == "e1g1");
    CHECK(move_to_uci(c960, oo) == "e1h1");
    // Both forms are read in both modes.
    for (const Position* pos : {&standard, &c960}) {
        CHECK(parse_uci_move(*pos, "e1g1") == std::optional<Move>(oo));
        CHECK(parse_uci_move(*pos, "e1h1") == std::optional<Move>(oo));
    }
    CHECK(move_to_uci(standard, Move::none()) == "0000");
    CHECK(move_to_uci(standard, Move::null()) == "0000");
}
