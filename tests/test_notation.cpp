// Notation: UCI move text, SAN output and input, PGN reading and writing, and EPD (test suites
// and perft suites).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "movegen/movegen.hpp"
#include "notation/epd.hpp"
#include "notation/pgn_reader.hpp"
#include "notation/pgn_writer.hpp"
#include "notation/san.hpp"
#include "notation/uci_move.hpp"

#include "support.hpp"

using namespace horizon;
using namespace horizon::test;

namespace {

std::string data_path(const std::string& name) {
    return std::string(HORIZON_SOURCE_DIR) + "/tests/data/notation/" + name;
}

std::vector<PgnGame> read_data_file(const std::string& name, PgnReadOptions options = {}) {
    return read_pgn(read_text_file(data_path(name)), options);
}

std::string san_of(const std::string& fen, const std::string& uci, bool chess960 = false) {
    const Position pos = position_from(fen, chess960);
    const auto m = parse_uci_move(pos, uci);
    INFO(fen << " " << uci);
    REQUIRE(m.has_value());
    return move_to_san(pos, *m);
}

// The UCI text of the move the SAN names, or "refused: <reason>".
std::string read_san(const std::string& fen, const std::string& san) {
    const Position pos = position_from(fen);
    const ParsedMove parsed = parse_san(pos, san);
    if (!parsed) return "refused: " + parsed.error;
    return move_to_uci(pos, parsed.move);
}

bool is_ambiguous(const Position& pos, const std::string& san) {
    const ParsedMove parsed = parse_san(pos, san);
    return !parsed && parsed.error.find("ambiguous") != std::string::npos;
}

// Every legal move: its SAN reads back as the move, names no other move, carries "+" or "#"
// exactly when the move checks or mates, and its disambiguation is the least there is.
void check_san_of_every_move(const Position& pos, Failures& fail, long long& moves) {
    MoveList list;
    generate<GenType::ALL>(pos, list);
    std::vector<std::string> sans;
    for (Move m : list) {
        ++moves;
        const std::string san = move_to_san(pos, m);
        sans.push_back(san);
        const std::string where = pos.fen() + " " + move_to_uci(pos, m) + " " + san;
        const ParsedMove back = parse_san(pos, san);
        if (!back || back.move != m) fail.add(where + ": reads back as something else");

        Position after = pos;
        after.make_move(m);
        const char mark = after.in_check() ? (has_legal_move(after) ? '+' : '#') : 0;
        std::string core = san;
        if (mark) {
            if (san.back() != mark) fail.add(where + ": check mark wrong");
            core.pop_back();
        } else if (san.back() == '+' || san.back() == '#') {
            fail.add(where + ": check mark on a move that does not check");
        }
        // Minimal disambiguation of a piece move: file, else rank, else both.
        if (m.type() == CASTLING || type_of(pos.moved_piece(m)) == PAWN) continue;
        const std::string dest = std::string(pos.is_capture(m) ? "x" : "") + square_name(m.to());
        const std::string disambiguation = core.substr(1, core.size() - 1 - dest.size());
        const std::string piece = core.substr(0, 1);
        const std::string file(1, char('a' + file_of(m.from())));
        const std::string rank(1, char('1' + rank_of(m.from())));
        bool minimal = true;
        if (disambiguation.empty())
            minimal = true;
        else if (disambiguation == file)
            minimal = is_ambiguous(pos, piece + dest);
        else if (disambiguation == rank)
            minimal = is_ambiguous(pos, piece + dest) && is_ambiguous(pos, piece + file + dest);
        else if (disambiguation == file + rank)
            minimal =
                is_ambiguous(pos, piece + file + dest) && is_ambiguous(pos, piece + rank + dest);
        else
            minimal = false;
        if (!minimal) fail.add(where + ": disambiguation '" + disambiguation + "' is not minimal");
    }
    std::sort(sans.begin(), sans.end());
    if (std::adjacent_find(sans.begin(), sans.end()) != sans.end())
        fail.add(pos.fen() + ": two moves with one SAN");
}

// Visits pos and the positions up to `plies` moves after it.
template <class Visit> void walk(Position& pos, int plies, Visit&& visit) {
    visit(pos);
    if (plies == 0) return;
    MoveList list;
    generate<GenType::ALL>(pos, list);
    for (Move m : list) {
        pos.make_move(m);
        walk(pos, plies - 1, visit);
        pos.unmake_move(m);
    }
}

// The writer's text of every game read whole.
std::string write_all(const std::vector<PgnGame>& games, const PgnWriteOptions& options = {}) {
    std::string out;
    for (const PgnGame& g : games)
        if (!g.error) out += to_pgn(g, options);
    return out;
}

void require_same_games(const std::vector<PgnGame>& a, const std::vector<PgnGame>& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        INFO("game " << i + 1);
        CHECK(a[i].tags == b[i].tags);
        CHECK(a[i].start.fen() == b[i].start.fen());
        CHECK(a[i].start.is_chess960() == b[i].start.is_chess960());
        CHECK(a[i].result == b[i].result);
        CHECK(a[i].moves == b[i].moves);
        CHECK_FALSE(b[i].error.has_value());
    }
}

std::vector<PgnGame> without_errors(std::vector<PgnGame> games) {
    games.erase(std::remove_if(games.begin(), games.end(),
                               [](const PgnGame& g) { return g.error.has_value(); }),
                games.end());
    return games;
}

} // namespace

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

// ---------------------------------------------------------------------------------------
// SAN

