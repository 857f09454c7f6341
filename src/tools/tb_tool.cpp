#include "tools/tb_tool.hpp"

#include <algorithm>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "eval/tablebases.hpp"
#include "movegen/movegen.hpp"
#include "tools/eval_file_flag.hpp"

namespace horizon {

namespace {

constexpr const char* USAGE =
    "usage: horizon tbprobe --syzygy-path PATH [[--fen] FEN]\n"
    "       horizon tbprobe --syzygy-path PATH --random N [--seed S] [--pieces MIN-MAX]\n"
    "                       [--material KBNvK]\n"
    "Probes the Syzygy tables: one line a position, 'FEN | WDL | DTZ' (WDL: win, cursed win,\n"
    "draw, blessed loss or loss for the side to move, the fifty-move counter counted; DTZ:\n"
    "plies to a capture or pawn move, signed, '-' without a DTZ table; '|' alone: not in the\n"
    "tables). --random N draws N random legal positions (default 3-4 pieces) with the side to\n"
    "move, en passant and the fifty-move counter varied, the same for the same seed;\n"
    "--material: only that material (White's pieces, 'v', Black's), counter at 0.\n";

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
    std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
        std::cout << USAGE;
        return args.empty() ? 2 : 0;
    }
    std::optional<std::string> path, random, seed, pieces, material;
    for (auto [flag, what, out] :
         {std::tuple{"--syzygy-path", "a folder", &path},
          std::tuple{"--random", "a count", &random}, std::tuple{"--seed", "a number", &seed},
          std::tuple{"--pieces", "a range like 3-4", &pieces},
          std::tuple{"--material", "pieces like KBNvK", &material}}) {
        if (auto err = take_value_flag(args, flag, what, *out)) {
            std::cerr << "horizon tbprobe: " << *err << "\n";
            return 2;
        }
    }
    if (!path) {
        std::cerr << "horizon tbprobe: --syzygy-path is needed\n" << USAGE;
        return 2;
    }
    Tablebases tables;
    const TbLoad load = tables.set_path(*path);
    for (const auto& p : load.problems)
        std::cerr << "horizon tbprobe: " << p << "\n";
    if (!tables.enabled()) {
        std::cerr << "horizon tbprobe: " << load.summary() << " in '" << *path << "'\n";
        return 1;
    }
    std::string fen;
    if (auto err = take_fen_words(args, fen)) {
        std::cerr << "horizon tbprobe: " << *err << "\n";
        return 2;
    }
    std::vector<Position> positions;
    if (random && !fen.empty()) {
        std::cerr << "horizon tbprobe: a FEN or --random, not both\n";
        return 2;
    }
    if (random) {
        std::uint64_t n = 0, s = 1;
        int lo = 3, hi = 4;
        try {
            n = std::stoull(*random);
            if (seed) s = std::stoull(*seed);
            if (pieces) {
                const auto dash = pieces->find('-');
                lo = std::stoi(pieces->substr(0, dash));
                hi = dash == std::string::npos ? lo : std::stoi(pieces->substr(dash + 1));
            }
        } catch (const std::exception&) {
            std::cerr << "horizon tbprobe: --random, --seed and --pieces take numbers\n";
            return 2;
        }
        if (lo < 2 || hi > tables.largest() || lo > hi) {
            std::cerr << "horizon tbprobe: --pieces must lie within 2-" << tables.largest() << "\n";
            return 2;
        }
        std::mt19937_64 rng(s);
        if (material) {
            const auto v = material->find('v');
            const bool ok = v != std::string::npos && material->size() <= 8 &&
                            material->find_first_not_of("KQRBNPv") == std::string::npos &&
                            std::count(material->begin(), material->end(), 'K') == 2 &&
                            (*material)[0] == 'K' && (*material)[v + 1] == 'K';
            if (!ok) {
                std::cerr << "horizon tbprobe: --material takes pieces like KBNvK\n";
                return 2;
            }
        }
        while (material && positions.size() < n)
            if (auto pos = random_position(rng, 0, false, *material)) positions.push_back(*pos);
        while (!material && positions.size() < n) {
            const int n_pieces = lo + int(rng() % unsigned(hi - lo + 1));
            auto pos = random_position(rng, n_pieces, n_pieces >= 4 && rng() % 4 == 0);
            if (pos) positions.push_back(*pos);
        }
    } else {
        Position pos;
        if (auto err = pos.set_fen(fen)) {
            std::cerr << "horizon tbprobe: bad FEN: " << err->message << "\n";
            return 2;
        }
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
