#include "movegen/random_position.hpp"

#include <algorithm>
#include <iterator>

#include "movegen/movegen.hpp"

namespace horizon {

std::optional<Position> random_position(std::mt19937_64& rng, int pieces, bool en_passant,
                                        const std::string& material) {
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

std::vector<Position> random_positions(std::uint64_t seed, std::uint64_t count, int min_pieces,
                                       int max_pieces, const std::optional<std::string>& material) {
    std::vector<Position> positions;
    std::mt19937_64 rng(seed);
    while (material && positions.size() < count)
        if (auto pos = random_position(rng, 0, false, *material)) positions.push_back(*pos);
    while (!material && positions.size() < count) {
        const int n_pieces = min_pieces + int(rng() % unsigned(max_pieces - min_pieces + 1));
        auto pos = random_position(rng, n_pieces, n_pieces >= 4 && rng() % 4 == 0);
        if (pos) positions.push_back(*pos);
    }
    return positions;
}

} // namespace horizon
