#include "cli/tbprobe.hpp"

#include <algorithm>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "core/position.hpp"
#include "eval/tablebases.hpp"
#include "movegen/movegen.hpp"

namespace horizon {

namespace {

constexpr const char* FOOTER =
    "\nOne line a position, 'FEN | WDL | DTZ' (WDL: win, cursed win, draw, blessed loss or loss\n"
    "for the side to move, the fifty-move counter counted; DTZ: plies to a capture or pawn\n"
    "move, signed, '-' without a DTZ table; '|' alone: not in the tables). --random N draws N\n"
    "random legal positions (default 3-4 pieces) with the side to move, en passant and the\n"
    "fifty-move counter varied, the same for the same seed; --material: only that material\n"
    "(White's pieces, 'v', Black's), counter at 0.\n";

// A random legal position of `pieces` pieces (kings included), nullopt when the draw failed.
// With `en_passant`, two of the pieces are pawns set up so that the side to move has just
// made a double step beside an enemy pawn: an en passant capture is on the board.
// With `material` ("KBNvK": White's pieces, then Black's), those pieces and no others.
std::optional<Position> random_position(std::mt19937_64& rng, int pieces, bool en_passant,
                                        const std::string& material = "") {
    const char types[] = {'Q', 'R', 'B', 'N', 'P'};
    char board[64];
    std::fill(std::begin(board), std::end(board), '.');
    auto empty_square = [&](bool pawn) {
        for (;;) {
            const int s = int(rng() % 64);
            if (board[s] != '.') continue;
            if (pawn && (s < 8 || s >= 56)) continue;
            return s;
        }
    };
    bool white = rng() % 2; // to move
    int step_from = -1, step_to = -1;
    if (en_passant) {
        if (pieces < 4) return std::nullopt;
        // The side to move before the step, its pawn on its second rank, the enemy pawn on
        // its fourth beside the square the step reaches.
        const int file = int(rng() % 8), side = file == 0 ? 1 : file == 7 ? -1 : rng() % 2 ? 1 : -1;
        const int from_rank = white ? 1 : 6, to_rank = white ? 3 : 4;
        step_from = from_rank * 8 + file;
        step_to = to_rank * 8 + file;
        board[step_from] = white ? 'P' : 'p';
        board[to_rank * 8 + file + side] = white ? 'p' : 'P';
        board[(from_rank + to_rank) / 2 * 8 + file] = '#'; // kept empty
        board[step_to] = '#';
        pieces -= 2;
    }
    if (!material.empty()) {
        bool black = false;
        for (char c : material) {
            if (c == 'v')
                black = true;
            else
                board[empty_square(c == 'P')] = black ? char(c - 'A' + 'a') : c;
        }
        pieces = 0;
    } else {
        board[empty_square(false)] = 'K';
        board[empty_square(false)] = 'k';
    }
    for (int i = 2; i < pieces; ++i) {
        const char t = types[rng() % 5];
        const bool white_piece = rng() % 2;
        board[empty_square(t == 'P')] = white_piece ? t : char(t - 'A' + 'a');
    }
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int run = 0;
        for (int file = 0; file < 8; ++file) {
            const char c = board[rank * 8 + file];
            if (c == '.' || c == '#') {
                ++run;
                continue;
            }
            if (run) fen += char('0' + run);
            run = 0;
            fen += c;
        }
        if (run) fen += char('0' + run);
        if (rank) fen += '/';
    }
    const int rule50 = !material.empty() || rng() % 2 ? 0 : int(rng() % 100);
    fen += std::string(white ? " w" : " b") + " - - " + std::to_string(rule50) + " 60";
    Position pos;
    if (pos.set_fen(fen)) return std::nullopt;
    // The side that has just moved may not be in check.
    const Color them = ~pos.side_to_move();
    if (pos.attackers_to(pos.king_square(them)) & pos.pieces(pos.side_to_move()))
        return std::nullopt;
    if (en_passant) {
        MoveList moves;
        generate<GenType::ALL>(pos, moves);
        const auto step = std::find_if(moves.begin(), moves.end(), [&](Move m) {
            return m.from() == Square(step_from) && m.to() == Square(step_to);
        });
        if (step == moves.end()) return std::nullopt;
        pos.make_move(*step);
    }
    return pos;
}

} // namespace

