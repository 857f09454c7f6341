// Move generation: the generation modes against each other and against a slow reference
// generator, the 218-move position, perft on every suite, and the perft suite runner (the
// suites' reader is tested with the notation).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli/perft.hpp"
#include "core/attacks.hpp"
#include "core/position.hpp"
#include "movegen/movegen.hpp"
#include "movegen/perft.hpp"
#include "notation/epd.hpp"
#include "notation/uci_move.hpp"

#include "support.hpp"

using namespace horizon;
using namespace horizon::test;

namespace {

std::string perft_path(const std::string& file) {
    return std::string(HORIZON_SOURCE_DIR) + "/perft/" + file;
}

std::vector<EpdPerftEntry> load_epd(const std::string& file) {
    std::vector<std::string> errors;
    auto entries = read_perft_suite(perft_path(file), errors);
    INFO("reading " << perft_path(file) << ": " << (errors.empty() ? "" : errors[0]));
    REQUIRE(entries.has_value());
    return std::move(*entries);
}

template <GenType T> std::vector<std::uint16_t> sorted_moves(const Position& pos) {
    MoveList list;
    generate<T>(pos, list);
    std::vector<std::uint16_t> out;
    for (Move m : list)
        out.push_back(m.raw());
    std::sort(out.begin(), out.end());
    return out;
}

bool reference_attacked(const Position& pos, Square s, Color by, Bitboard occ) {
    return reference_attackers(pos, s, by, occ) != 0;
}

Bitboard board_occupancy(const Position& pos) {
    Bitboard occ = 0;
    for (int i = 0; i < SQUARE_NB; ++i)
        if (pos.piece_on(Square(i)) != NO_PIECE) occ |= square_bb(Square(i));
    return occ;
}

Square find_king(const Position& pos, Color c) {
    for (int i = 0; i < SQUARE_NB; ++i)
        if (pos.piece_on(Square(i)) == make_piece(c, KING)) return Square(i);
    return NO_SQUARE;
}

// After make_move, is the side that just moved safe?
bool mover_king_safe(const Position& after) {
    const Color mover = ~after.side_to_move();
    return !reference_attacked(after, find_king(after, mover), ~mover, board_occupancy(after));
}

// Squares from a to b inclusive along their rank (both on the same rank).
Bitboard rank_span(Square a, Square b) {
    Bitboard out = 0;
    const int lo = std::min(file_of(a), file_of(b)), hi = std::max(file_of(a), file_of(b));
    for (int f = lo; f <= hi; ++f)
        out |= square_bb(make_square(f, rank_of(a)));
    return out;
}

// A slow, independent legal move generator: pseudo-legal moves from the board array, then
// make/unmake and a reference attack test. Castling follows the rules as written: the
// squares the king and rook cross are empty, the king is not in check and crosses no
// attacked square, and the final position is legal.
std::vector<std::uint16_t> reference_moves(Position& pos) {
    const Color us = pos.side_to_move(), them = ~us;
    const Bitboard occ = board_occupancy(pos);
    std::vector<Move> pseudo;
    auto own = [&](Square s) {
        return pos.piece_on(s) != NO_PIECE && color_of(pos.piece_on(s)) == us;
    };
    auto enemy = [&](Square s) {
        return pos.piece_on(s) != NO_PIECE && color_of(pos.piece_on(s)) == them;
    };
    auto add_pawn = [&](Square from, Square to) {
        if (relative_rank(us, rank_of(to)) == 7) {
            for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN})
                pseudo.push_back(Move::make(from, to, PROMOTION, pt));
        } else {
            pseudo.push_back(Move(from, to));
        }
    };
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Square from = Square(i);
        if (!own(from)) continue;
        const PieceType pt = type_of(pos.piece_on(from));
        if (pt == PAWN) {
            const Square one = Square(int(from) + pawn_push(us));
            if (pos.piece_on(one) == NO_PIECE) {
                add_pawn(from, one);
                const Square two = Square(int(one) + pawn_push(us));
                if (relative_rank(us, rank_of(from)) == 1 && pos.piece_on(two) == NO_PIECE)
                    pseudo.push_back(Move(from, two));
            }
            for (Bitboard t = pawn_attacks(us, from); t;) {
                const Square to = pop_lsb(t);
                if (enemy(to))
                    add_pawn(from, to);
                else if (to == pos.ep_square())
                    pseudo.push_back(Move::make(from, to, EN_PASSANT));
            }
            continue;
        }
        Bitboard targets = 0;
        switch (pt) {
        case KNIGHT:
            targets = knight_attacks(from);
            break;
        case BISHOP:
            targets = slow_bishop_attacks(from, occ);
            break;
        case ROOK:
            targets = slow_rook_attacks(from, occ);
            break;
        case QUEEN:
            targets = slow_bishop_attacks(from, occ) | slow_rook_attacks(from, occ);
            break;
        case KING:
            targets = king_attacks(from);
            break;
        default:
            break;
        }
        for (; targets;) {
            const Square to = pop_lsb(targets);
            if (!own(to)) pseudo.push_back(Move(from, to));
        }
    }

    std::vector<std::uint16_t> legal;
    for (Move m : pseudo) {
        pos.make_move(m);
        if (mover_king_safe(pos)) legal.push_back(m.raw());
        pos.unmake_move(m);
    }

    const Square ksq = find_king(pos, us);
    const bool in_check = reference_attacked(pos, ksq, them, occ);
    for (bool king_side : {true, false}) {
        const int idx = castling_index(us, king_side);
        if (!pos.can_castle(idx) || in_check) continue;
        const Square rsq = pos.castling_rook(idx);
        const Square kto = castling_king_destination(idx), rto = castling_rook_destination(idx);
        const Bitboard must_be_empty =
            (rank_span(ksq, kto) | rank_span(rsq, rto)) & ~square_bb(ksq) & ~square_bb(rsq);
        if (must_be_empty & occ) continue;
        bool crosses_attack = false;
        for (Bitboard b = rank_span(ksq, kto) & ~square_bb(ksq); b;)
            crosses_attack |= reference_attacked(pos, pop_lsb(b), them, occ);
        if (crosses_attack) continue;
        const Move m = Move::make(ksq, rsq, CASTLING);
        pos.make_move(m);
        const bool ok = mover_king_safe(pos) && pos.piece_on(kto) == make_piece(us, KING) &&
                        pos.piece_on(rto) == make_piece(us, ROOK);
        pos.unmake_move(m);
        if (ok) legal.push_back(m.raw());
    }
    std::sort(legal.begin(), legal.end());
    return legal;
}

