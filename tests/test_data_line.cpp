// The training-data line: what datagen writes, tune reads back (the one codec of both), and
// malformed lines are refused with a reason.
#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "core/position.hpp"
#include "movegen/movegen.hpp"
#include "train/data_line.hpp"

using namespace horizon;

TEST_CASE("data line: lines are parsed, malformed ones explained", "[data_line]") {
    DataLine d;
    CHECK_FALSE(read_data_line("8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 950 | 1.0", d));
    CHECK(d.score == 950);
    CHECK(d.result_halves == 2);
    CHECK_FALSE(read_data_line("8/8/4k3/8/8/3qK3/8/8 w - - | -900 | 0.0\r", d));
    CHECK(d.score == -900);
    CHECK(d.result_halves == 0);
    CHECK(d.pos.fen() == "8/8/4k3/8/8/3qK3/8/8 w - - 0 1");
    CHECK_FALSE(read_data_line("  8/8/4k3/8/8/4K3/8/q7 b - - 3 9|0|0.5  ", d));
    CHECK(d.result_halves == 1);
    CHECK_FALSE(read_data_line("8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | +12 | 1/2", d));
    CHECK(d.score == 12);
    CHECK(d.result_halves == 1);

    const std::pair<const char*, const char*> bad[] = {
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 950", "expected"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1", "expected"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 1 | 1.0 | 2", "more than three"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 12.5 | 1.0", "score"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 |  | 1.0", "score"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 1000001 | 1.0", "score"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 10 | 2.0", "result"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 10 | ", "result"},
        {"8/8/4k3/8/8/3QK3/8/9 w - - 0 1 | 10 | 1.0", "bad FEN"},
        {"8/8/4k3/8/8/3QK3/8/8 x - - 0 1 | 10 | 1.0", "bad FEN"},
        {" | 10 | 1.0", "bad FEN"},
        {"this is not datagen output", "expected"},
    };
    for (const auto& [line, why] : bad) {
        INFO(line);
        const auto err = read_data_line(line, d);
        REQUIRE(err);
        CHECK(err->find(why) != std::string::npos);
    }
}

TEST_CASE("data line: what is written reads back as the same position, score and result",
          "[data_line]") {
    // Positions along a game of first moves, from the start position; with each result and
    // scores of both signs, up to the limit.
    Position pos;
    const int scores[] = {0, 1, -1, 37, -4250, 31999, -DATA_SCORE_LIMIT, DATA_SCORE_LIMIT};
    int checked = 0;
    for (int ply = 0; ply < 40; ++ply) {
        MoveList list;
        generate<GenType::ALL>(pos, list);
        if (list.empty()) break;
        for (int result = 0; result <= 2; ++result)
            for (int score : scores) {
                std::string text;
                append_data_line(text, pos.fen(), score, result);
                INFO(text);
                REQUIRE(text.back() == '\n');
                const std::string line = text.substr(0, text.size() - 1);
                CHECK(line.find('\n') == std::string::npos);
                CHECK(line_kind(line) == LineKind::POSITION);
                DataLine d;
                const auto err = read_data_line(line, d);
                INFO(err.value_or(""));
                REQUIRE_FALSE(err);
                CHECK(d.pos.fen() == pos.fen());
                CHECK(d.pos.key() == pos.key());
                CHECK(d.score == score);
                CHECK(d.result_halves == result);
                ++checked;
            }
        pos.make_move(list[std::size_t(ply * 7) % list.size()]);
    }
    CHECK(checked > 500);
    // The format, to the byte.
    std::string text;
    append_data_line(text, Position::START_FEN, -35, 1);
    CHECK(text == std::string(Position::START_FEN) + " | -35 | 0.5\n");
}

