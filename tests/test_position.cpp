// Position: FEN parsing and printing, make/unmake and hashing, gives_check, SEE, draws,
// Chess960 castling and UCI move notation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/attacks.hpp"
#include "core/position.hpp"
#include "engine/engine.hpp"
#include "movegen/movegen.hpp"
#include "movegen/perft.hpp"
#include "notation/epd.hpp"
#include "notation/pgn_reader.hpp"
#include "notation/uci_move.hpp"
#include "uci/uci.hpp"

#include "support.hpp"

using namespace horizon;
using namespace horizon::test;

namespace {

const std::string KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

// The moves of `pos` whose UCI text is `uci`; REQUIREs that exactly one exists.
Move legal_move(const Position& pos, const std::string& uci) {
    const auto m = parse_uci_move(pos, uci);
    INFO("move " << uci << " in " << pos.fen());
    REQUIRE(m.has_value());
    return *m;
}

void play(Position& pos, std::initializer_list<const char*> moves) {
    for (const char* uci : moves)
        pos.make_move(legal_move(pos, uci));
}

// Checkers worked out from the board array and the reference slider attacks only.
Bitboard reference_checkers(const Position& pos) {
    const Color us = pos.side_to_move();
    Square ksq = NO_SQUARE;
    Bitboard occ = 0;
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Square s = Square(i);
        if (pos.piece_on(s) != NO_PIECE) occ |= square_bb(s);
        if (pos.piece_on(s) == make_piece(us, KING)) ksq = s;
    }
    return reference_attackers(pos, ksq, ~us, occ);
}

// The piece bitboards agree with the board array.
bool bitboards_match_board(const Position& pos) {
    for (Color c : {WHITE, BLACK}) {
        for (int pt = PAWN; pt <= KING; ++pt) {
            Bitboard from_board = 0;
            for (int i = 0; i < SQUARE_NB; ++i)
                if (pos.piece_on(Square(i)) == make_piece(c, PieceType(pt)))
                    from_board |= square_bb(Square(i));
            if (pos.pieces(c, PieceType(pt)) != from_board) return false;
        }
    }
    return pos.pieces() == (pos.pieces(WHITE) | pos.pieces(BLACK)) &&
           !(pos.pieces(WHITE) & pos.pieces(BLACK));
}

// Both forms of gives_check (alone, and with the node's CheckInfo) against the real thing.
bool gives_check_matches(Position& pos, Move m) {
    const bool predicted = pos.gives_check(m);
    const bool with_info = pos.gives_check(m, pos.check_info());
    pos.make_move(m);
    const bool actual = pos.in_check();
    pos.unmake_move(m);
    return predicted == actual && with_info == actual;
}

} // namespace

// ---------------------------------------------------------------------------------------
// FEN

TEST_CASE("FEN round trip on canonical FENs", "[position][fen]") {
    const std::vector<std::string> fens = {
        std::string(Position::START_FEN),
        KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        // En passant possible: white e5 can take f6 after ...f7-f5.
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        // En passant possible with black to move: d4xc3 after c2-c4.
        "rnbqkbnr/ppp1pppp/8/8/2Pp4/5NP1/PP1PPP1P/RNBQKB1R b KQkq c3 0 3",
        // Castling subsets.
        "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 5 20",
        "r3k2r/8/8/8/8/8/8/R3K2R w q - 12 31",
        "4k2r/8/8/8/8/8/8/R3K3 b Qk - 0 1",
        // Clocks, black to move, side to move in check.
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "4k3/8/8/8/8/8/8/4K2R w K - 99 200",
        "8/P7/8/8/8/8/7p/K6k b - - 0 60",
        "4k3/8/8/8/8/8/4q3/4K3 w - - 7 45",
    };
    for (const auto& fen : fens) {
        Position pos;
        const auto err = pos.set_fen(fen);
        INFO("FEN: " << fen << "  error: " << (err ? err->message : std::string()));
        REQUIRE_FALSE(err.has_value());
        CHECK(pos.fen() == fen);
        CHECK(pos.key() == pos.compute_key());
        CHECK(pos.pawn_key() == pos.compute_pawn_key());
        CHECK(pos.non_pawn_key(WHITE) == pos.compute_non_pawn_key(WHITE));
        CHECK(pos.non_pawn_key(BLACK) == pos.compute_non_pawn_key(BLACK));
        CHECK(pos.checkers() == reference_checkers(pos));
        CHECK(bitboards_match_board(pos));
    }
}