// All the per-position generation checks.
void check_generation(Position& pos, Failures& fail, int& in_check_positions) {
    const std::string fen = pos.fen();
    const auto all = sorted_moves<GenType::ALL>(pos);
    const auto noisy = sorted_moves<GenType::NOISY>(pos);
    const auto quiet = sorted_moves<GenType::QUIET>(pos);

    if (std::adjacent_find(all.begin(), all.end()) != all.end()) fail.add(fen + ": duplicate move");
    std::vector<std::uint16_t> both = noisy;
    both.insert(both.end(), quiet.begin(), quiet.end());
    std::sort(both.begin(), both.end());
    if (both != all) fail.add(fen + ": NOISY + QUIET != ALL");
    std::vector<std::uint16_t> common;
    std::set_intersection(noisy.begin(), noisy.end(), quiet.begin(), quiet.end(),
                          std::back_inserter(common));
    if (!common.empty()) fail.add(fen + ": NOISY and QUIET overlap");
    for (auto raw : noisy) {
        const Move m(raw);
        const bool capture =
            (pos.piece_on(m.to()) != NO_PIECE && m.type() != CASTLING) || m.type() == EN_PASSANT;
        if (!capture && m.type() != PROMOTION) fail.add(fen + ": NOISY has " + move_to_uci(pos, m));
        if (!pos.is_capture_or_promotion(m)) fail.add(fen + ": is_capture_or_promotion");
    }
    for (auto raw : quiet) {
        const Move m(raw);
        const bool capture =
            (pos.piece_on(m.to()) != NO_PIECE && m.type() != CASTLING) || m.type() == EN_PASSANT;
        if (capture || m.type() == PROMOTION) fail.add(fen + ": QUIET has " + move_to_uci(pos, m));
    }
    if (count_legal_moves(pos) != all.size()) fail.add(fen + ": count_legal_moves != ALL");

    if (pos.in_check()) {
        ++in_check_positions;
        if (sorted_moves<GenType::EVASIONS>(pos) != all) fail.add(fen + ": EVASIONS != ALL");
    }
    // Every move leaves the mover's king safe (in check: resolves the check).
    for (auto raw : all) {
        const Move m(raw);
        pos.make_move(m);
        if (!mover_king_safe(pos)) fail.add(fen + ": leaves king in check: " + move_to_uci(pos, m));
        pos.unmake_move(m);
    }
    // And the move set is exactly the reference generator's.
    if (reference_moves(pos) != all) fail.add(fen + ": differs from the reference generator");
}

} // namespace

