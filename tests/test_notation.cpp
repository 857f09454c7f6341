// Notation: UCI move text, SAN output and input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "movegen/movegen.hpp"
#include "notation/san.hpp"
#include "notation/uci_move.hpp"

#include "support.hpp"

using namespace horizon;
using namespace horizon::test;

namespace {

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
        const std::string dest = (pos.is_capture(m) ? "x" : "") + square_name(m.to());
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
