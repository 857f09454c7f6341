// Syzygy tablebases through Fathom: loading (good, missing, foreign and truncated files),
// probes of known positions, and the root ranking. The tables are the 17 files of the 3- and
// 4-piece set that these positions need, committed in tests/data/syzygy (or wherever the CMake
// variable HORIZON_SYZYGY_DIR names).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "engine/bench.hpp"
#include "engine/engine.hpp"
#include "eval/tablebases.hpp"

#include "support.hpp"

using namespace horizon;
using namespace horizon::test;

namespace {

// A fresh folder under the system's temporary folder.
std::filesystem::path scratch(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("horizon-tb-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

} // namespace

TEST_CASE("Tablebases: the tests' tables load whole", "[tablebases]") {
    // tests/data/syzygy: 14 WDL tables (KBvK, KPvK, KQvK and KRvK of 3 pieces, ten of 4) and
    // the DTZ tables of KQvK, KRvK and KRvKP.
    Tablebases tb;
    const TbLoad load = tb.set_path(tables_folder());
    INFO(load.summary());
    CHECK(load.problems.empty());
    CHECK(load.wdl_tables == 14);
    CHECK(load.dtz_tables == 3);
    REQUIRE(load.wdl_by_pieces.size() == 5);
    CHECK(load.wdl_by_pieces[3] == 4);
    CHECK(load.wdl_by_pieces[4] == 10);
    CHECK(tb.largest() == 4);
    CHECK(load.summary() == "found 14 WDL and 3 DTZ tables: 4 of 3 pieces, 10 of 4 pieces");
    // And off again.
    tb.set_path("");
    CHECK_FALSE(tb.enabled());
    CHECK_FALSE(tb.probe(position_from("8/8/8/8/8/k7/2R5/4K3 w - - 0 1")));
}

TEST_CASE("Tablebases: known verdicts, with and without the fifty-move counter", "[tablebases]") {
    Tablebases tb;
    tb.set_path(tables_folder());
    REQUIRE(tb.enabled());
    // KRvK: a win for the side with the rook, a loss for the other.
    auto krk = tb.probe(position_from("8/8/8/8/8/k7/2R5/4K3 w - - 0 1"));
    REQUIRE(krk);
    CHECK(krk->wdl == TbWdl::WIN);
    CHECK(krk->dtz == 17); // as Debian's fathom reports it
    auto krk_b = tb.probe(position_from("8/8/8/8/8/k7/2R5/4K3 b - - 0 1"));
    REQUIRE(krk_b);
    CHECK(krk_b->wdl == TbWdl::LOSS);
    CHECK(*krk_b->dtz < 0);
    // The wrong bishop for the rook pawn: a draw.
    auto wrong_bishop = tb.probe(position_from("7k/8/7P/8/8/8/4B3/6K1 w - - 0 1"));
    REQUIRE(wrong_bishop);
    CHECK(wrong_bishop->wdl == TbWdl::DRAW);
    CHECK(wrong_bishop->dtz == 0);
    // The same KQvK loss, late in the fifty moves: saved by the rule.
    auto blessed = tb.probe(position_from("8/1q6/8/3k4/8/8/1K6/8 w - - 90 60"));
    REQUIRE(blessed);
    CHECK(blessed->wdl == TbWdl::BLESSED_LOSS);
    CHECK(tb_wdl_without_rule50(blessed->wdl) == TbWdl::LOSS);
    // The WDL probe needs the counter at zero; the full probe does not.
    CHECK_FALSE(tb.probe_wdl(position_from("8/1q6/8/3k4/8/8/1K6/8 w - - 90 60")));
    CHECK(tb.probe_wdl(position_from("8/1q6/8/3k4/8/8/1K6/8 w - - 0 60")) == TbWdl::LOSS);
    // Checkmated and stalemated: a loss and a draw, nothing to zero.
    auto mated = tb.probe(position_from("3r3K/8/5P1k/8/8/8/8/8 w - - 0 60"));
    REQUIRE(mated);
    CHECK(mated->wdl == TbWdl::LOSS);
    CHECK(mated->dtz == 0);
    // Not in the tables: too many pieces, or castling rights.
    CHECK_FALSE(tb.probe(position_from(std::string(Position::START_FEN))));
    CHECK_FALSE(tb.probe(position_from("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")));
    CHECK_FALSE(tb.covers(position_from("8/8/8/8/8/k7/2R5/4K3 w - - 0 1"), 2));
}

TEST_CASE("Tablebases: an en passant capture is handed over", "[tablebases]") {
    Tablebases tb;
    tb.set_path(tables_folder());
    REQUIRE(tb.enabled());
    // White has just played e2e4 beside Black's d4 pawn: with dxe3 e.p. on the board Black
    // wins, without it the position is a draw (both as Debian's fathom reports them).
    auto with_ep = tb.probe(position_from("3k4/8/8/8/3pP3/K7/8/8 b - e3 0 60"));
    auto without = tb.probe(position_from("3k4/8/8/8/3pP3/K7/8/8 b - - 0 60"));
    REQUIRE(with_ep);
    REQUIRE(without);
    CHECK(with_ep->wdl == TbWdl::WIN);
    CHECK(without->wdl == TbWdl::DRAW);
}

TEST_CASE("Tablebases: root moves ranked, the winning ones first", "[tablebases]") {
    Tablebases tb;
    tb.set_path(tables_folder());
    const Position pos = position_from("8/8/8/8/8/k7/2R5/4K3 w - - 0 1");
    auto ranking = tb.rank_root_moves(pos, true, false);
    REQUIRE(ranking);
    CHECK(ranking->by_dtz);
    CHECK(ranking->moves.size() == 19); // every legal move
    int wins = 0, draws = 0;
    for (const auto& m : ranking->moves) {
        wins += m.wdl == TbWdl::WIN;
        draws += m.wdl == TbWdl::DRAW;
        if (m.wdl == TbWdl::DRAW) CHECK(m.rank == 0);
        if (m.wdl == TbWdl::WIN) CHECK(m.rank > 0);
    }
    // fathom: 17 winning moves, Ra2 and Rb2 draw (the king takes the rook).
    CHECK(wins == 17);
    CHECK(draws == 2);
}

TEST_CASE("Tablebases: bad folders and files are named, never fatal", "[tablebases]") {
    Tablebases tb;
    SECTION("a folder that is not there") {
        const TbLoad load = tb.set_path("/no/such/folder/horizon");
        CHECK_FALSE(tb.enabled());
        REQUIRE(load.problems.size() == 1);
        CHECK(load.problems[0].find("is not a folder") != std::string::npos);
        CHECK(load.summary() == "no tables found");
    }
    SECTION("a folder of files that are not tables") {
        const auto dir = scratch("foreign");
        std::ofstream(dir / "notes.txt") << "not a table\n";
        std::ofstream(dir / "KQvK.txt") << "not a table either\n";
        const TbLoad load = tb.set_path(dir.string());
        CHECK_FALSE(tb.enabled());
        CHECK(load.problems.empty());
        CHECK(load.summary() == "no tables found");
    }
    SECTION("a table truncated to half its size, and one with a foreign head") {
        const auto dir = scratch("truncated");
        const auto src = std::filesystem::path(tables_folder());
        for (const char* name : {"KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"})
            std::filesystem::copy_file(src / name, dir / name);
        const auto half = std::filesystem::file_size(dir / "KQvK.rtbw") / 2;
        std::filesystem::resize_file(dir / "KQvK.rtbw", half);
        {
            // KRvK.rtbz keeps its size but loses its magic number.
            std::fstream f(dir / "KRvK.rtbz", std::ios::in | std::ios::out | std::ios::binary);
            f.write("XXXX", 4);
        }
        const TbLoad load = tb.set_path(dir.string());
        INFO(load.summary());
        REQUIRE(load.problems.size() == 2);
        CHECK(load.problems[0].find("KQvK.rtbw is not a complete table") == 0);
        CHECK(load.problems[1].find("KRvK.rtbz is not a Syzygy table") == 0);
        CHECK(load.wdl_tables == 1); // KRvK's WDL table is whole
        CHECK(load.dtz_tables == 0);
        // The truncated table is not used; probing its positions fails cleanly.
        CHECK_FALSE(tb.probe(position_from("8/8/8/8/8/k7/2Q5/4K3 w - - 0 1")));
        // The whole WDL table answers; its broken DTZ table leaves the WDL verdict alone.
        CHECK(tb.probe_wdl(position_from("8/8/8/8/8/k7/2R5/4K3 w - - 0 1")) == TbWdl::WIN);
        auto probe = tb.probe(position_from("8/8/8/8/8/k7/2R5/4K3 w - - 0 1"));
        REQUIRE(probe);
        CHECK(probe->wdl == TbWdl::WIN);
        CHECK_FALSE(probe->dtz);
    }
}

TEST_CASE("Tablebases: the path splits as the system splits paths", "[tablebases]") {
#ifdef _WIN32
    CHECK(split_tb_path("C:\\tb 3;D:\\tb\\6;;") ==
          std::vector<std::string>{"C:\\tb 3", "D:\\tb\\6"});
#else
    CHECK(split_tb_path("/a b/3:/c/6::") == std::vector<std::string>{"/a b/3", "/c/6"});
#endif
    CHECK(split_tb_path("").empty());
}

TEST_CASE("Position::has_repeated: a position twice since the last capture or pawn move",
          "[tablebases]") {
    Position pos = position_from("8/8/8/8/8/k7/2R5/4K3 w - - 0 1");
    CHECK_FALSE(pos.has_repeated());
    auto play = [&](Square from, Square to) { pos.make_move(Move::make(from, to)); };
    play(E1, D1);
    play(A3, A4);
    CHECK_FALSE(pos.has_repeated());
    play(D1, E1);
    play(A4, A3);
    CHECK(pos.has_repeated()); // the start position again
    play(E1, F1);
    CHECK(pos.has_repeated()); // still: it stood twice in the stretch
}

namespace {

struct TableSearch {
    SearchResult result;
    std::vector<SearchReport> reports;
};

TableSearch search_with_tables(Engine& engine, const std::string& fen, int depth) {
    REQUIRE_FALSE(engine.set_position(fen, {}));
    SearchLimits limits;
    limits.depth = depth;
    TableSearch s;
    s.result = engine.search_sync(limits, [&](const SearchReport& r) { s.reports.push_back(r); });
    return s;
}

// The tables' verdict for the side to move after `m`.
std::optional<TbWdl> after(const Engine& engine, Move m) {
    Position pos = engine.position();
    pos.make_move(m);
    auto probe = engine.tablebases().probe(pos);
    return probe ? std::optional<TbWdl>(probe->wdl) : std::nullopt;
}

} // namespace

TEST_CASE("Search with tables: a won root reports the table's win and keeps it",
          "[tablebases][search]") {
    Engine engine;
    engine.set_syzygy_path(tables_folder());
    // Without tables Horizon saw an evaluation here (cp 803 at depth 18).
    const auto s = search_with_tables(engine, "8/8/8/8/8/k7/2R5/4K3 w - - 0 1", 8);
    CHECK(s.result.score >= SCORE_TB_WIN_IN_MAX_PLY);
    CHECK(after(engine, s.result.best) == TbWdl::LOSS); // Ra2 or Rb2 would draw
    REQUIRE_FALSE(s.reports.empty());
    CHECK(s.reports.back().tbhits.has_value());
    // The losing side is told so too.
    const auto lost = search_with_tables(engine, "8/8/8/8/8/k7/2R5/4K3 b - - 0 1", 8);
    CHECK(lost.result.score <= -SCORE_TB_WIN_IN_MAX_PLY);
}

TEST_CASE("Search with tables: a drawn root is held, and scores as the draw it is",
          "[tablebases][search]") {
    Engine engine;
    engine.set_syzygy_path(tables_folder());
    // The wrong bishop for the rook pawn (Horizon said cp 493 at depth 18 without tables).
    const auto s = search_with_tables(engine, "7k/8/7P/8/8/8/4B3/6K1 w - - 0 1", 10);
    CHECK(s.result.score == SCORE_DRAW);
    CHECK(after(engine, s.result.best) == TbWdl::DRAW);
    // As the defender: every move it may play keeps the draw.
    const auto d = search_with_tables(engine, "7k/8/7P/8/8/8/4B3/6K1 b - - 0 1", 10);
    CHECK(d.result.score == SCORE_DRAW);
    CHECK(after(engine, d.result.best) == TbWdl::DRAW);
}

TEST_CASE("Search with tables: a found mate outranks a table win", "[tablebases][search]") {
    Engine engine;
    engine.set_syzygy_path(tables_folder());
    const auto s = search_with_tables(engine, "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", 6);
    CHECK(s.result.score == mate_in(1));
    Position pos = engine.position();
    pos.make_move(s.result.best);
    MoveList replies;
    generate<GenType::ALL>(pos, replies);
    CHECK(pos.in_check());
    CHECK(replies.empty());
}

TEST_CASE("Search with tables: probes below the root are counted and stored",
          "[tablebases][search]") {
    Engine engine;
    engine.set_syzygy_path(tables_folder());
    // Five pieces: not in the 3-4 piece tables, until a capture.
    const auto s = search_with_tables(engine, "8/8/4k3/8/2r5/3P4/2R5/4K3 w - - 0 1", 10);
    CHECK(s.result.tbhits > 0);
    CHECK(s.result.best == Move::make(D3, C4)); // takes the rook: a won KRvK
    CHECK(s.result.score >= SCORE_TB_WIN_IN_MAX_PLY);
    // Off again: no probes, no table scores.
    engine.set_syzygy_path("");
    const auto off = search_with_tables(engine, "8/8/4k3/8/2r5/3P4/2R5/4K3 w - - 0 1", 10);
    CHECK(off.result.tbhits == 0);
    CHECK(off.result.score < SCORE_TB_WIN_IN_MAX_PLY);
    REQUIRE_FALSE(off.reports.empty());
    CHECK_FALSE(off.reports.back().tbhits.has_value());
}

TEST_CASE("Search with tables: searchmoves narrow the tables' choice", "[tablebases][search]") {
    Engine engine;
    engine.set_syzygy_path(tables_folder());
    REQUIRE_FALSE(engine.set_position("8/8/8/8/8/k7/2R5/4K3 w - - 0 1", {}));
    // Only a drawing move and a king move offered: the tables keep the king move.
    const Move draw = Move::make(C2, A2), king = Move::make(E1, D1);
    SearchLimits limits;
    limits.depth = 6;
    std::optional<Move> best;
    engine.go(limits, {draw, king}, {nullptr, [&](Move b, Move) { best = b; }, nullptr});
    engine.wait();
    REQUIRE(best);
    CHECK(*best == king);
}

TEST_CASE("Bench: the same nodes without tables; with them, its table hits",
          "[tablebases][search]") {
    std::ostringstream plain, with_tables;
    const BenchResult a = run_bench(6, plain);
    const BenchResult b = run_bench(6, with_tables, 1, nullptr, tables_folder());
    CHECK(a.tbhits == 0);
    CHECK(plain.str().find("Table hits") == std::string::npos);
    CHECK(with_tables.str().find("Table hits: " + std::to_string(b.tbhits)) != std::string::npos);
    CHECK(with_tables.str().find("Syzygy: found 14 WDL") != std::string::npos);
}

TEST_CASE("tbprobe: the tables' verdict of a FEN given bare or after --fen; bad options named",
          "[tablebases][cli]") {
    const std::string tables = "--syzygy-path '" + tables_folder() + "' ";
    const std::string krk = "8/8/8/8/8/k7/2R5/4K3 w - - 0 1";
    // White to move wins with the rook: DTZ 17, as Debian's /usr/games/fathom gives it too.
    for (const std::string& fen : {krk, "'" + krk + "'", "--fen '" + krk + "'", "--fen " + krk}) {
        INFO(fen);
        const ShellRun r = run_horizon("tbprobe " + tables + fen, false);
        CHECK(r.status == 0);
        CHECK(r.output == krk + " | win | 17\n");
    }
    for (const auto& [args, words] : std::vector<std::pair<std::string, std::string>>{
             {"tbprobe " + tables + "--dtz " + krk, "--dtz: no such flag"},
             {"tbprobe " + tables + "--random 3 --dtz", "--dtz: no such flag"},
             {"tbprobe " + tables + "--random 3 " + krk, "not both"},
             {"tbprobe " + krk, "--syzygy-path is needed"},
             {"tbprobe " + tables + "8/8/8/8/8/8/2R5/4K3 w - - 0 1", "bad FEN"}}) {
        INFO(args);
        const ShellRun r = run_horizon(args);
        INFO(r.output);
        CHECK(r.status == 2);
        CHECK(r.output.find(words) != std::string::npos);
        CHECK(r.output.find("| win") == std::string::npos);
    }
}