TEST_CASE("generation modes and the reference generator on suite positions", "[movegen]") {
    Failures fail;
    int positions = 0, in_check = 0;
    auto visit = [&](Position& pos) {
        ++positions;
        check_generation(pos, fail, in_check);
    };
    auto visit_with_children = [&](const std::string& fen, bool chess960) {
        Position pos = position_from(fen, chess960);
        visit(pos);
        MoveList list;
        generate<GenType::ALL>(pos, list);
        for (Move m : list) {
            pos.make_move(m);
            visit(pos);
            pos.unmake_move(m);
        }
    };
    for (const auto& e : load_epd("standard.epd"))
        visit_with_children(e.fen, false);
    for (const auto& e : load_epd("cpw.epd"))
        visit_with_children(e.fen, false);
    for (const auto& e : load_epd("chess960-tricky.epd"))
        visit_with_children(e.fen, true);
    const auto c960 = load_epd("chess960.epd");
    for (std::size_t i = 0; i < c960.size(); i += 8)
        visit_with_children(c960[i].fen, true);

    INFO(fail.first);
    CHECK(fail.count == 0);
    CHECK(positions > 5000);
    CHECK(in_check > 50);
}

TEST_CASE("generation modes and the reference generator along random games", "[movegen]") {
    const std::vector<std::pair<std::string, bool>> starts = {
        {std::string(Position::START_FEN), false},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
        {"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1", true},
        {"2r5/8/8/8/8/8/6PP/k2KR3 w E - 0 1", true},
    };
    std::mt19937 rng(424242);
    Failures fail;
    int positions = 0, in_check = 0;
    for (int game = 0; game < 60; ++game) {
        const auto& start = starts[game % starts.size()];
        Position pos = position_from(start.first, start.second);
        for (int ply = 0; ply < 120; ++ply) {
            ++positions;
            check_generation(pos, fail, in_check);
            MoveList list;
            generate<GenType::ALL>(pos, list);
            if (list.empty()) break;
            std::uniform_int_distribution<std::size_t> pick(0, list.size() - 1);
            pos.make_move(list[pick(rng)]);
        }
    }
    INFO(fail.first);
    CHECK(fail.count == 0);
    CHECK(positions > 3000);
    CHECK(in_check > 50);
}

TEST_CASE("check evasions on hand-made positions", "[movegen]") {
    // Double check: knight d3 and rook e8 both attack e1, so only the king may move.
    Position pos = position_from("4r2k/8/8/8/8/3n4/8/4K3 w - - 0 1");
    REQUIRE(popcount(pos.checkers()) == 2);
    MoveList list;
    generate<GenType::EVASIONS>(pos, list);
    // Of d1, d2, e2, f1, f2: e2 is on the rook's file and f2 is covered by the knight.
    std::vector<std::string> got;
    for (Move m : list)
        got.push_back(move_to_uci(pos, m));
    std::sort(got.begin(), got.end());
    CHECK(got == std::vector<std::string>{"e1d1", "e1d2", "e1f1"});

    // Single check by a rook: block, capture or step aside.
    Position single = position_from("4r2k/8/8/8/8/8/3B4/R3K3 w - - 0 1");
    MoveList ev;
    generate<GenType::EVASIONS>(single, ev);
    got.clear();
    for (Move m : ev)
        got.push_back(move_to_uci(single, m));
    std::sort(got.begin(), got.end());
    // Bd2-e3 is the only block (the a1 rook cannot reach e2-e7); the king goes to d1, f1
    // or f2 (e2 stays on the rook's file, d2 holds the bishop).
    CHECK(got == std::vector<std::string>{"d2e3", "e1d1", "e1f1", "e1f2"});
}