int tbprobe_main(int argc, const char* const* argv) {
    CommandLine cli("tbprobe", "Probe the Syzygy tables: the WDL and DTZ of a position, or of "
                               "random positions.");
    // clang-format off
    cli.add()
        ("syzygy-path", "the tables (folders joined by ':', ';' on Windows); required", cxxopts::value<std::string>(), "PATH")
        ("fen", "the position (or its words without the flag)", cxxopts::value<std::string>(), "FEN")
        ("random", "probe N random legal positions instead", cxxopts::value<std::string>(), "N")
        ("seed", "with --random: the seed (default 1)", cxxopts::value<std::string>(), "N")
        ("pieces", "with --random: pieces, kings included (default 3-4)", cxxopts::value<std::string>(), "MIN-MAX")
        ("material", "with --random: only this material", cxxopts::value<std::string>(), "KBNvK");
    // clang-format on
    cli.positional({"fen-words"}, "", true); // shown in the synopsis
    cli.synopsis("--syzygy-path PATH ([--fen] FEN | --random N [--seed N] [--pieces MIN-MAX] "
                 "[--material KBNvK])");
    cli.footer(FOOTER);
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    std::string path, fen;
    std::uint64_t n = 0, s = 1;
    int lo = 3, hi = 4;
    const std::optional<std::string> material = text_flag(args, "material");
    try {
        if (!args.count("syzygy-path")) throw UsageError("--syzygy-path is needed");
        path = args["syzygy-path"].as<std::string>();
        fen = fen_argument(args, "fen-words");
        if (args.count("random") && !fen.empty())
            throw UsageError("--random: a FEN or --random, not both");
        if (!args.count("random")) {
            for (const char* flag : {"seed", "pieces", "material"})
                if (args.count(flag))
                    throw UsageError(std::string("--") + flag + " goes with --random");
        } else {
            n = whole_flag(args, "random", 1, 100'000'000);
            if (args.count("seed")) s = whole_flag(args, "seed", 0, UINT64_MAX);
        }
        if (auto pieces = text_flag(args, "pieces")) {
            const auto dash = pieces->find('-');
            lo = int(whole_number("--pieces", pieces->substr(0, dash), 2, TbConfig::MAX_PIECES));
            hi = dash == std::string::npos ? lo
                                           : int(whole_number("--pieces", pieces->substr(dash + 1),
                                                              2, TbConfig::MAX_PIECES));
            if (lo > hi) throw UsageError("--pieces: runs backwards: '" + *pieces + "'");
        }
        if (material) {
            const auto v = material->find('v');
            const bool ok = v != std::string::npos && material->size() <= 8 &&
                            material->find_first_not_of("KQRBNPv") == std::string::npos &&
                            std::count(material->begin(), material->end(), 'K') == 2 &&
                            (*material)[0] == 'K' && (*material)[v + 1] == 'K';
            if (!ok) throw UsageError("--material: not pieces like KBNvK: '" + *material + "'");
        }
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    Tablebases tables;
    const TbLoad load = tables.set_path(path);
    for (const auto& p : load.problems)
        std::cerr << "horizon tbprobe: " << p << "\n";
    if (!tables.enabled()) {
        std::cerr << "horizon tbprobe: " << load.summary() << " in '" << path << "'\n";
        return 1;
    }
    if (hi > tables.largest())
        return cli.fail("--pieces: the tables hold " + std::to_string(tables.largest()) +
                        " pieces at most, not " + std::to_string(hi));
    std::vector<Position> positions;
    if (args.count("random")) {
        std::mt19937_64 rng(s);
        while (material && positions.size() < n)
            if (auto pos = random_position(rng, 0, false, *material)) positions.push_back(*pos);
        while (!material && positions.size() < n) {
            const int n_pieces = lo + int(rng() % unsigned(hi - lo + 1));
            auto pos = random_position(rng, n_pieces, n_pieces >= 4 && rng() % 4 == 0);
            if (pos) positions.push_back(*pos);
        }
    } else {
        Position pos;
        if (auto err = pos.set_fen(fen)) return cli.fail("bad FEN: " + err->message);
        positions.push_back(pos);
    }
    for (const auto& pos : positions) {
        const auto probe = tables.probe(pos);
        std::cout << pos.fen() << " | ";
        if (probe) {
            std::cout << tb_wdl_name(probe->wdl) << " | ";
            if (probe->dtz)
                std::cout << *probe->dtz;
            else
                std::cout << '-';
        }
        std::cout << "\n";
    }
    return 0;
}

} // namespace horizon