TEST_CASE("data line: game ends and comments", "[data_line]") {
    std::string text;
    append_game_end(text, 1234567890123ULL);
    CHECK(text == "# game 1234567890123\n");
    const std::string line = text.substr(0, text.size() - 1);
    CHECK(line_kind(line) == LineKind::GAME_END);
    std::uint64_t game = 0;
    CHECK_FALSE(read_game_end(line, game));
    CHECK(game == 1234567890123ULL);

    CHECK(comment_line("horizon datagen: seed 7") == "# horizon datagen: seed 7");
    CHECK(line_kind(comment_line("anything at all | 1 | 1.0")) == LineKind::COMMENT);
    CHECK(line_kind("  # indented") == LineKind::COMMENT);
    CHECK(line_kind("# gamer 5") == LineKind::COMMENT);
    CHECK(line_kind("") == LineKind::BLANK);
    CHECK(line_kind(" \t\r") == LineKind::BLANK);
    CHECK(line_kind("8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 950 | 1.0") == LineKind::POSITION);

    for (const char* bad :
         {"# game ", "# game x", "# game -1", "# game 12 13", "# game 99999999999999999999999"}) {
        INFO(bad);
        REQUIRE(line_kind(bad) == LineKind::GAME_END);
        const auto err = read_game_end(bad, game);
        REQUIRE(err);
        CHECK(err->find("malformed game line") != std::string::npos);
    }
}

TEST_CASE("data line: numbers that overflow, doubled signs and trailing garbage are refused",
          "[data_line]") {
    const std::string fen = "8/8/4k3/8/8/3QK3/8/8 w - - 0 1";
    const std::pair<std::string, const char*> bad[] = {
        {fen + " | 99999999999999999999 | 1.0", "outside"},
        {fen + " | -99999999999999999999 | 1.0", "outside"},
        {fen + " | -1000001 | 1.0", "outside"},
        {fen + " | +-5 | 1.0", "score '+-5'"},
        {fen + " | ++5 | 1.0", "score '++5'"},
        {fen + " | -+5 | 1.0", "score '-+5'"},
        {fen + " | --5 | 1.0", "score '--5'"},
        {fen + " | + | 1.0", "score '+'"},
        {fen + " | - | 1.0", "score '-'"},
        {fen + " | 5x | 1.0", "score '5x'"},
        {fen + " | 5 5 | 1.0", "score '5 5'"},
        {fen + " | 0x10 | 1.0", "score '0x10'"},
        {fen + " | 1e3 | 1.0", "score '1e3'"},
        {fen + " | 5 | 1.0x", "result '1.0x'"},
        {fen + " | 5 | 1.00", "result '1.00'"},
        {fen + " | 5 | 1.0 1.0", "result '1.0 1.0'"},
        {fen + " | 5 | -0.0", "result '-0.0'"},
        {fen + " extra | 5 | 1.0", "bad FEN"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 99999999999 | 5 | 1.0", "bad FEN"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 99999999999 1 | 5 | 1.0", "bad FEN"},
        {"8/8/4k3/8/8/3QK3/8/8 w - | 5 | 1.0", "bad FEN"},
    };
    for (const auto& [line, why] : bad) {
        INFO(line);
        DataLine d;
        const auto err = read_data_line(line, d);
        INFO(err.value_or("accepted"));
        REQUIRE(err);
        CHECK(err->find(why) != std::string::npos);
    }
    // The limit itself, and a '+' or '-' before plain digits, are read.
    DataLine d;
    REQUIRE_FALSE(read_data_line(fen + " | -1000000 | 0.0", d));
    CHECK(d.score == -DATA_SCORE_LIMIT);
    REQUIRE_FALSE(read_data_line(fen + " | +007 | 0.0", d));
    CHECK(d.score == 7);
}

TEST_CASE("data line: a malformed field is shown escaped and cut short", "[data_line]") {
    DataLine d;
    const auto control = read_data_line("8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 1\x1b[2J | 1.0", d);
    REQUIRE(control);
    CHECK(control->find('\x1b') == std::string::npos);
    CHECK(control->find("1\\x1b[2J") != std::string::npos);
    const auto nul =
        read_data_line(std::string("8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 5 | 1.0\0", 41), d);
    REQUIRE(nul);
    CHECK(nul->find("\\x00") != std::string::npos);
    const std::string long_fen(100000, 'p');
    const auto long_line = read_data_line(long_fen + " | 5 | 1.0", d);
    REQUIRE(long_line);
    CHECK(long_line->find("bad FEN") != std::string::npos);
    CHECK(long_line->size() < 400);
    // The FEN reader quotes the bad field; it is shown escaped too.
    const auto side = read_data_line("8/8/4k3/8/8/3QK3/8/8 \x1b - - 0 1 | 5 | 1.0", d);
    REQUIRE(side);
    CHECK(side->find('\x1b') == std::string::npos);
    std::uint64_t game = 0;
    const auto game_err = read_game_end("# game 5\x07", game);
    REQUIRE(game_err);
    CHECK(game_err->find('\x07') == std::string::npos);
}