TEST_CASE("the 218-move position fits the move list", "[movegen]") {
    Position pos = position_from("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
    MoveList list;
    generate<GenType::ALL>(pos, list);
    CHECK(list.size() == 218);
    CHECK(MoveList::CAPACITY >= 218);
    CHECK(count_legal_moves(pos) == 218);
    CHECK(perft(pos, 1) == 218);
    CHECK(sorted_moves<GenType::ALL>(pos) == reference_moves(pos));
}

// ---------------------------------------------------------------------------------------
// Perft

namespace {

// Checks every position of a suite at every depth up to max_depth whose expected count is
// at most max_count. Returns the number of (position, depth) checks made.
int check_perft_file(const std::string& file, std::size_t expected_positions, int max_depth,
                     std::uint64_t max_count, bool chess960) {
    const auto entries = load_epd(file);
    REQUIRE(entries.size() == expected_positions);
    Failures fail;
    int checks = 0;
    for (const auto& e : entries) {
        Position pos = position_from(e.fen, chess960);
        const std::string fen_before = pos.fen();
        const Key key_before = pos.key();
        for (int d = 1; d <= max_depth && d <= int(e.counts.size()); ++d) {
            if (e.counts[d - 1] > max_count) break;
            const std::uint64_t n = perft(pos, d);
            ++checks;
            if (n != e.counts[d - 1])
                fail.add(e.fen + " depth " + std::to_string(d) + ": expected " +
                         std::to_string(e.counts[d - 1]) + ", got " + std::to_string(n));
        }
        if (pos.fen() != fen_before || pos.key() != key_before)
            fail.add(e.fen + ": changed by perft");
    }
    INFO(file << ": " << fail.first);
    CHECK(fail.count == 0);
    return checks;
}

} // namespace

TEST_CASE("perft: standard suite", "[perft]") {
    // Every depth whose count is at most 5M: D1-D4 everywhere, deeper in the endings.
    const int checks = check_perft_file("standard.epd", 126, 6, 5'000'000, false);
    CHECK(checks == 702); // counted from the file: 504 at D1-D4, 198 at D5-D6
}

TEST_CASE("perft: chessprogramming.org positions", "[perft]") {
    const int checks = check_perft_file("cpw.epd", 7, 8, 10'000'000, false);
    CHECK(checks == 30); // D1-D5, D1-D4, D1-D5, D1-D4, D1-D4, D1-D4, D1-D4
}

TEST_CASE("perft: Chess960 positions", "[perft][chess960]") {
    const int checks = check_perft_file("chess960.epd", 960, 4, 5'000'000, true);
    CHECK(checks == 960 * 4);
}

TEST_CASE("perft: Chess960 start positions", "[perft][chess960]") {
    const int checks = check_perft_file("chess960-startpos.epd", 960, 4, 5'000'000, true);
    CHECK(checks == 960 * 4);
}

TEST_CASE("perft: Chess960 castling tricks", "[perft][chess960]") {
    const int checks = check_perft_file("chess960-tricky.epd", 6, 4, 5'000'000, true);
    CHECK(checks == 6 * 4);
}

TEST_CASE("perft leaves the position unchanged and perft_divide sums to perft", "[perft]") {
    struct Case {
        std::string fen;
        int depth;
        std::uint64_t expected; // published count (cpw.epd / standard.epd)
    };
    const std::vector<Case> cases = {
        {std::string(Position::START_FEN), 4, 197281},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467},
        {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379},
    };
    for (const auto& c : cases) {
        INFO(c.fen);
        Position pos = position_from(c.fen);
        const std::string fen = pos.fen();
        const Key key = pos.key();
        const auto divide = perft_divide(pos, c.depth);
        std::uint64_t sum = 0;
        for (const auto& [m, n] : divide)
            sum += n;
        CHECK(sum == c.expected);
        CHECK(perft(pos, c.depth) == c.expected);
        CHECK(pos.fen() == fen);
        CHECK(pos.key() == key);
        // One entry per legal root move, each move once.
        std::vector<std::uint16_t> roots;
        for (const auto& [m, n] : divide)
            roots.push_back(m.raw());
        std::sort(roots.begin(), roots.end());
        CHECK(roots == sorted_moves<GenType::ALL>(pos));
        // Each entry is the perft of the child.
        for (const auto& [m, n] : divide) {
            pos.make_move(m);
            const std::uint64_t child = perft(pos, c.depth - 1);
            pos.unmake_move(m);
            if (child != n) FAIL_CHECK("divide entry " << move_to_uci(pos, m));
        }
    }
    Position start;
    CHECK(perft(start, 0) == 1);
    CHECK(perft(start, 1) == 20);
}