TEST_CASE("SAN output: pieces, captures, disambiguation, promotions, castling, checks",
          "[notation][san]") {
    const std::string start(Position::START_FEN);
    CHECK(san_of(start, "e2e4") == "e4");
    CHECK(san_of(start, "g1f3") == "Nf3");
    // Two knights reach d2: the file tells them apart.
    CHECK(san_of("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2") == "Nbd2");
    CHECK(san_of("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3d2") == "Nfd2");
    // Two rooks on one file: the rank.
    CHECK(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3") == "R1a3");
    CHECK(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3") == "R5a3");
    // Three queens: neither file nor rank alone is enough for the one on d4.
    const std::string queens = "k7/8/3Q4/8/3Q1Q2/8/8/4K3 w - - 0 1";
    CHECK(san_of(queens, "d4e5") == "Qd4e5");
    CHECK(san_of(queens, "f4e5") == "Qfe5");
    CHECK(san_of(queens, "d6e5") == "Q6e5");
    // A pinned knight does not count: Nd2 needs no file.
    CHECK(san_of("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1", "b1d2") == "Nd2");
    // Pawn captures, en passant, promotions.
    CHECK(san_of("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1", "b2c3") == "bxc3");
    CHECK(san_of("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1", "d2c3") == "Bxc3");
    CHECK(san_of("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6") ==
          "exf6");
    CHECK(san_of("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q") == "a8=Q+");
    CHECK(san_of("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n") == "a8=N");
    CHECK(san_of("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8r") == "axb8=R+");
    // Castling, standard and Chess960.
    CHECK(san_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1") == "O-O");
    CHECK(san_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1") == "O-O-O");
    CHECK(san_of("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1", "c1e1", true) == "O-O");
    CHECK(san_of("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1", "c1a1", true) ==
          "O-O-O");
    // Castling that checks.
    CHECK(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1") == "O-O+");
    // Check and mate.
    CHECK(san_of("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2", "d8h4") ==
          "Qh4#");
    CHECK(san_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8") == "Ra8+");
}

TEST_CASE("SAN input: the variants real files hold", "[notation][san]") {
    const std::string start(Position::START_FEN);
    for (const char* text : {"Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "nf3", "Nf3!?", "Nf3?!",
                             "Nf3!!", "Nf3??", "Nf3!", "Nf3?", "Nf3+", "Nf3#"}) {
        INFO(text);
        CHECK(read_san(start, text) == "g1f3");
    }
    for (const char* text : {"e4", "e2e4", "e2-e4", "Pe4", "e4!"}) {
        INFO(text);
        CHECK(read_san(start, text) == "e2e4");
    }
    // Captures with or without the x, and 'b' is always the b-file.
    const std::string bxc3 = "4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1";
    for (const char* text : {"bxc3", "bc3", "b2xc3", "b:c3", "Pbxc3"}) {
        INFO(text);
        CHECK(read_san(bxc3, text) == "b2c3");
    }
    CHECK(read_san(bxc3, "Bxc3") == "d2c3");
    CHECK(read_san(bxc3, "Bc3") == "d2c3");
    // Promotions in every spelling.
    const std::string promo = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    for (const char* text : {"a8=Q", "a8Q", "a8(Q)", "a8=q", "a8q", "a8/Q", "a8=Q+", "a7a8=Q"}) {
        INFO(text);
        CHECK(read_san(promo, text) == "a7a8q");
    }
    CHECK(read_san(promo, "a8=N") == "a7a8n");
    CHECK(read_san(promo, "a8b") == "a7a8b");
    CHECK(read_san(promo, "a8(R)") == "a7a8r");
    // Castling with letters or zeros.
    const std::string castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    for (const char* text : {"O-O", "0-0", "O-O+", "o-o"}) {
        INFO(text);
        CHECK(read_san(castle, text) == "e1g1");
    }
    for (const char* text : {"O-O-O", "0-0-0", "O-O-O!"}) {
        INFO(text);
        CHECK(read_san(castle, text) == "e1c1");
    }
    // ... or as the king's move to its castling square.
    for (const char* text : {"Kg1", "Ke1g1", "Ke1-g1", "kg1"}) {
        INFO(text);
        CHECK(read_san(castle, text) == "e1g1");
    }
    CHECK(read_san(castle, "Kc1") == "e1c1");
    CHECK(read_san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "Kg8") == "e8g8");
    CHECK(read_san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "Kc8") == "e8c8");
    CHECK(read_san("4k3/8/8/8/8/8/8/4K1R1 w - - 0 1", "Kf1") == "e1f1"); // a step stays one
    // Lower-case piece letters other than b.
    CHECK(read_san("4k3/8/8/8/8/8/8/R3K2Q w - - 0 1", "qh5") == "h1h5");
    CHECK(read_san("4k3/8/8/8/8/8/8/R3K2Q w - - 0 1", "ra5") == "a1a5");
    CHECK(read_san("4k3/8/8/8/8/8/8/R3K2Q w - - 0 1", "kd2") == "e1d2");
    // En passant.
    CHECK(read_san("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6") ==
          "e5f6");
    // Disambiguation by rank, and by the full square.
    CHECK(read_san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "R1a3") == "a1a3");
    CHECK(read_san("k7/8/3Q4/8/3Q1Q2/8/8/4K3 w - - 0 1", "Qd4e5") == "d4e5");
    CHECK(read_san("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1", "Nd2") == "b1d2");
}

TEST_CASE("SAN input: ambiguous, illegal and unreadable text is refused with a reason",
          "[notation][san]") {
    const std::string start(Position::START_FEN);
    auto refused = [](const std::string& fen, const std::string& text, const std::string& why) {
        const std::string got = read_san(fen, text);
        INFO(fen << "  '" << text << "' -> " << got);
        CHECK(got.rfind("refused: ", 0) == 0);
        CHECK(got.find(why) != std::string::npos);
    };
    refused(start, "e5", "no white pawn can move to e5");
    refused(start, "Qh5", "no white queen can move to h5");
    refused(start, "Nd2", "d2 holds a white piece");
    refused(start, "Nb3", "no white knight can move to b3");
    refused(start, "O-O", "O-O is illegal here");
    refused("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O", "white has no right to castle O-O");
    refused(start, "", "no move in the text");
    refused(start, "+", "no move in the text");
    refused(start, "Zf3", "unexpected character 'Z'");
    refused(start, "Nf3 ", "unexpected character ' '");
    refused(start, "Nf9", "unexpected character '9'");
    refused(start, "N", "no destination square");
    refused(start, "Ng1f3f4", "too many squares");
    refused(start, "O-O-O-O", "castling is written O-O or O-O-O");
    refused(start, "e4=Q", "only a pawn reaching the last rank promotes");
    refused("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8", "needs a promotion piece");
    refused("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=K", "a pawn promotes to N, B, R or Q");
    refused("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2",
            "ambiguous: the white knight on b1 or on f3 can move to d2");
    refused("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "Raa3", "ambiguous");
    // A pinned knight.
    refused("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3", "king would be in check");
    // d6 was not the double push.
    refused("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exd6",
            "no white pawn can move to d6");
}

TEST_CASE("SAN input: long algebraic and coordinate (UCI) notation", "[notation][san]") {
    const std::string start(Position::START_FEN);
    // Without a piece letter, the piece is the one on the origin square.
    for (const char* text : {"g1f3", "g1-f3", "Ng1f3", "Ng1-f3", "g1f3+", "g1f3!"}) {
        INFO(text);
        CHECK(read_san(start, text) == "g1f3");
    }
    CHECK(read_san(start, "b1c3") == "b1c3"); // 'b' as a file, the b1 knight
    CHECK(read_san(start, "e2-e4") == "e2e4");
    const std::string after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    CHECK(read_san(after_e4, "c7c5") == "c7c5");
    CHECK(read_san(after_e4, "g8f6") == "g8f6");
    // Captures with or without x, en passant.
    const std::string scandi = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    for (const char* text : {"e4xd5", "e4d5", "e4-d5", "e4:d5"}) {
        INFO(text);
        CHECK(read_san(scandi, text) == "e4d5");
    }
    const std::string ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    CHECK(read_san(ep, "e5f6") == "e5f6");
    CHECK(read_san(ep, "e5xf6") == "e5f6");
    // Promotions: "e7e8q" in any case, and under-promotions.
    const std::string promo = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    for (const char* text : {"a7a8q", "a7a8Q", "a7-a8=Q", "a7a8=q"}) {
        INFO(text);
        CHECK(read_san(promo, text) == "a7a8q");
    }
    CHECK(read_san(promo, "a7b8n") == "a7b8n");
    CHECK(read_san(promo, "a7xb8b") == "a7b8b");
    CHECK(read_san(promo, "a7a8r") == "a7a8r");
    // Castling as the king's two-square step, or king takes its own rook.
    const std::string castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    CHECK(read_san(castle, "e1g1") == "e1g1");
    CHECK(read_san(castle, "e1-c1") == "e1c1");
    CHECK(read_san(castle, "e1h1") == "e1g1");
    CHECK(read_san(castle, "e1a1") == "e1c1");
    CHECK(read_san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8") == "e8c8");
    CHECK(read_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1f1") == "e1f1"); // a step
    {
        // Chess960, castling written as king takes its own rook: c1b1 is O-O-O (the king
        // stays on c1, the rook goes to d1), c1g1 is O-O.
        const Position pos = position_from("1r1k3r/8/8/8/8/8/8/1RK3R1 w GBhb - 0 1", true);
        const ParsedMove long_castle = parse_san(pos, "c1b1");
        REQUIRE(long_castle);
        CHECK(long_castle.move.type() == CASTLING);
        CHECK(move_to_san(pos, long_castle.move) == "O-O-O+"); // the rook on d1 checks
        const ParsedMove short_castle = parse_san(pos, "c1g1");
        REQUIRE(short_castle);
        CHECK(short_castle.move.type() == CASTLING);
        CHECK(move_to_san(pos, short_castle.move) == "O-O");
    }
    // Refused with a reason: an empty or foreign origin, a piece that cannot go there,
    // castling without the right, a pinned piece, an ambiguous hyphenated move.
    auto refused = [](const std::string& fen, const std::string& text, const std::string& why) {
        const std::string got = read_san(fen, text);
        INFO(fen << "  '" << text << "' -> " << got);
        CHECK(got.rfind("refused: ", 0) == 0);
        CHECK(got.find(why) != std::string::npos);
    };
    refused(start, "e3e4", "no white piece on e3");
    refused(start, "e7e5", "no white piece on e7");
    refused(start, "g1f4", "no white knight can move to f4");
    refused(start, "e2e5", "no white pawn can move to e5");
    refused(start, "d1d3", "no white queen can move to d3");
    refused(start, "e1g1", "O-O is illegal here");
    refused("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "e1g1", "white has no right to castle O-O");
    refused("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "e1h1", "h1 holds a white piece");
    refused(promo, "a7a8", "needs a promotion piece");
    refused(promo, "a7a8k", "unexpected character 'k'");
    refused("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3", "king would be in check");
    refused("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "N-d2", "ambiguous");
}

TEST_CASE("SAN round trip on every legal move of the perft suites, two plies deep",
          "[notation][san]") {
    Failures fail;
    long long moves = 0;
    // Two plies deep from the small suites, one from the large ones.
    for_each_perft_position(
        4, [&](const std::string& fen, bool chess960, const std::string& suite) {
            Position pos = position_from(fen, chess960);
            const int plies = suite == "cpw.epd" || suite == "chess960-tricky.epd" ? 2 : 1;
            walk(pos, plies, [&](const Position& p) { check_san_of_every_move(p, fail, moves); });
        });
    INFO(fail.first);
    CHECK(fail.count == 0);
    CHECK(moves > 500000);
}

TEST_CASE("moves_to_san numbers the moves and stops at an illegal one", "[notation][san]") {
    Position pos;
    const std::vector<Move> line = {Move(E2, E4), Move(E7, E5), Move(G1, F3)};
    CHECK(moves_to_san(pos, line) == "1. e4 e5 2. Nf3");
    CHECK(moves_to_san(pos, line, false) == "e4 e5 Nf3");
    pos.make_move(Move(E2, E4));
    const std::vector<Move> black_first = {Move(E7, E5), Move(G1, F3), Move(B8, C6)};
    CHECK(moves_to_san(pos, black_first) == "1... e5 2. Nf3 Nc6");
    const std::vector<Move> corrupt = {Move(E7, E5), Move(E7, E5), Move(G1, F3)};
    CHECK(moves_to_san(pos, corrupt) == "1... e5");
    CHECK(moves_to_san(pos, {}) == "");
}

TEST_CASE("move suffixes and NAGs 1-6", "[notation][san]") {
    const std::vector<std::pair<std::string, int>> pairs = {{"!", 1},  {"?", 2},  {"!!", 3},
                                                            {"??", 4}, {"!?", 5}, {"?!", 6}};
    for (const auto& [suffix, nag] : pairs) {
        CHECK(suffix_to_nag(suffix) == nag);
        CHECK(nag_to_suffix(nag) == suffix);
    }
    CHECK(suffix_to_nag("!!!") == 0);
    CHECK(suffix_to_nag("") == 0);
    CHECK(nag_to_suffix(0).empty());
    CHECK(nag_to_suffix(7).empty());
}

// ---------------------------------------------------------------------------------------
// PGN reader

TEST_CASE("PGN reader: tags, escapes, comments, NAGs and nested variations", "[notation][pgn]") {
    const auto games = read_data_file("tricky.pgn");
    REQUIRE(games.size() == 4);
    for (const PgnGame& g : games) {
        INFO(g.tag("Event") << ": " << (g.error ? g.error->message() : ""));
        CHECK_FALSE(g.error.has_value());
    }

    const PgnGame& g = games[0];
    // '%' lines are skipped; tag values are unescaped.
    REQUIRE(g.tags.size() == 8);
    CHECK(g.tags[0] == PgnTag{"Event", "Tricky \"quoted\" event"});
    CHECK(g.tag("Site") == "C:\\chess\\games");
    CHECK(g.tag("Annotator") == "Horizon tests");
    CHECK(g.tag("Missing").empty());
    CHECK_FALSE(g.has_tag("Missing"));
    CHECK(g.result == "1-0");
    CHECK(g.start.fen() == Position::START_FEN);

    const auto& main = g.moves.moves;
    REQUIRE(main.size() == 28);
    CHECK(main[0].comment_before == "A comment before the first move.");
    CHECK(main[1].nags == std::vector<std::uint8_t>{1});
    // A comment over two lines keeps one space where the line broke.
    CHECK(main[2].comment_after == "Developing; the knight (not the bishop) comes first");
    // 2... Nc6 has the Petrov as its variation; the comment after it goes to 3. Bb5.
    REQUIRE(main[3].variations.size() == 1);
    CHECK(main[4].comment_before == "after the variation");
    const PgnLine& petrov = main[3].variations[0];
    REQUIRE(petrov.moves.size() == 5); // Nf6 Nxe5 d6 Nf3 Nxe4
    CHECK(petrov.moves[0].comment_after == "Petrov");
    CHECK(petrov.moves[2].comment_after == "a rest-of-line comment");
    CHECK(petrov.moves[4].comment_after == "end of the Petrov");
    // 3. Nxe5 has 3. d4 as its alternative, which holds another variation.
    REQUIRE(petrov.moves[1].variations.size() == 1);
    const PgnLine& steinitz = petrov.moves[1].variations[0];
    REQUIRE(steinitz.moves.size() == 3); // d4 exd4 e5
    CHECK(steinitz.moves[0].comment_after == "Steinitz");
    CHECK(steinitz.moves[1].nags == std::vector<std::uint8_t>{5});
    REQUIRE(steinitz.moves[1].variations.size() == 1);
    const PgnLine& nested = steinitz.moves[1].variations[0];
    REQUIRE(nested.moves.size() == 2); // Nxe4!? Bd3
    CHECK(nested.moves[0].nags == std::vector<std::uint8_t>{5});
    CHECK(nested.moves[0].comment_after == "inside a variation (nested)");
    Position p = g.start;
    p.make_move(main[0].move);
    p.make_move(main[1].move);
    p.make_move(main[2].move);
    CHECK(move_to_san(p, petrov.moves[0].move) == "Nf6");
    // Suffixes become NAGs, commands stay in the comment.
    CHECK(main[6].nags == std::vector<std::uint8_t>{5}); // 4. Ba4!?
    CHECK(main[16].comment_after == "[%eval 0.35] [%clk 0:10:00]");
    CHECK(pgn_command(main[16].comment_after, "eval") == std::optional<std::string>("0.35"));
    CHECK(main[17].nags == std::vector<std::uint8_t>{14, 32});
    CHECK(move_to_san(g.end_position(), Move(A2, A3)) == "a3");
    CHECK(g.main_line().size() == 28);

    // A game without a result, the next game's tags right after its moves.
    CHECK(games[1].tag("Round") == "2");
    CHECK(games[1].moves.moves.size() == 18);
    CHECK(games[1].result == "1/2-1/2"); // from the Result tag
    CHECK(games[2].tag("Event") == "Fool's mate");
    CHECK(games[2].result == "0-1");
    REQUIRE(games[2].moves.moves.size() == 4);
    CHECK(games[2].moves.moves[2].nags == std::vector<std::uint8_t>{4});
    CHECK(is_checkmate(games[2].end_position()));

    // From a FEN: promotions as b8Q, a1(Q), castling as 0-0, over-disambiguated moves.
    const PgnGame& setup = games[3];
    CHECK(setup.start.fen() == "4k3/1P6/8/8/8/8/p7/4K2R w K - 0 1");
    CHECK(setup.result == "*");
    CHECK(setup.end_position().fen() == "8/3k4/8/4Q3/8/8/q7/5RK1 w - - 6 6");
    CHECK(moves_to_san(setup.start, setup.main_line()) ==
          "1. b8=Q+ Kd7 2. O-O a1=Q 3. Qe5 Qa2 4. Rf2 Qa1+ 5. Rf1 Qa2");
}

TEST_CASE("PGN reader: CRLF line ends and a byte order mark", "[notation][pgn]") {
    const std::string text = read_text_file(data_path("crlf_bom.pgn"));
    REQUIRE(text.rfind("\xEF\xBB\xBF", 0) == 0);
    REQUIRE(text.find("\r\n") != std::string::npos);
    const auto games = read_pgn(text);
    REQUIRE(games.size() == 2);
    CHECK_FALSE(games[0].error.has_value());
    CHECK_FALSE(games[1].error.has_value());
    CHECK(games[0].tags[0] == PgnTag{"Event", "CRLF and a byte order mark"});
    CHECK(games[0].moves.moves.size() == 10);
    CHECK(games[0].moves.moves[2].comment_after == "Open Sicilian");
    CHECK(games[0].moves.moves[3].variations.size() == 1);
    CHECK(games[0].result == "0-1");
    CHECK(games[1].moves.moves[0].comment_after == "English");
    CHECK(games[1].moves.moves.size() == 2);
    // The same text with LF line ends reads as the same games.
    std::string lf = text.substr(3);
    lf.erase(std::remove(lf.begin(), lf.end(), '\r'), lf.end());
    require_same_games(games, read_pgn(lf));
}

TEST_CASE("PGN reader: Chess960 games by the Variant tag, X-FEN and Shredder-FEN",
          "[notation][pgn][chess960]") {
    const auto games = read_data_file("chess960.pgn");
    REQUIRE(games.size() == 3);
    for (const PgnGame& g : games) {
        INFO(g.tag("Event") << ": " << (g.error ? g.error->message() : ""));
        REQUIRE_FALSE(g.error.has_value());
        CHECK(g.start.is_chess960());
    }
    // O-O: king c1 to g1, rook e1 to f1; O-O-O: the king stays on c8, the rook a8 to d8.
    CHECK(games[0].end_position().fen() == "2krr2q/p1p1p1pp/8/3p4/3P4/8/P1P1P1PP/R4RKQ w - - 0 3");
    CHECK(games[0].moves.moves[0].move == Move::make(C1, E1, CASTLING));
    CHECK(games[1].moves.moves[0].move == Move::make(C1, A1, CASTLING));
    CHECK(games[1].end_position().fen() == "1k1rr2q/p1ppp1pp/8/8/8/8/P1PPP1PP/1K1RR2Q w - - 4 3");
    // The standard array played as Chess960: castling is still king takes rook.
    CHECK(games[2].start.fen() == Position::START_FEN);
    CHECK(games[2].moves.moves[6].move == Move::make(E1, H1, CASTLING));
    CHECK(move_to_uci(games[2].end_position(), Move::none()) == "0000");
}

TEST_CASE("PGN reader: an illegal move in game 2 of 3 is reported, the others still read",
          "[notation][pgn]") {
    const auto games = read_data_file("errors.pgn");
    REQUIRE(games.size() == 3);
    CHECK_FALSE(games[0].error.has_value());
    CHECK_FALSE(games[2].error.has_value());
    CHECK(games[0].moves.moves.size() == 4);
    CHECK(games[2].moves.moves.size() == 4);
    CHECK(games[2].result == "1/2-1/2");
    REQUIRE(games[1].error.has_value());
    const PgnError& e = *games[1].error;
    CHECK(e.game == 2);
    CHECK(e.move_number == 3);
    CHECK(e.side == BLACK);
    CHECK(e.text == "Nb6");
    CHECK(e.line == 9);
    CHECK_FALSE(e.in_variation);
    CHECK(e.message() == "game 2, move 3... (line 9): 'Nb6': illegal: the black knight on d7 "
                         "cannot move to b6 (its king would be in check)");
    // What came before the bad move is kept.
    CHECK(games[1].moves.moves.size() == 5);
    CHECK(games[1].tag("Event") == "Game 2: the knight on d7 is pinned");
}

TEST_CASE("PGN reader: unreadable games are reported where they go wrong", "[notation][pgn]") {
    const auto games = read_data_file("unreadable.pgn");
    REQUIRE(games.size() == 7);
    auto error_of = [&](std::size_t i) {
        INFO("game " << i + 1);
        REQUIRE(games[i].error.has_value());
        CHECK(games[i].error->game == i + 1);
        return games[i].error->message();
    };
    CHECK(error_of(0) == "game 1, in the tags (line 2): 'Crazyhouse': unsupported variant (only "
                         "standard chess and Chess960)");
    CHECK(error_of(1) == "game 2, in the tags (line 8): '8/8/8/8/8/8/8/8 w - - 0 1': bad FEN tag: "
                         "white has 0 kings, expected exactly 1");
    CHECK(error_of(2) ==
          "game 3, in the tags (line 13): 'Event': the tag value has no closing '\"'");
    CHECK(error_of(3) == "game 4, move 2... (line 21): '@': unexpected character");
    CHECK(error_of(4) == "game 5, move 1. (line 26): '(': a variation must follow a move");
    CHECK_FALSE(games[5].error.has_value());
    CHECK(games[5].moves.moves.size() == 2);
    CHECK(games[5].result == "1-0");
    CHECK(error_of(6) ==
          "game 7, move 2... in a variation (line 37): the input ends inside a variation");
}

TEST_CASE("PGN reader: a game written without tags, missing results, odd spacing",
          "[notation][pgn]") {
    const auto games = read_pgn("1.e4 e5 2.Nf3 {no tags at all} Nc6 3.Bb5 *\n"
                                "\n[Event \"a\"]\n\n1. d4 1... d5 2 . c4\n"
                                "[Event \"b\"]\n[Event \"c\"]\n\n1. c4 1/2-1/2");
    REQUIRE(games.size() == 4);
    for (const PgnGame& g : games)
        CHECK_FALSE(g.error.has_value());
    CHECK(games[0].tags.empty());
    CHECK(games[0].moves.moves.size() == 5);
    CHECK(games[0].moves.moves[2].comment_after == "no tags at all");
    CHECK(games[1].moves.moves.size() == 3);
    CHECK(games[1].result == "*");
    // A tag named twice: the first game ended without move text.
    CHECK(games[2].tag("Event") == "b");
    CHECK(games[2].moves.moves.empty());
    CHECK(games[3].tag("Event") == "c");
    CHECK(games[3].moves.moves.size() == 1);
    CHECK(games[3].result == "1/2-1/2");

    CHECK(read_pgn("").empty());
    CHECK(read_pgn("\xEF\xBB\xBF \r\n\n").empty());
    const auto only_comment = read_pgn("{just a comment} *");
    REQUIRE(only_comment.size() == 1);
    CHECK(only_comment[0].moves.trailing_comment == "just a comment");
}

TEST_CASE("PGN reader: comments before, between and after games make no game", "[notation][pgn]") {
    // The file opens with a comment, as pgn-extract's ECO file does, and ends with one.
    for (const char* name : {"comment_first.pgn", "comments_everywhere.pgn"}) {
        for (const PgnReadOptions options : {PgnReadOptions{}, PgnReadOptions{false, false}}) {
            INFO(name << (options.comments ? "" : ", moves only"));
            const auto games = read_data_file(name, options);
            REQUIRE(games.size() == 3);
            const char* events[] = {"one", "two", "three"};
            const char* lines[] = {"1. e4 e5 2. Nf3 Nc6 3. Bb5", "1. d4 d5 2. c4",
                                   "1. f3 e5 2. g4 Qh4#"};
            const char* results[] = {"1-0", "*", "0-1"};
            for (std::size_t i = 0; i < 3; ++i) {
                INFO("game " << i + 1 << ": " << (games[i].error ? games[i].error->message() : ""));
                CHECK_FALSE(games[i].error.has_value());
                CHECK(games[i].warnings.empty());
                CHECK(games[i].tag("Event") == events[i]);
                CHECK(moves_to_san(games[i].start, games[i].main_line()) == lines[i]);
                CHECK(games[i].result == results[i]);
            }
            if (!options.comments) {
                CHECK(games[0].comment_before_tags.empty());
                continue;
            }
            // A comment before or between the tags is kept before the tags, one after them
            // before the first move.
            const std::string& first = games[0].comment_before_tags;
            CHECK(first.rfind("A file that opens with a comment before its first game", 0) == 0);
            CHECK(first.find("1. e4 is not a move either.") != std::string::npos);
            CHECK(first.find("a comment between tags") != std::string::npos);
            CHECK(games[0].tags.size() == 3);
            CHECK(games[0].moves.moves[0].comment_before == "before the first move");
            CHECK(games[0].moves.moves[1].comment_after.rfind("after e5", 0) == 0);
            CHECK(games[1].comment_before_tags.rfind("a comment between games", 0) == 0);
            CHECK(games[2].comment_before_tags.empty());
            // Written back before the tags, and read back the same.
            const std::string text = to_pgn(games[0]);
            CHECK(text.rfind("{A file that opens with a comment", 0) == 0);
            const auto again = read_pgn(text);
            REQUIRE(again.size() == 1);
            CHECK(again[0].comment_before_tags == first);
            CHECK(again[0].moves == games[0].moves);
            CHECK(to_pgn(games[0], {.comments = false}).rfind("[Event \"one\"]", 0) == 0);
        }
    }
    // The same counts streamed, and for texts made of comments alone.
    std::ifstream in(data_path("comment_first.pgn"), std::ios::binary);
    PgnReader reader(in);
    PgnGame game;
    std::size_t n = 0;
    while (reader.next(game))
        ++n;
    CHECK(n == 3);
    CHECK(reader.games_read() == 3);
    CHECK(read_pgn("{only a comment}").empty());
    CHECK(read_pgn("{one} {two}\n; a line comment\n% an escape line\n{three}").empty());
    CHECK(read_pgn("; a line comment without a line end").empty());
    CHECK(read_pgn("{header}\n[ECO \"A00\"]\n\n1. b4 *\n\n[ECO \"A00\"]\n\n1. b4 Nh6 *\n").size() ==
          2);
    // A game after one that could not be read is not lost, comment or not.
    const auto after_error =
        read_pgn("[Event \"a\"]\n\n1. e4 Ke7 *\n{ between }\n[Event \"b\"]\n\n1. d4 *\n");
    REQUIRE(after_error.size() == 2);
    CHECK(after_error[0].error.has_value());
    CHECK_FALSE(after_error[1].error.has_value());
    CHECK(after_error[1].comment_before_tags == "between");
    // A tag named twice begins the next game, with the comments before it.
    const auto repeated = read_pgn("[Event \"a\"]\n{ for b }\n[Event \"b\"]\n\n1. e4 *\n");
    REQUIRE(repeated.size() == 2);
    CHECK(repeated[0].moves.moves.empty());
    CHECK(repeated[1].comment_before_tags == "for b");
    CHECK(repeated[1].moves.moves.size() == 1);
}

TEST_CASE("PGN reader: a game in long algebraic reads as its SAN twin", "[notation][pgn]") {
    const auto games = read_data_file("long_algebraic.pgn");
    REQUIRE(games.size() == 4);
    for (const PgnGame& g : games) {
        INFO(g.tag("Round") << ": " << (g.error ? g.error->message() : ""));
        CHECK_FALSE(g.error.has_value());
        CHECK(g.warnings.empty());
    }
    // Rounds 1 and 3 are written in long algebraic, 2 and 4 in SAN.
    CHECK(games[0].main_line().size() == 25);
    CHECK(games[0].main_line() == games[1].main_line());
    CHECK(games[0].end_position().fen() == games[1].end_position().fen());
    CHECK(games[2].main_line().size() == 8);
    CHECK(games[2].main_line() == games[3].main_line());
    CHECK(moves_to_san(games[2].start, games[2].main_line()) ==
          "30. bxa8=Q+ Kf7 31. Qb7+ Kg6 32. Kd2 gxh1=R 33. Qb1+ Kg5");
    // Written back, it is SAN: the twin's text.
    PgnGame written = games[0];
    written.set_tag("Round", "2");
    CHECK(to_pgn(written) == to_pgn(games[1]));

    // A move that names no legal move, or more than one, refuses its game: the message says
    // which game and which move.
    const auto bad = read_pgn("[Event \"a\"]\n\n1. e2e4 e7e5 *\n\n"
                              "[Event \"b\"]\n\n1. e2e4 e7e5 2. g1f4 *\n\n"
                              "[Event \"c\"]\n[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\"]\n\n"
                              "1. N-d2 *\n");
    REQUIRE(bad.size() == 3);
    CHECK_FALSE(bad[0].error.has_value());
    REQUIRE(bad[1].error.has_value());
    CHECK(bad[1].error->message() ==
          "game 2, move 2. (line 7): 'g1f4': no white knight can move to f4");
    REQUIRE(bad[2].error.has_value());
    CHECK(bad[2].error->message() == "game 3, move 1. (line 12): 'N-d2': ambiguous: the white "
                                     "knight on b1 or on f3 can move to d2");
}

TEST_CASE("PGN reader: move numbers that do not fit the position warn, the game still reads",
          "[notation][pgn]") {
    const auto games = read_data_file("move_numbers.pgn");
    REQUIRE(games.size() == 3);
    for (const PgnGame& g : games) {
        INFO(g.tag("Event") << ": " << (g.error ? g.error->message() : ""));
        CHECK_FALSE(g.error.has_value());
    }
    // "5." where the position is at move 3, and later "3..." at move 4: one warning, which
    // counts the other.
    CHECK(moves_to_san(games[0].start, games[0].main_line()) ==
          "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6");
    REQUIRE(games[0].warnings.size() == 1);
    CHECK(games[0].warnings[0].message() ==
          "game 1, move 3. (line 4): '5.': the move number does not fit the position: this is "
          "move 3, white to move (and 1 more move number of this game that does not fit)");
    // "2..." before a white move.
    CHECK(moves_to_san(games[1].start, games[1].main_line()) == "1. d4 d5 2. c4");
    REQUIRE(games[1].warnings.size() == 1);
    CHECK(games[1].warnings[0].text == "2...");
    CHECK(games[1].warnings[0].reason == "'...' stands before a black move, but white is to move");
    CHECK(games[1].warnings[0].move_number == 2);
    // Numbers that fit, "N..." after a comment and in a variation, from a FEN at move 12.
    CHECK(games[2].warnings.empty());
    CHECK(games[2].main_line().size() == 4);
    REQUIRE(games[2].moves.moves[2].variations.size() == 1);
    CHECK(games[2].moves.moves[2].variations[0].moves.size() == 2);

    // In a variation, against the variation's own position; moves-only mode checks the main
    // line too; numbers without periods count.
    const auto var = read_pgn("1. e4 e5 (2... c5) 2. Nf3 *");
    REQUIRE(var.size() == 1);
    REQUIRE(var[0].warnings.size() == 1);
    CHECK(var[0].warnings[0].in_variation);
    CHECK(var[0].warnings[0].text == "2...");
    CHECK(var[0].warnings[0].reason.find("this is move 1, black to move") != std::string::npos);
    const auto fast = read_pgn("1. e4 e5 3 Nf3 *", PgnReadOptions{false, false});
    REQUIRE(fast.size() == 1);
    REQUIRE(fast[0].warnings.size() == 1);
    CHECK(fast[0].warnings[0].text == "3");
    CHECK(fast[0].main_line().size() == 3);
    CHECK(read_pgn("1. e4 e5 2. Nf3 Nc6 3. Bb5 *")[0].warnings.empty());
    CHECK(read_pgn("1.e4 1...e5 2.Nf3 2... Nc6 *")[0].warnings.empty());
}

TEST_CASE("PGN reader: moves-only mode skips comments and variations", "[notation][pgn]") {
    const auto full = read_data_file("tricky.pgn");
    const auto fast = read_data_file("tricky.pgn", PgnReadOptions{false, false});
    REQUIRE(full.size() == fast.size());
    for (std::size_t i = 0; i < full.size(); ++i) {
        CHECK_FALSE(fast[i].error.has_value());
        CHECK(fast[i].tags == full[i].tags);
        CHECK(fast[i].main_line() == full[i].main_line());
        CHECK(fast[i].result == full[i].result);
        for (const PgnMove& m : fast[i].moves.moves) {
            CHECK(m.comment_before.empty());
            CHECK(m.comment_after.empty());
            CHECK(m.variations.empty());
        }
        // NAGs are kept.
        CHECK(fast[i].moves.moves.size() == full[i].moves.moves.size());
    }
    CHECK(fast[0].moves.moves[1].nags == std::vector<std::uint8_t>{1});
    // Comments alone can be dropped while variations are kept.
    const auto no_comments = read_data_file("tricky.pgn", PgnReadOptions{false, true});
    CHECK(no_comments[0].moves.moves[3].variations.size() == 1);
    CHECK(no_comments[0].moves.moves[3].variations[0].moves[0].comment_after.empty());
}

TEST_CASE("PGN reader: an empty variation is left out - as the writer leaves it out",
          "[notation][pgn]") {
    // Found by the pgn fuzz target: "()" was kept, written as nothing, and read back without it.
    const auto games = read_pgn("1. e4 e5 () {after e5} 2. Nf3 ( {only a comment} ) ( ) *\n");
    REQUIRE(games.size() == 1);
    REQUIRE_FALSE(games[0].error);
    const auto& moves = games[0].moves.moves;
    REQUIRE(moves.size() == 3);
    CHECK(moves[1].variations.empty());
    CHECK(moves[1].comment_after == "after e5"); // as if the "()" were not there
    REQUIRE(moves[2].variations.size() == 1);    // a comment alone is something: kept
    CHECK(moves[2].variations[0].trailing_comment == "only a comment");
    const std::string written = to_pgn(games[0]);
    const auto back = read_pgn(written);
    REQUIRE(back.size() == 1);
    CHECK(back[0].moves == games[0].moves);
}

TEST_CASE("PGN reader: streams many games through a small buffer, one game at a time",
          "[notation][pgn]") {
    // More than the reader's 64 KiB block, so tokens straddle the refills.
    const std::string one = read_text_file(data_path("tricky.pgn"));
    std::string text;
    const int copies = 250;
    for (int i = 0; i < copies; ++i)
        text += one + "\n";
    REQUIRE(text.size() > 3 * 65536);
    const auto reference = read_pgn(one);
    std::istringstream in(text);
    PgnReader reader(in);
    PgnGame game;
    std::size_t n = 0;
    while (reader.next(game)) {
        const PgnGame& expected = reference[n % reference.size()];
        INFO("game " << n + 1);
        REQUIRE_FALSE(game.error.has_value());
        REQUIRE(game.moves == expected.moves);
        REQUIRE(game.tags == expected.tags);
        ++n;
    }
    CHECK(n == copies * reference.size());
    CHECK(reader.games_read() == n);
    CHECK_FALSE(reader.next(game));
}

TEST_CASE("PGN reader: damaged input never crashes and every game read replays",
          "[notation][pgn]") {
    std::vector<std::string> texts;
    for (const char* name : {"tricky.pgn", "crlf_bom.pgn", "chess960.pgn", "errors.pgn"})
        texts.push_back(read_text_file(data_path(name)));
    std::mt19937 rng(2024);
    const std::string noise = "[]{}()\";%$!?*.0123456789-/=+#xOKQRBNabcdefgh\n \r\\\xFF";
    std::size_t games = 0, errors = 0;
    auto check = [&](const std::string& text) {
        for (const PgnGame& g : read_pgn(text)) {
            ++games;
            errors += g.error.has_value();
            // Whatever was read is legal from the start.
            Position pos = g.start;
            for (const PgnMove& m : g.moves.moves) {
                REQUIRE(pos.is_legal(m.move));
                pos.make_move(m.move);
            }
        }
    };
    for (const std::string& text : texts) {
        for (std::size_t cut = 0; cut < text.size(); cut += 7)
            check(text.substr(0, cut));
        for (int i = 0; i < 300; ++i) {
            std::string damaged = text;
            for (int k = 0; k < 3; ++k)
                damaged[rng() % damaged.size()] = noise[rng() % noise.size()];
            check(damaged);
        }
    }
    CHECK(games > 1000);
    CHECK(errors > 100);
    // Deep nesting is refused, not a stack overflow.
    std::string nested = "1. e4";
    for (int i = 0; i < 100000; ++i)
        nested += " (e4";
    const auto deep = read_pgn(nested + " *");
    REQUIRE(deep.size() == 1);
    REQUIRE(deep[0].error.has_value());
    CHECK(deep[0].error->reason == "variations nested too deep");
}

// ---------------------------------------------------------------------------------------
// PGN writer

TEST_CASE("PGN writer: export format", "[notation][pgn]") {
    const auto games = read_data_file("tricky.pgn");
    const std::string text = to_pgn(games[0]);
    const std::string expected_start =
        "[Event \"Tricky \\\"quoted\\\" event\"]\n"
        "[Site \"C:\\\\chess\\\\games\"]\n"
        "[Date \"2024.01.02\"]\n"
        "[Round \"1\"]\n"
        "[White \"Alpha, A.\"]\n"
        "[Black \"Beta, B.\"]\n"
        "[Result \"1-0\"]\n"
        "[Annotator \"Horizon tests\"]\n"
        "\n"
        "{A comment before the first move.} 1. e4 e5 $1 2. Nf3 {Developing; the knight\n"
        "(not the bishop) comes first} 2... Nc6 (2... Nf6 {Petrov} 3. Nxe5 (3. d4\n"
        "{Steinitz} 3... exd4 $5 (3... Nxe4 $5 {inside a variation (nested)} 4. Bd3) 4.\n";
    CHECK(text.substr(0, expected_start.size()) == expected_start);
    CHECK(text.size() > expected_start.size());
    CHECK(text.ends_with(" g6 1-0\n\n"));
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        INFO(line);
        CHECK(line.size() <= 79);
    }

    // The seven tag roster is always there; a game from a FEN gets SetUp and FEN.
    PgnGame bare;
    REQUIRE_FALSE(bare.start.set_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").has_value());
    bare.moves.moves.push_back(PgnMove{Move(E8, D7), {}, {}, {}, {}});
    bare.moves.moves.push_back(PgnMove{Move(E2, E4), {}, {}, {}, {}});
    bare.result = "1/2-1/2";
    CHECK(to_pgn(bare) == "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                          "[White \"?\"]\n[Black \"?\"]\n[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n"
                          "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n"
                          "30... Kd7 31. e4 1/2-1/2\n\n");
    // NAGs 1-6 as suffixes, when asked.
    bare.moves.moves[0].nags = {3, 14};
    PgnWriteOptions suffixes;
    suffixes.nag_suffixes = true;
    CHECK(to_pgn(bare, suffixes).find("30... Kd7!! $14 31. e4") != std::string::npos);
    CHECK(to_pgn(bare).find("30... Kd7 $3 $14 31. e4") != std::string::npos);
    // Without comments and variations.
    PgnWriteOptions plain;
    plain.comments = false;
    plain.variations = false;
    const std::string bare_text = to_pgn(games[0], plain);
    CHECK(bare_text.find('{') == std::string::npos);
    CHECK(bare_text.find('(') == std::string::npos);
    CHECK(bare_text.find("1. e4 e5 $1 2. Nf3 Nc6 3. Bb5") != std::string::npos);
    // A Chess960 game names its variant.
    PgnGame c960;
    c960.start.set_chess960(true);
    CHECK(to_pgn(c960).find("[Variant \"Chess960\"]\n") != std::string::npos);
    // A comment cannot hold '}'; an illegal move in a hand-made game ends its line.
    PgnGame odd;
    odd.moves.moves.push_back(PgnMove{Move(E2, E4), {}, {}, "a } b", {}});
    odd.moves.moves.push_back(PgnMove{Move(E2, E4), {}, {}, {}, {}});
    CHECK(to_pgn(odd).find("1. e4 {a ) b} *") != std::string::npos);
}

TEST_CASE("PGN writer -> reader -> writer is the identity", "[notation][pgn]") {
    for (const char* name :
         {"tricky.pgn", "crlf_bom.pgn", "chess960.pgn", "errors.pgn", "unreadable.pgn"}) {
        INFO(name);
        const auto original = without_errors(read_data_file(name));
        REQUIRE_FALSE(original.empty());
        for (const PgnWriteOptions& options :
             {PgnWriteOptions{}, PgnWriteOptions{40, true, true, true}}) {
            const std::string first = write_all(original, options);
            const auto again = read_pgn(first);
            // The tags gain the roster (and SetUp), the moves and comments stay as they were.
            REQUIRE(again.size() == original.size());
            for (std::size_t i = 0; i < again.size(); ++i) {
                INFO("game " << i + 1);
                REQUIRE_FALSE(again[i].error.has_value());
                CHECK(again[i].moves == original[i].moves);
                CHECK(again[i].result == original[i].result);
                CHECK(again[i].start.fen() == original[i].start.fen());
                CHECK(again[i].start.is_chess960() == original[i].start.is_chess960());
                for (const PgnTag& t : original[i].tags)
                    CHECK(again[i].tag(t.name) == t.value);
            }
            const std::string second = write_all(again, options);
            CHECK(second == first);
            require_same_games(again, read_pgn(second));
        }
    }
}

TEST_CASE("PGN: null moves ('--') are read, replayed and written back", "[notation][pgn]") {
    const std::string text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 (2. -- Nc6 3. Nf3) 2... -- 3. Bc4 "
                             "Nf6 *\n";
    const auto games = read_pgn(text);
    REQUIRE(games.size() == 1);
    REQUIRE_FALSE(games[0].error.has_value());
    const auto& moves = games[0].moves.moves;
    REQUIRE(moves.size() == 6);
    CHECK(moves[3].move == Move::null());
    CHECK(moves[2].variations.at(0).moves.at(0).move == Move::null());
    CHECK(games[0].end_position().fen() ==
          "rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    const std::string written = to_pgn(games[0]);
    CHECK(written.find("2. Nf3 (2. -- Nc6 3. Nf3) 2... -- 3. Bc4 Nf6 *") != std::string::npos);
    const auto again = read_pgn(written);
    REQUIRE(again.size() == 1);
    CHECK(again[0].moves == games[0].moves);

    // Not while in check: a null move there would leave the king to be taken.
    const auto checked = read_pgn("1. e4 f6 2. Qh5+ -- *\n");
    REQUIRE(checked.size() == 1);
    REQUIRE(checked[0].error.has_value());
    CHECK(checked[0].error->message() ==
          "game 1, move 2... (line 1): '--': a null move while in check");
}

TEST_CASE("PGN: after an error, a game ends where a reader skipping variations ends it",
          "[notation][pgn]") {
    // Game 1 goes wrong inside a variation that holds a result and never closes; a '[' in
    // the middle of a line of moves starts the next game; game 3 is fine.
    const std::string text = "[Event \"1\"]\n\n1. e4 e5 (1... c5 2. Zz4 1-0 junk\n"
                             "2. Nf3 [Event \"2\"] 1. d4 *\n\n"
                             "[Event \"3\"]\n\n1. c4 c5 1/2-1/2\n";
    for (const bool whole : {true, false}) {
        INFO("variations read: " << whole);
        const auto games = read_pgn(text, {.comments = whole, .variations = whole});
        REQUIRE(games.size() == 3);
        CHECK(games[0].error.has_value());
        CHECK(games[1].tag("Event") == "2");
        CHECK_FALSE(games[1].error);
        CHECK(games[1].main_line().size() == 1);
        CHECK(games[2].tag("Event") == "3");
        CHECK(games[2].main_line().size() == 2);
    }
}

TEST_CASE("PGN commands in comments: [%eval ...] and friends", "[notation][pgn]") {
    CHECK(pgn_command("[%eval 0.35] [%clk 0:10:00]", "eval") == std::optional<std::string>("0.35"));
    CHECK(pgn_command("[%eval 0.35] [%clk 0:10:00]", "clk") ==
          std::optional<std::string>("0:10:00"));
    CHECK_FALSE(pgn_command("[%evaluation 1]", "eval").has_value());
    CHECK_FALSE(pgn_command("no commands", "eval").has_value());
    CHECK_FALSE(pgn_command("[%eval 0.35", "eval").has_value());
    CHECK(pgn_command("text [%eval  #-3 ] more", "eval") == std::optional<std::string>("#-3"));
    CHECK(set_pgn_command("", "eval", "0.10") == "[%eval 0.10]");
    CHECK(set_pgn_command("Good move", "eval", "0.10") == "Good move [%eval 0.10]");
    CHECK(set_pgn_command("a [%eval 0.35] b", "eval", "-1.20") == "a [%eval -1.20] b");
    CHECK(set_pgn_command("[%clk 0:01:00]", "eval", "0.00") == "[%clk 0:01:00] [%eval 0.00]");
}

TEST_CASE("epd: records, operands and clocks", "[notation][epd]") {
    constexpr const char* MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - -";
    std::string error;
    auto r = parse_epd(std::string(MATE_IN_ONE) + " bm Rd8#; id \"WAC; odd \\\"one\\\"\"; c0 a b;",
                       error);
    REQUIRE(r.has_value());
    CHECK(r->pos.fen() == std::string(MATE_IN_ONE) + " 0 1");
    REQUIRE(r->operations.size() == 3);
    CHECK(r->operations[0] == EpdOperation{"bm", {"Rd8#"}});
    CHECK(r->id() == "WAC; odd \"one\"");
    CHECK(r->find("c0")->operands == std::vector<std::string>{"a", "b"});
    CHECK(r->find("pv") == nullptr);
    const auto moves = epd_moves(r->pos, *r->find("bm"), error);
    REQUIRE(moves.has_value());
    CHECK(move_to_san(r->pos, moves->at(0)) == "Rd8#");

    auto clocks = parse_epd(std::string(MATE_IN_ONE) + " 7 42 bm Rd8#", error); // no last ';'
    REQUIRE(clocks.has_value());
    CHECK(clocks->pos.fen() == std::string(MATE_IN_ONE) + " 7 42");
    CHECK(clocks->find("bm")->operands.at(0) == "Rd8#");
    auto ops = parse_epd(std::string(MATE_IN_ONE) + " hmvc 3; fmvn 0;", error);
    REQUIRE(ops.has_value());
    CHECK(ops->pos.fen() == std::string(MATE_IN_ONE) + " 3 1");
    CHECK(parse_epd(MATE_IN_ONE, error)->operations.empty());

    const std::pair<std::string, std::string> bad[] = {
        {"6k1/5ppp/8 w", "4 fields"},
        {"kkkkkkkk/8/8/8/8/8/8/K7 w - - bm Kb1;", "bad FEN"},
        {std::string(MATE_IN_ONE) + " id \"never closed;", "never closed"},
        {std::string(MATE_IN_ONE) + " bm Rd8#; ; id x;", "empty operation"},
        {std::string(MATE_IN_ONE) + " 9x bm Rd8#;", "'9x' is not an operation"},
        {std::string(MATE_IN_ONE) + " hmvc x;", "hmvc"},
    };
    for (const auto& [line, words] : bad) {
        error.clear();
        const bool parsed = parse_epd(line, error).has_value();
        INFO(line << " -> " << error);
        CHECK_FALSE(parsed);
        CHECK(error.find(words) != std::string::npos);
    }
    const auto illegal = parse_epd(std::string(MATE_IN_ONE) + " bm Rd9;", error);
    REQUIRE(illegal.has_value());
    CHECK_FALSE(epd_moves(illegal->pos, *illegal->find("bm"), error).has_value());
    CHECK(error.find("bm 'Rd9'") == 0);
}

TEST_CASE("epd: a string operand written is read back as written", "[notation][epd]") {
    const std::string texts[] = {"plain", "Smith, J.", "a \"quoted\" name; with \\ and ;", ""};
    for (const std::string& text : texts) {
        INFO(text);
        const std::string quoted = epd_string_operand(text);
        CHECK(quoted.front() == '"');
        CHECK(quoted.back() == '"');
        std::string error;
        const auto line =
            split_epd("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - id " + quoted + "; c0 after;", error);
        REQUIRE(line.has_value());
        const EpdOperation* id = line->find("id");
        REQUIRE(id != nullptr);
        REQUIRE(id->operands.size() == 1);
        CHECK(id->operands[0] == text);
        CHECK(line->find("c0") != nullptr);
    }
}

TEST_CASE("parse_perft_epd_line", "[notation][epd][perft]") {
    std::string error;
    auto e = parse_perft_epd_line(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902", error);
    REQUIRE(e.has_value());
    CHECK(e->fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    CHECK(e->counts == std::vector<std::uint64_t>{20, 400, 8902});

    // Four-field EPD positions get clocks; CRLF endings are tolerated.
    e = parse_perft_epd_line("4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66\r", error);
    REQUIRE(e.has_value());
    CHECK(e->fen == "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    CHECK(e->counts == std::vector<std::uint64_t>{15, 66});

    // Counts beyond 32 bits.
    e = parse_perft_epd_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 8031647685", error);
    REQUIRE(e.has_value());
    CHECK(e->counts.back() == 8031647685ULL);

    const std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const std::vector<std::string> malformed = {
        "",
        "   ",
        " ;D1 20",
        fen,                      // no counts
        fen + " ;",               // empty count field
        fen + " ;D2 400",         // does not start at D1
        fen + " ;D1 20 ;D3 8902", // gap
        fen + " ;D1 20 ;D1 20",   // repeated depth
        fen + " ;X1 20",          // not a depth tag
        fen + " ;D 20",           // no depth number
        fen + " ;Dx 20",          // depth not a number
        fen + " ;D1",             // no count
        fen + " ;D1 abc",         // count not a number
        fen + " ;D1 -20",         // negative count
        fen + " ;D1 20x",         // junk after the count
        fen + " ;D1 20 21",       // two counts
        fen + " ;D1x 20",         // junk after the depth
    };
    for (const auto& line : malformed) {
        INFO("line: '" << line << "'");
        error.clear();
        CHECK_FALSE(parse_perft_epd_line(line, error).has_value());
        CHECK_FALSE(error.empty());
    }
}

TEST_CASE("EPD files: one reader for test suites and perft suites", "[notation][epd]") {
    test::TempDir dir;
    const std::string mate = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - -";
    // A test suite: comments, blank lines and CRLF line ends skipped; ids or line numbers.
    const std::string suite =
        dir.write("suite.epd", "# a suite\r\n" + mate + " bm Rd8#; id \"one\";\r\n\r\n" +
                                   "  # an indented comment\n" + mate + " 3 40 bm Rd8#;\n");
    std::vector<std::string> errors;
    const auto entries = read_epd_file(suite, errors);
    INFO((errors.empty() ? "" : errors[0]));
    REQUIRE(entries.has_value());
    REQUIRE(entries->size() == 2);
    CHECK((*entries)[0].line == 2);
    CHECK((*entries)[0].id == "one");
    CHECK((*entries)[1].line == 5);
    CHECK((*entries)[1].id == "line 5");
    CHECK((*entries)[1].record.pos.fen() == mate + " 3 40");

    // Every bad line is named, with its file and line.
    const std::string bad_fen = "kkkkkkkk/8/8/8/8/8/8/K7 w - - bm Kb1;\n";
    const std::string bad =
        dir.write("bad.epd", mate + " bm Rd8#;\n" + bad_fen + mate + " id \"never closed;\n");
    errors.clear();
    CHECK_FALSE(read_epd_file(bad, errors).has_value());
    REQUIRE(errors.size() == 2);
    CHECK(errors[0].find(bad + ":2: bad FEN") == 0);
    CHECK(errors[1].find(bad + ":3: ") == 0);
    CHECK(errors[1].find("never closed") != std::string::npos);
    errors.clear();
    CHECK_FALSE(read_epd_file(dir.write("empty.epd", "# nothing\n\n"), errors).has_value());
    CHECK(errors == std::vector<std::string>{dir.path("empty.epd") + " holds no positions"});
    errors.clear();
    CHECK_FALSE(read_epd_file(dir.path("missing.epd"), errors).has_value());
    CHECK(errors == std::vector<std::string>{"cannot open " + dir.path("missing.epd")});

    // A perft suite: the same lines, its operations D1, D2, ... A bad FEN is left to the run.
    const std::string perft =
        dir.write("perft.epd", "# counts\n" + mate + " ;D1 20 ;D2 400\n\n" +
                                   "4k3/8/8/8/8/8/8/4K2R w Q - 0 1 ;D1 15\r\n");
    errors.clear();
    const auto counts = read_perft_suite(perft, errors);
    REQUIRE(counts.has_value());
    REQUIRE(counts->size() == 2);
    CHECK((*counts)[0].fen == mate + " 0 1");
    CHECK((*counts)[0].counts == std::vector<std::uint64_t>{20, 400});
    CHECK((*counts)[0].line == 2);
    CHECK((*counts)[1].line == 4);
    CHECK((*counts)[1].fen == "4k3/8/8/8/8/8/8/4K2R w Q - 0 1");
    const std::string broken =
        dir.write("broken.epd", mate + " ;D1 20\n" + mate + " ;D2 400\n" + mate + " ;D1 x\n");
    errors.clear();
    CHECK_FALSE(read_perft_suite(broken, errors).has_value());
    REQUIRE(errors.size() == 2);
    CHECK(errors[0] == broken + ":2: depths must be D1, D2, ... in order, got 'D2'");
    CHECK(errors[1] == broken + ":3: bad depth field 'D1 x'");
    errors.clear();
    const auto none = read_perft_suite(dir.write("none.epd", ""), errors);
    REQUIRE(none.has_value());
    CHECK(none->empty());
    CHECK_FALSE(read_perft_suite(dir.path("missing.epd"), errors).has_value());
    CHECK(errors == std::vector<std::string>{"cannot open " + dir.path("missing.epd")});

    // The perft suites of the repository read whole.
    for (const char* file : {"standard.epd", "cpw.epd", "chess960.epd", "chess960-tricky.epd",
                             "chess960-startpos.epd"}) {
        const std::string path = std::string(HORIZON_SOURCE_DIR) + "/perft/" + file;
        errors.clear();
        const auto read = read_perft_suite(path, errors);
        INFO(path << ": " << (errors.empty() ? "" : errors[0]));
        REQUIRE(read.has_value());
        CHECK(read->size() >= 6);
    }
}