TEST_CASE("FEN fields are read into the position", "[position][fen]") {
    Position pos = position_from("rnbqkbnr/ppp1pppp/8/8/2Pp4/5NP1/PP1PPP1P/RNBQKB1R b KQkq c3 0 3");
    CHECK(pos.side_to_move() == BLACK);
    CHECK(pos.ep_square() == C3);
    CHECK(pos.castling_rights() == ALL_CASTLING);
    CHECK(pos.fullmove_number() == 3);
    CHECK(pos.game_ply() == 5);
    CHECK(pos.piece_on(D4) == B_PAWN);
    CHECK(pos.piece_on(F3) == W_KNIGHT);
    CHECK(pos.king_square(WHITE) == E1);
    CHECK(pos.count(WHITE, PAWN) == 8);
    CHECK_FALSE(pos.is_chess960());

    pos = position_from("4k3/8/8/8/8/8/8/4K2R w K - 99 200");
    CHECK(pos.rule50() == 99);
    CHECK(pos.fullmove_number() == 200);
    CHECK(pos.castling_rights() == WHITE_OO);
    CHECK(pos.castling_rook(castling_index(WHITE, true)) == H1);

    // An en-passant square no pawn can use is dropped, so equal positions hash equal.
    Position with_ep = position_from("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    Position without = position_from("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    CHECK(with_ep.ep_square() == NO_SQUARE);
    CHECK(with_ep.key() == without.key());
    CHECK(with_ep.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

TEST_CASE("a FEN without its move counters reads as halfmove 0, fullmove 1", "[position][fen]") {
    // Both counters left off, as EPD and many web pages give a FEN.
    const std::string after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
    Position pos = position_from(after_e4);
    CHECK(pos.fen() == after_e4 + " 0 1");
    CHECK(pos.rule50() == 0);
    CHECK(pos.fullmove_number() == 1);
    CHECK(pos.game_ply() == 1);
    CHECK(pos.key() == position_from(after_e4 + " 0 1").key());
    // The fullmove number alone left off: the fifth field is the halfmove clock.
    pos = position_from(after_e4 + " 7");
    CHECK(pos.fen() == after_e4 + " 7 1");
    CHECK(pos.rule50() == 7);
    // Tabs and runs of spaces between the fields, and a kept en-passant square.
    pos = position_from("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR\tw  KQkq d6");
    CHECK(pos.ep_square() == D6);
    CHECK(pos.fen() == "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 1");
    // Chess960 with Shredder-FEN castling and no counters.
    pos = position_from("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea -", true);
    CHECK(pos.fen() == "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1"); // X-FEN
    CHECK(pos.is_chess960());
}

TEST_CASE("a FEN without move counters: the same reading at every entry point",
          "[position][fen][uci]") {
    const std::string four = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
    const std::string full = four + " 0 1";
    const std::string five = four + " 12";
    const std::string bad = "4k3/8/8/8/8/8/8/P3K3 w - -"; // a pawn on the first rank

    // UCI `position fen`, with and without moves after it.
    {
        std::istringstream in;
        std::ostringstream out;
        Engine engine;
        UciLoop loop{in, out, engine};
        loop.handle("position fen " + four);
        CHECK(engine.position().fen() == full);
        loop.handle("position fen " + five);
        CHECK(engine.position().fen() == four + " 12 1");
        loop.handle("position fen " + four + " moves e1g1 a6e2");
        Position expected = position_from(full);
        play(expected, {"e1g1", "a6e2"});
        CHECK(engine.position().fen() == expected.fen());
        CHECK(out.str().empty());
        // Still strict: refused with an info string, the last good position kept.
        loop.handle("position fen " + bad);
        CHECK(engine.position().fen() == expected.fen());
        CHECK(out.str().find("info string") != std::string::npos);
        CHECK(out.str().find("pawn") != std::string::npos);
        engine.stop();
        engine.wait();
    }

    // The EPD reader (four fields, operations after them).
    std::string error;
    const auto epd = parse_epd(four + " bm Qxf6; id \"kiwipete\";", error);
    REQUIRE(epd.has_value());
    CHECK(epd->pos.fen() == full);
    CHECK_FALSE(parse_epd(bad + " bm Kd1;", error).has_value());
    CHECK(error.find("pawn") != std::string::npos);

    // A PGN FEN tag of four or five fields.
    const auto games = read_pgn("[SetUp \"1\"]\n[FEN \"" + four + "\"]\n\n1. O-O *\n\n" +
                                "[SetUp \"1\"]\n[FEN \"" + five + "\"]\n\n1. O-O *\n\n" +
                                "[SetUp \"1\"]\n[FEN \"" + bad + "\"]\n\n1. Kd1 *\n");
    REQUIRE(games.size() == 3);
    REQUIRE_FALSE(games[0].error.has_value());
    CHECK(games[0].start.fen() == full);
    CHECK(games[0].moves.moves.size() == 1);
    REQUIRE_FALSE(games[1].error.has_value());
    CHECK(games[1].start.fen() == four + " 12 1");
    REQUIRE(games[2].error.has_value());
    CHECK(games[2].error->reason.find("bad FEN tag") == 0);

    // The command line: perft --fen and eval read it as the full FEN, and refuse the bad one.
    const ShellRun perft_four = run_horizon("perft --fen '" + four + "' --depth 2", false);
    const ShellRun perft_full = run_horizon("perft --fen '" + full + "' --depth 2", false);
    CHECK(perft_four.status == 0);
    CHECK(perft_four.output.find("Nodes searched: 2039") != std::string::npos);
    CHECK(perft_full.output.find("Nodes searched: 2039") != std::string::npos);
    const ShellRun perft_bad = run_horizon("perft --fen '" + bad + "' --depth 2");
    CHECK(perft_bad.status == 2);
    CHECK(perft_bad.output.find("bad FEN") != std::string::npos);
    const ShellRun eval_four = run_horizon("eval " + four, false);
    CHECK(eval_four.status == 0);
    CHECK(eval_four.output.rfind(full + "\n", 0) == 0);
    const ShellRun eval_bad = run_horizon("eval " + bad);
    CHECK(eval_bad.status == 2);
    CHECK(eval_bad.output.find("bad FEN") != std::string::npos);
    // eval also takes it after --fen, as perft and analyze do: quoted, unquoted or with '='.
    for (const std::string& args :
         {"eval --fen '" + four + "'", "eval --fen " + four, "eval '--fen=" + four + "'"}) {
        INFO(args);
        const ShellRun r = run_horizon(args, false);
        CHECK(r.status == 0);
        CHECK(r.output.rfind(full + "\n", 0) == 0);
    }
    // An option eval does not know is named, not read as part of the FEN.
    const ShellRun eval_unknown = run_horizon("eval --depth 3 " + four);
    CHECK(eval_unknown.status == 2);
    CHECK(eval_unknown.output.find("--depth: no such flag") != std::string::npos);
    CHECK(eval_unknown.output.find("Final evaluation") == std::string::npos);
}

TEST_CASE("bad FENs are rejected and leave the position unchanged", "[position][fen]") {
    struct Bad {
        std::string fen;
        std::string keyword; // a word the error message must contain
    };
    const std::vector<Bad> bad = {
        // Field count (the two move counters may be left off, nothing else).
        {"", "6 fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1", "6 fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "6 fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "6 fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "6 fields"},
        // Placement.
        {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w Qkq - 0 1", "placement"},
        {"rnbqkbnr/pppppppp/8/8/4P4/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "placement"},
        {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
        {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
        {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
        {"rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
        {"rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
        {"rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
        // Kings and pawns.
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1", "kings"},
        {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "kings"},
        {"8/8/8/8/8/8/8/8 w - - 0 1", "kings"},
        {"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn"},
        {"p3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn"},
        {"P3k3/8/8/8/8/8/8/4K3 b - - 0 1", "pawn"},
        {"4k3/8/8/8/8/8/8/4K2p b - - 0 1", "pawn"},
        {"4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1", "pawns"},
        // Side to move.
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side to move"},
        // Castling rights without the pieces, and bad letters.
        {"r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", "castling"},
        {"r3k2r/8/8/8/8/8/4K3/R6R w Q - 0 1", "castling"},
        {"r3k3/8/8/8/8/8/8/R3K2R w Kk - 0 1", "castling"},
        {"4k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w G - 0 1", "castling"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w E - 0 1", "castling"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", "castling"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQ1 - 0 1", "castling"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KKkq - 0 1", "castling"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1", "castling"},
        // En passant.
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "en passant"},
        {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d6 0 2", "en passant"},
        {"rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "en passant"},
        {"rnbqkbnr/ppp2ppp/3p4/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "en passant"},
        {"rn1qkbnr/pppbpppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "en passant"},
        {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d9 0 3", "en passant"},
        {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq i6 0 3", "en passant"},
        {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d 0 3", "en passant"},
        // Clocks.
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1", "halfmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", "fullmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one", "fullmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1x", "fullmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1", "halfmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x", "halfmove"},
        // Without the counters, every other field is as strict as ever.
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq -", "kings"},
        {"4k3/8/8/8/8/8/8/P3K3 w - -", "pawn"},
        {"r3k2r/8/8/8/8/8/8/R3K3 w KQkq -", "castling"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3", "en passant"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -", "side to move"},
        {"4k3/8/8/8/8/8/8/4R1K1 w - -", "in check"},
        {"4k3/8/8/8/8/8/8/4R1K1 w - - 0", "in check"},
        // Checks that cannot happen.
        {"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "in check"},
        {"4k3/8/8/8/8/8/8/r3K3 b - - 0 1", "in check"}, // white, not to move, in check
        {"4k3/8/3N4/8/B7/8/8/4R1K1 b - - 0 1", "check"},
    };

    for (bool start_960 : {false, true}) {
        // Start from a non-default position so "unchanged" means something.
        const std::string start =
            start_960 ? "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1" : KIWIPETE;
        Position pos = position_from(start, start_960);
        const std::string fen_before = pos.fen();
        const Key key_before = pos.key();
        const std::uint64_t moves_before = count_legal_moves(pos);
        for (const auto& b : bad) {
            for (bool as_960 : {false, true}) {
                INFO("bad FEN: '" << b.fen << "' chess960=" << as_960);
                const auto err = pos.set_fen(b.fen, as_960);
                REQUIRE(err.has_value());
                INFO("message: " << err->message);
                CHECK_FALSE(err->message.empty());
                CHECK(err->message.find(b.keyword) != std::string::npos);
                CHECK(pos.fen() == fen_before);
                CHECK(pos.key() == key_before);
                CHECK(pos.is_chess960() == start_960);
                CHECK(count_legal_moves(pos) == moves_before);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Chess960

TEST_CASE("Shredder-FEN castling letters", "[position][chess960]") {
    const std::string fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    for (bool flag : {true, false}) {
        // Shredder letters mean Chess960 even without the flag.
        Position pos = position_from(fen, flag);
        CHECK(pos.is_chess960());
        CHECK(pos.castling_rights() == ALL_CASTLING);
        CHECK(pos.castling_rook(castling_index(WHITE, true)) == H1);
        CHECK(pos.castling_rook(castling_index(WHITE, false)) == F1);
        CHECK(pos.castling_rook(castling_index(BLACK, true)) == H8);
        CHECK(pos.castling_rook(castling_index(BLACK, false)) == F8);
        CHECK(perft(pos, 1) == 21);
        CHECK(perft(pos, 2) == 528);
        // The printed FEN (X-FEN letters here) reads back as the same position.
        Position again = position_from(pos.fen(), true);
        CHECK(again.key() == pos.key());
        CHECK(again.fen() == pos.fen());
        for (int i = 0; i < 4; ++i)
            CHECK(again.castling_rook(i) == pos.castling_rook(i));
    }
}

TEST_CASE("Chess960 castling moves print and parse as king takes rook", "[position][chess960]") {
    Position pos = position_from("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1", true);
    MoveList list;
    generate<GenType::ALL>(pos, list);
    std::vector<std::string> castles;
    for (Move m : list)
        if (m.type() == CASTLING) castles.push_back(move_to_uci(pos, m));
    std::sort(castles.begin(), castles.end());
    CHECK(castles == std::vector<std::string>{"c1a1", "c1e1"});

    const Move oo = legal_move(pos, "c1e1");
    CHECK(oo == Move::make(C1, E1, CASTLING));
    const Move ooo = legal_move(pos, "c1a1");
    CHECK(ooo == Move::make(C1, A1, CASTLING));
    // The king's destination is also understood when it names no other move.
    CHECK(parse_uci_move(pos, "c1g1") == std::optional<Move>(oo));
    // When it does name another move, that move wins: here b1c1 is a plain king step and
    // queen-side castling (king b1 to c1, rook a1 to d1) is only "b1a1".
    Position clash = position_from("rk6/8/8/8/8/8/8/RK6 w Aa - 0 1", true);
    CHECK(parse_uci_move(clash, "b1c1") == std::optional<Move>(Move(B1, C1)));
    CHECK(parse_uci_move(clash, "b1a1") == std::optional<Move>(Move::make(B1, A1, CASTLING)));

    const std::string before = pos.fen();
    const Key key_before = pos.key();
    pos.make_move(oo);
    // King to g1, rook to f1; white loses both rights.
    CHECK(pos.fen() == "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R4RKQ b kq - 1 1");
    CHECK(pos.key() == pos.compute_key());
    pos.unmake_move(oo);
    CHECK(pos.fen() == before);
    CHECK(pos.key() == key_before);

    pos.make_move(ooo);
    // The king stays on c1 and the rook goes from a1 to d1.
    CHECK(pos.fen() == "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/2KRR2Q b kq - 1 1");
    CHECK(pos.key() == pos.compute_key());
    pos.unmake_move(ooo);
    CHECK(pos.fen() == before);
    CHECK(pos.key() == key_before);
}

TEST_CASE("X-FEN KQkq on a Chess960 setup takes the outermost rooks", "[position][chess960]") {
    // King on c1/c8, rooks on a and e, queens in the h corners.
    Position xfen = position_from("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1");
    CHECK(xfen.is_chess960());
    CHECK(xfen.castling_rook(castling_index(WHITE, true)) == E1);
    CHECK(xfen.castling_rook(castling_index(WHITE, false)) == A1);
    CHECK(xfen.castling_rook(castling_index(BLACK, true)) == E8);
    CHECK(xfen.castling_rook(castling_index(BLACK, false)) == A8);
    Position shredder = position_from("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1");
    CHECK(xfen.key() == shredder.key());
    CHECK(perft(xfen, 3) == 12333);

    // Two rooks on one wing: KQkq names the outer one.
    Position two = position_from("rr2k2r/8/8/8/8/8/8/R3K1RR w KQkq - 0 1");
    CHECK(two.castling_rook(castling_index(WHITE, true)) == H1);
    CHECK(two.castling_rook(castling_index(WHITE, false)) == A1);
    CHECK(two.castling_rook(castling_index(BLACK, true)) == H8);
    CHECK(two.castling_rook(castling_index(BLACK, false)) == A8);
    CHECK(two.fen() == "rr2k2r/8/8/8/8/8/8/R3K1RR w KQkq - 0 1");

    // The inner rook needs its file letter, on input and on output.
    Position inner = position_from("rr2k2r/8/8/8/8/8/8/R3K1RR w Gb - 0 1");
    CHECK(inner.is_chess960());
    CHECK(inner.castling_rook(castling_index(WHITE, true)) == G1);
    CHECK(inner.castling_rook(castling_index(BLACK, false)) == B8);
    CHECK(inner.fen() == "rr2k2r/8/8/8/8/8/8/R3K1RR w Gb - 0 1");
}

TEST_CASE("standard castling in UCI notation", "[position][uci]") {
    Position pos = position_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    const Move oo = Move::make(E1, H1, CASTLING), ooo = Move::make(E1, A1, CASTLING);
    CHECK(move_to_uci(pos, oo) == "e1g1");
    CHECK(move_to_uci(pos, ooo) == "e1c1");
    CHECK(parse_uci_move(pos, "e1g1") == std::optional<Move>(oo));
    CHECK(parse_uci_move(pos, "e1h1") == std::optional<Move>(oo));
    CHECK(parse_uci_move(pos, "e1c1") == std::optional<Move>(ooo));
    CHECK(parse_uci_move(pos, "e1a1") == std::optional<Move>(ooo));

    pos.make_move(oo);
    CHECK(pos.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    CHECK(pos.key() == pos.compute_key());
    const Move black_ooo = legal_move(pos, "e8c8");
    CHECK(black_ooo == Move::make(E8, A8, CASTLING));
    pos.make_move(black_ooo);
    CHECK(pos.fen() == "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    CHECK(pos.key() == pos.compute_key());
}

// ---------------------------------------------------------------------------------------
// make/unmake, hashing, gives_check

TEST_CASE("random games: incremental state, gives_check, unmake", "[position][makemove]") {
    const std::vector<std::pair<std::string, bool>> starts = {
        {std::string(Position::START_FEN), false},
        {KIWIPETE, false},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
        {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false},
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
        {"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1", true},
        {"qr1kbb1r/1pp2ppp/3npn2/3pN3/1p3P2/4PN2/P1PP2PP/QR1KBB1R w HBhb - 0 1", true},
    };
    std::mt19937 rng(12345);
    Failures fail;
    int plies = 0, castles = 0, en_passants = 0, promotions = 0, checks = 0, null_moves = 0;

    for (int game = 0; game < 200; ++game) {
        const auto& [start_fen, chess960] = starts[game % starts.size()];
        Position pos = position_from(start_fen, chess960);
        const std::string original_fen = pos.fen();
        const Key original_key = pos.key();
        std::vector<Move> moves;
        std::vector<std::string> fens;
        std::vector<Key> keys;
        const std::string tag = "game " + std::to_string(game) + " from " + start_fen;

        for (int ply = 0; ply < 150; ++ply) {
            MoveList list;
            generate<GenType::ALL>(pos, list);
            if (list.empty()) break;

            // gives_check against the real thing, for every legal move here.
            for (Move m : list)
                if (!gives_check_matches(pos, m))
                    fail.add(tag + ": gives_check " + move_to_uci(pos, m) + " in " + pos.fen());

            // A null move changes only the side to move (and drops en passant).
            if (!pos.in_check()) {
                const std::string f = pos.fen();
                const Key k = pos.key();
                const Color side = pos.side_to_move();
                pos.make_null_move();
                ++null_moves;
                if (pos.side_to_move() != ~side) fail.add(tag + ": null move side " + f);
                if (pos.key() != pos.compute_key()) fail.add(tag + ": null move key " + f);
                if (pos.key() == k) fail.add(tag + ": null move kept the key " + f);
                if (pos.ep_square() != NO_SQUARE) fail.add(tag + ": null move kept ep " + f);
                if (pos.in_check() || reference_checkers(pos))
                    fail.add(tag + ": null move check " + f);
                pos.unmake_null_move();
                if (pos.fen() != f || pos.key() != k) fail.add(tag + ": null unmake " + f);
            }

            std::uniform_int_distribution<std::size_t> pick(0, list.size() - 1);
            const Move m = list[pick(rng)];
            castles += m.type() == CASTLING;
            en_passants += m.type() == EN_PASSANT;
            promotions += m.type() == PROMOTION;

            fens.push_back(pos.fen());
            keys.push_back(pos.key());
            moves.push_back(m);
            const std::string where =
                tag + ": after " + move_to_uci(pos, m) + " from " + fens.back();
            pos.make_move(m);
            ++plies;
            checks += pos.in_check();

            if (pos.key() != pos.compute_key()) fail.add(where + ": key");
            if (pos.pawn_key() != pos.compute_pawn_key()) fail.add(where + ": pawn key");
            for (Color c : {WHITE, BLACK})
                if (pos.non_pawn_key(c) != pos.compute_non_pawn_key(c))
                    fail.add(where + ": non-pawn key");
            if (pos.checkers() != reference_checkers(pos)) fail.add(where + ": checkers");
            if (!bitboards_match_board(pos)) fail.add(where + ": bitboards");
            if (pos.last_move() != m) fail.add(where + ": last_move");
            // What we print reads back as the same position.
            Position reread;
            if (const auto err = reread.set_fen(pos.fen(), pos.is_chess960()))
                fail.add(where + ": fen() not readable: " + err->message);
            else if (reread.key() != pos.key() || reread.fen() != pos.fen())
                fail.add(where + ": fen() reads back differently");
        }

        // Unwind: every unmake gives back the position before that move.
        while (!moves.empty()) {
            pos.unmake_move(moves.back());
            if (pos.fen() != fens.back() || pos.key() != keys.back())
                fail.add(tag + ": unmake of " + std::to_string(moves.size()) + " gave " +
                         pos.fen() + " instead of " + fens.back());
            if (pos.key() != pos.compute_key()) fail.add(tag + ": key after unmake");
            moves.pop_back();
            fens.pop_back();
            keys.pop_back();
        }
        if (pos.fen() != original_fen || pos.key() != original_key)
            fail.add(tag + ": not back at the start");
    }
    INFO(fail.first);
    CHECK(fail.count == 0);
    // The games went through the special moves (else this test would prove little).
    CHECK(plies > 20000);
    CHECK(castles > 0);
    CHECK(en_passants > 0);
    CHECK(promotions > 0);
    CHECK(checks > 0);
    CHECK(null_moves > 0);
}

TEST_CASE("gives_check matches make_move on the perft positions and their children",
          "[position][makemove]") {
    Failures fail;
    int tested = 0;
    auto check_tree = [&](const std::string& fen, bool chess960) {
        Position pos = position_from(fen, chess960);
        MoveList root;
        generate<GenType::ALL>(pos, root);
        for (Move m : root) {
            ++tested;
            if (!gives_check_matches(pos, m)) fail.add(fen + ": " + move_to_uci(pos, m));
            pos.make_move(m);
            MoveList replies;
            generate<GenType::ALL>(pos, replies);
            for (Move r : replies) {
                ++tested;
                if (!gives_check_matches(pos, r)) fail.add(pos.fen() + ": " + move_to_uci(pos, r));
            }
            pos.unmake_move(m);
        }
    };
    for (const auto& fen : perft_suite_fens("cpw.epd"))
        check_tree(fen, false);
    for (const auto& fen : perft_suite_fens("chess960-tricky.epd"))
        check_tree(fen, true);
    // Hand-made: discovered check, en passant discovery, promotion check, castling check.
    check_tree("4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", false); // knight uncovers rook
    check_tree("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", false); // ep opens the rank
    check_tree("3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", false);   // b8=Q/R check
    check_tree("5k2/8/8/8/8/8/8/4K2R w K - 0 1", false);    // O-O gives check on f1
    check_tree("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", false);    // O-O-O gives check on d1
    CHECK(tested > 10000);
    INFO(fail.first);
    CHECK(fail.count == 0);

    // The castling checks above, asserted directly.
    Position oo = position_from("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
    CHECK(oo.gives_check(Move::make(E1, H1, CASTLING)));
    Position ooo = position_from("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1");
    CHECK(ooo.gives_check(Move::make(E1, A1, CASTLING)));
    // exd6 e.p. empties both d5 and e5, so the a5 rook sees the h5 king.
    Position ep = position_from("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1");
    CHECK(ep.gives_check(Move::make(E5, D6, EN_PASSANT)));
    CHECK_FALSE(ep.gives_check(legal_move(ep, "e5e6")));
}

TEST_CASE("attacked_by and attack_tiers: the squares the side attacks along random games",
          "[position][attacks]") {
    std::mt19937 rng(2468);
    Failures fail;
    int checked = 0;
    for (const std::string& start : {std::string(Position::START_FEN), KIWIPETE}) {
        for (int game = 0; game < 20; ++game) {
            Position pos = position_from(start, false);
            for (int ply = 0; ply < 120; ++ply) {
                for (Color c : {WHITE, BLACK}) {
                    // Each tier: the squares some piece of c of those types attacks.
                    Bitboard slow = 0, pawn = 0, minor = 0, rook = 0;
                    for (int s = 0; s < 64; ++s) {
                        const Bitboard a = pos.attackers_to(Square(s)) & pos.pieces(c);
                        const Bitboard bit = square_bb(Square(s));
                        if (a) slow |= bit;
                        if (a & pos.pieces(PAWN)) pawn |= bit;
                        if (a & (pos.pieces(PAWN) | pos.pieces(KNIGHT, BISHOP))) minor |= bit;
                        if (a & ~pos.pieces(QUEEN, KING)) rook |= bit;
                    }
                    const std::string side = c == WHITE ? "white" : "black";
                    if (pos.attacked_by(c) != slow) fail.add(side + " in " + pos.fen());
                    const Position::AttackTiers t = pos.attack_tiers(c);
                    if (t.pawn != pawn || t.minor != minor || t.rook != rook || t.all != slow)
                        fail.add(side + " tiers in " + pos.fen());
                    ++checked;
                }
                MoveList list;
                generate<GenType::ALL>(pos, list);
                if (list.empty()) break;
                pos.make_move(list[std::size_t(rng() % list.size())]);
            }
        }
    }
    CHECK(checked > 1000);
    INFO(fail.first);
    CHECK(fail.count == 0);
}

TEST_CASE("null move from an en-passant position", "[position][makemove]") {
    const std::string fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    Position pos = position_from(fen);
    const Key key = pos.key();
    pos.make_null_move();
    CHECK(pos.side_to_move() == BLACK);
    CHECK(pos.fen() == "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3");
    CHECK(pos.key() == pos.compute_key());
    CHECK(pos.key() != key);
    CHECK(pos.pawn_key() == pos.compute_pawn_key());
    pos.unmake_null_move();
    CHECK(pos.side_to_move() == WHITE);
    CHECK(pos.fen() == fen);
    CHECK(pos.key() == key);
    CHECK(pos.ep_square() == F6);
}

TEST_CASE("captures, promotions and en passant update the board and the hash",
          "[position][makemove]") {
    SECTION("en passant removes the passed pawn") {
        Position pos =
            position_from("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        const Move m = legal_move(pos, "e5f6");
        CHECK(m.type() == EN_PASSANT);
        CHECK(pos.is_capture(m));
        pos.make_move(m);
        CHECK(pos.fen() == "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
        CHECK(pos.captured_piece() == B_PAWN);
        CHECK(pos.key() == pos.compute_key());
        CHECK(pos.pawn_key() == pos.compute_pawn_key());
    }
    SECTION("capturing promotion takes away the rook's castling right") {
        Position pos = position_from("r3k2r/1P6/8/8/8/8/8/4K3 w kq - 3 40");
        const Move m = legal_move(pos, "b7a8q");
        pos.make_move(m);
        CHECK(pos.fen() == "Q3k2r/8/8/8/8/8/8/4K3 b k - 0 40");
        CHECK(pos.captured_piece() == B_ROOK);
        CHECK(pos.in_check()); // the new queen sees e8 along the rank
        CHECK(pos.key() == pos.compute_key());
        CHECK(pos.pawn_key() == pos.compute_pawn_key());
        CHECK(pos.non_pawn_key(WHITE) == pos.compute_non_pawn_key(WHITE));
        CHECK(pos.non_pawn_key(BLACK) == pos.compute_non_pawn_key(BLACK));
    }
    SECTION("a double push sets en passant only when a pawn can take") {
        Position pos;
        pos.make_move(legal_move(pos, "e2e4"));
        CHECK(pos.ep_square() == NO_SQUARE);
        CHECK(pos.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        Position pos2 = position_from("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3");
        pos2.make_move(legal_move(pos2, "e2e4"));
        CHECK(pos2.ep_square() == E3);
        CHECK(pos2.key() == pos2.compute_key());
    }
}

// ---------------------------------------------------------------------------------------
// SEE. Values are the engine's SEE values (pawn 100, knight 320, bishop 330, rook 500,
// queen 950); each case checks the exact boundary: see_ge(v) holds, see_ge(v + 1) does not.

namespace {
int val(PieceType pt) { return Position::see_value(pt); }

void check_see_exact(const std::string& fen, const std::string& uci, int expected) {
    Position pos = position_from(fen);
    const Move m = legal_move(pos, uci);
    INFO(fen << "  " << uci << "  expected SEE " << expected);
    CHECK(pos.see_ge(m, expected));
    CHECK_FALSE(pos.see_ge(m, expected + 1));
    CHECK(pos.see_ge(m, expected - 1));
}
} // namespace

TEST_CASE("SEE on hand-checked exchanges", "[position][see]") {
    REQUIRE(val(PAWN) == 100);
    REQUIRE(val(KNIGHT) == 320);
    REQUIRE(val(BISHOP) == 330);
    REQUIRE(val(ROOK) == 500);
    REQUIRE(val(QUEEN) == 950);

    // 1. exd5 exd5: pawn wins a knight and is taken back: +320 - 100 = +220.
    const std::string pxn = "4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1";
    check_see_exact(pxn, "e4d5", 220);
    {
        Position pos = position_from(pxn);
        const Move m = legal_move(pos, "e4d5");
        CHECK(pos.see_ge(m, 0));
        CHECK(pos.see_ge(m, 200));
    }

    // 2. Qxd5 cxd5: the queen wins a pawn and is lost: +100 - 950 = -850.
    const std::string qxp = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
    check_see_exact(qxp, "d1d5", -850);
    {
        Position pos = position_from(qxp);
        CHECK_FALSE(pos.see_ge(legal_move(pos, "d1d5"), 0));
    }

    // 3. Rxd7 with the queen behind on d8 and no white battery: Qxd7 recaptures, 500 - 500 = 0.
    check_see_exact("3q2k1/3r4/8/8/8/8/3R4/6K1 w - - 0 1", "d2d7", 0);

    // 4. The same with a second white rook on d1 (x-ray battery): Qxd7 would lose the queen
    //    to Rxd7 (500 - 500 + 950), so black stops and white keeps the rook: +500.
    check_see_exact("3q2k1/3r4/8/8/8/8/3R4/3R2K1 w - - 0 1", "d2d7", 500);

    // 5. Bxe5 with a queen behind the bishop on a1, black rook on e7 only: Rxe5 would lose
    //    the rook to Qxe5, so black does not recapture: +320.
    check_see_exact("6k1/4r3/8/4n3/8/2B5/8/Q5K1 w - - 0 1", "c3e5", 320);

    // 6. Same, with a black queen behind the rook (e8): Bxe5 Rxe5 Qxe5 Qxe5 and white loses
    //    the queen at the end, so white stops after Rxe5: 320 - 330 = -10.
    check_see_exact("4q1k1/4r3/8/4n3/8/2B5/8/Q5K1 w - - 0 1", "c3e5", -10);

    // 6b. An x-ray revealed by a recapture: Nxd5 exd5 Rxd5 Bxd5, where the f7 bishop only
    //     sees d5 once the e6 pawn has left. White would end a rook down after Bxd5, so it
    //     stops after exd5: 100 - 320 = -220. (Without the bishop, Rxd5 would pay: -120.)
    check_see_exact("6k1/5b2/4p3/3p4/8/2N5/8/3R2K1 w - - 0 1", "c3d5", -220);
    check_see_exact("6k1/8/4p3/3p4/8/2N5/8/3R2K1 w - - 0 1", "c3d5", -120);

    // 7. Nxe5 dxe5: the knight takes a pawn defended by a pawn: 100 - 320 = -220.
    check_see_exact("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5", -220);

    // 8. Rxf7 Kxf7: the king takes back an undefended rook: 100 - 500 = -400.
    check_see_exact("6k1/5p2/8/8/8/8/8/5RK1 w - - 0 1", "f1f7", -400);

    // 9. Same with Bc4 covering f7: the king cannot take back: +100.
    check_see_exact("6k1/5p2/8/8/2B5/8/8/5RK1 w - - 0 1", "f1f7", 100);

    // 10. Rxd5 takes an undefended bishop: +330.
    check_see_exact("4k3/8/8/3b4/8/8/8/3RK3 w - - 0 1", "d1d5", 330);

    // 11. A quiet rook move onto a square a pawn guards loses the rook: -500. A quiet move to
    //     a safe square is 0.
    check_see_exact("4k3/8/8/2p5/8/8/8/3RK3 w - - 0 1", "d1d4", -500);
    check_see_exact("4k3/8/8/2p5/8/8/8/3RK3 w - - 0 1", "d1d2", 0);
}

// ---------------------------------------------------------------------------------------
// Draws

TEST_CASE("fifty-move rule", "[position][draw]") {
    Position pos = position_from("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    CHECK_FALSE(pos.is_fifty_move_draw());
    CHECK_FALSE(pos.is_draw(0));
    const Move m = legal_move(pos, "a1a2");
    pos.make_move(m);
    CHECK(pos.rule50() == 100);
    CHECK(pos.is_fifty_move_draw());
    CHECK(pos.is_draw(0));
    pos.unmake_move(m);
    CHECK_FALSE(pos.is_fifty_move_draw());

    CHECK(position_from("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").is_fifty_move_draw());
    CHECK(position_from("4k3/8/8/8/8/8/8/R3K3 w - - 150 80").is_fifty_move_draw());

    // A pawn move and a capture reset the counter.
    Position pawn = position_from("4k3/8/8/8/8/8/P7/4K3 w - - 99 80");
    pawn.make_move(legal_move(pawn, "a2a3"));
    CHECK(pawn.rule50() == 0);
    CHECK_FALSE(pawn.is_fifty_move_draw());
    Position capture = position_from("4k3/8/8/8/8/8/r7/R3K3 w - - 99 80");
    capture.make_move(legal_move(capture, "a1a2"));
    CHECK(capture.rule50() == 0);
    CHECK_FALSE(capture.is_fifty_move_draw());
}

TEST_CASE("repetition: third occurrence in the game, second inside the search or of the root",
          "[position][draw]") {
    Position pos;
    const std::vector<const char*> shuffle = {"g1f3", "g8f6", "f3g1", "f6g8"};
    // Plies 1-3: all positions are new.
    for (int i = 0; i < 3; ++i) {
        pos.make_move(legal_move(pos, shuffle[i]));
        CHECK_FALSE(pos.is_repetition(0));
        CHECK_FALSE(pos.is_repetition(100));
    }
    // Ply 4: the start position for the second time. Not a game draw; inside a search
    // whose root lies before the first occurrence it counts at once, and so it does when the
    // earlier occurrence is the root itself (ply 4): a line that comes back to the root has
    // gained nothing. Seen from a root one ply later, the first occurrence lies before it.
    pos.make_move(legal_move(pos, shuffle[3]));
    CHECK(pos.key() == Position().key());
    CHECK_FALSE(pos.is_repetition(0));
    CHECK_FALSE(pos.is_repetition(3));
    CHECK(pos.is_repetition(4));
    CHECK(pos.is_repetition(5));
    CHECK(pos.is_repetition(100));
    CHECK_FALSE(pos.is_draw(0));
    // Plies 5-7: second occurrences of the positions after plies 1-3.
    for (int i = 0; i < 3; ++i) {
        pos.make_move(legal_move(pos, shuffle[i]));
        CHECK_FALSE(pos.is_repetition(0));
        CHECK(pos.is_repetition(5));
    }
    // Ply 8: the start position for the third time.
    pos.make_move(legal_move(pos, shuffle[3]));
    CHECK(pos.is_repetition(0));
    CHECK(pos.is_draw(0));
    // Ply 9: the position after Nf3 for the third time.
    pos.make_move(legal_move(pos, shuffle[0]));
    CHECK(pos.is_repetition(0));

    // The same with black to move after 1.e4.
    Position e4;
    play(e4, {"e2e4", "g8f6", "g1f3", "f6g8", "f3g1"});
    CHECK_FALSE(e4.is_repetition(0));
    CHECK(e4.is_repetition(100));
    play(e4, {"g8f6", "g1f3", "f6g8"});
    CHECK_FALSE(e4.is_repetition(0));
    play(e4, {"f3g1"});
    CHECK(e4.is_repetition(0));

    // A null move is no game move: the search does not look for repetitions across it.
    Position null_cut;
    const Key start_key = null_cut.key();
    null_cut.make_move(legal_move(null_cut, "g1f3"));
    null_cut.make_null_move();
    null_cut.make_move(legal_move(null_cut, "f3g1"));
    null_cut.make_null_move();
    REQUIRE(null_cut.key() == start_key);
    CHECK_FALSE(null_cut.is_repetition(100));
}

TEST_CASE("forget_history: the position as if set from its FEN", "[position][draw]") {
    // After 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 the start position comes a third time with
    // 4...Ng8; forgotten, the earlier occurrences no longer count.
    Position pos;
    play(pos, {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"});
    Position fresh = pos;
    fresh.forget_history();
    Position from_fen;
    REQUIRE_FALSE(from_fen.set_fen(pos.fen()));
    CHECK(fresh.fen() == pos.fen());
    CHECK(fresh.key() == pos.key());
    CHECK(fresh.rule50() == pos.rule50());
    CHECK(fresh.game_ply() == pos.game_ply());
    play(pos, {"f6g8"});
    CHECK(pos.is_repetition(0));
    for (Position* p : {&fresh, &from_fen}) {
        play(*p, {"f6g8"});
        CHECK_FALSE(p->is_repetition(0));
        CHECK_FALSE(p->is_repetition(100));
        CHECK(p->key() == pos.key());
        CHECK(p->rule50() == pos.rule50());
        CHECK(p->last_move() == pos.last_move());
    }
    // Forgotten after a capture and a double push: the state is the FEN's.
    Position e4;
    play(e4, {"e2e4", "d7d5", "e4d5", "c7c5", "d5c6"});
    Position reread;
    REQUIRE_FALSE(reread.set_fen(e4.fen()));
    e4.forget_history();
    CHECK(e4.key() == reread.key());
    CHECK(e4.captured_piece() == reread.captured_piece());
    CHECK(e4.last_move() == reread.last_move());
    CHECK(e4.ep_square() == reread.ep_square());
}

TEST_CASE("insufficient material", "[position][draw]") {
    struct Case {
        const char* fen;
        bool insufficient;
    };
    const std::vector<Case> cases = {
        {"8/8/4k3/8/8/3K4/8/8 w - - 0 1", true},      // K v K
        {"8/8/4k3/8/8/3K4/8/6N1 w - - 0 1", true},    // KN v K
        {"8/8/4k3/8/8/3K4/8/2B5 w - - 0 1", true},    // KB v K
        {"8/8/4k3/n7/8/3K4/8/8 b - - 0 1", true},     // K v KN
        {"5b2/8/4k3/8/8/3K4/8/2B5 w - - 0 1", true},  // KB v KB, both on dark squares
        {"2b5/8/4k3/8/8/3K4/8/2B5 w - - 0 1", false}, // KB v KB, opposite colours
        {"8/8/4k3/8/8/3K4/8/2B1B3 w - - 0 1", true},  // KBB v K, same colour bishops
        {"8/8/4k3/8/8/3K4/8/2BB4 w - - 0 1", false},  // KBB v K, both colours
        {"8/8/4k3/8/8/3K4/8/1N4N1 w - - 0 1", false}, // KNN v K: not insufficient here
        {"8/8/4k3/2n5/8/3K4/8/6N1 w - - 0 1", false}, // KN v KN
        {"8/8/4k3/2n5/8/3K4/8/2B5 w - - 0 1", false}, // KB v KN
        {"8/8/4k3/8/8/3K4/4P3/8 w - - 0 1", false},   // KP v K
        {"8/8/4k3/8/8/3K4/8/7R w - - 0 1", false},    // KR v K
        {"8/8/4k3/8/8/3K4/8/7Q w - - 0 1", false},    // KQ v K
    };
    for (const auto& c : cases) {
        Position pos = position_from(c.fen);
        INFO(c.fen);
        CHECK(pos.has_insufficient_material() == c.insufficient);
        CHECK(pos.is_draw(0) == c.insufficient);
    }
}

// ---------------------------------------------------------------------------------------
// is_legal: one move, decided without generating

TEST_CASE("is_legal agrees with the generator: every move of the perft suites, moves from "
          "other positions, every 16-bit value at the roots, random values below them",
          "[position][is_legal]") {
    std::mt19937 rng(16);
    Failures fail;
    long long asked = 0, legal_count = 0;
    auto compare = [&](const Position& pos, const MoveList& legal, Move m) {
        ++asked;
        const bool expected = legal.contains(m);
        legal_count += expected;
        if (pos.is_legal(m) != expected)
            fail.add(pos.fen() + ": raw move " + std::to_string(m.raw()) + " (" +
                     square_name(m.from()) + square_name(m.to()) + ") should be " +
                     (expected ? "legal" : "illegal"));
    };
    // Every generated move; the moves of `other` in every type and promotion piece; and
    // every 16-bit value (roots) or 300 random ones.
    auto visit = [&](const Position& pos, const MoveList& other, bool every_value) {
        MoveList legal;
        generate<GenType::ALL>(pos, legal);
        for (Move m : legal)
            compare(pos, legal, m);
        for (Move m : other)
            for (MoveType type : {NORMAL, PROMOTION, EN_PASSANT, CASTLING})
                for (PieceType promo : {KNIGHT, BISHOP, ROOK, QUEEN})
                    compare(pos, legal, Move::make(m.from(), m.to(), type, promo));
        if (every_value) {
            for (unsigned raw = 0; raw < 65536; ++raw)
                compare(pos, legal, Move(std::uint16_t(raw)));
        } else {
            for (int i = 0; i < 300; ++i)
                compare(pos, legal, Move(std::uint16_t(rng())));
        }
    };
    auto sweep = [&](const std::string& fen, bool chess960) {
        Position pos = position_from(fen, chess960);
        MoveList root;
        generate<GenType::ALL>(pos, root);
        visit(pos, MoveList{}, true);
        for (Move m : root) {
            pos.make_move(m);
            visit(pos, root, false); // the parent's moves, mostly illegal now
            pos.unmake_move(m);
        }
    };
    for_each_perft_position(8, [&](const std::string& fen, bool chess960, const std::string&) {
        sweep(fen, chess960);
    });
    INFO(fail.first);
    CHECK(fail.count == 0);
    CHECK(asked > 10000000);
    CHECK(legal_count > 100000);
}