TEST_CASE("run_perft_suite reports passes, failures and unreadable files", "[perft][epd]") {
    std::ostringstream out, progress;
    std::vector<std::string> errors;
    SuiteResult r = run_perft_suite(perft_path("chess960-tricky.epd"), 3, out, progress, errors);
    CHECK(errors.empty());
    CHECK(r.positions == 6);
    CHECK(r.checks == 18);
    CHECK(r.failures == 0);
    CHECK(out.str().empty());

    // A suite with one wrong count and one bad FEN.
    const auto dir = std::filesystem::temp_directory_path();
    const auto path =
        dir / ("horizon_test_suite_" + std::to_string(std::random_device{}()) + ".epd");
    {
        std::ofstream f(path);
        f << "# comment line\n";
        f << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n";
        f << "\n";
        f << "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n";
        f << "4k3/8/8/8/8/8/8/4K2R w Q - 0 1 ;D1 15\n"; // no rook for Q
    }
    out.str("");
    errors.clear();
    r = run_perft_suite(path.string(), 0, out, progress, errors);
    CHECK(errors.empty());
    CHECK(r.positions == 3);
    CHECK(r.checks == 4);
    CHECK(r.failures == 2);
    CHECK(out.str().find("expected 401, got 400") != std::string::npos);
    CHECK(out.str().find("bad FEN") != std::string::npos);

    // A malformed line stops the run before it starts, named with its line number.
    {
        std::ofstream f(path);
        f << "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n";
        f << "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 66\n";
    }
    errors.clear();
    r = run_perft_suite(path.string(), 0, out, progress, errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find(":2:") != std::string::npos);
    CHECK(r.positions == 0);
    std::filesystem::remove(path);

    errors.clear();
    r = run_perft_suite(perft_path("no-such-file.epd"), 1, out, progress, errors);
    CHECK_FALSE(errors.empty());
    CHECK(r.positions == 0);
}

TEST_CASE(
    "is_surely_legal: never a move the generator lacks; every plain legal move when not in check",
    "[movegen]") {
    long long accepted = 0, missed = 0;
    auto check_all_encodings = [&](Position& pos) {
        MoveList legal;
        generate<GenType::ALL>(pos, legal);
        // Every 16-bit encoding: what it accepts is legal.
        for (unsigned raw = 0; raw < 65536; ++raw) {
            const Move m{std::uint16_t(raw)};
            if (!pos.is_surely_legal(m)) continue;
            ++accepted;
            INFO(pos.fen() << " move " << raw);
            REQUIRE(legal.contains(m));
        }
        // And out of check it decides every normal move itself.
        if (!pos.in_check())
            for (Move m : legal)
                if (m.type() == NORMAL && !pos.is_surely_legal(m)) ++missed;
    };
    int positions = 0;
    for (const auto& e : load_epd("standard.epd")) {
        Position pos = position_from(e.fen);
        check_all_encodings(pos);
        MoveList list;
        generate<GenType::ALL>(pos, list);
        for (std::size_t i = 0; i < list.size(); i += 5) {
            pos.make_move(list[i]);
            check_all_encodings(pos);
            pos.unmake_move(list[i]);
            ++positions;
        }
    }
    CHECK(positions > 300);
    CHECK(accepted > 5000); // the normal moves of every position visited
    CHECK(missed == 0);
}
