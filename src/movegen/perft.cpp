#include "movegen/perft.hpp"

#include "movegen/movegen.hpp"

namespace horizon {

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return count_legal_moves(pos);
    MoveList list;
    generate<GenType::ALL>(pos, list);
    std::uint64_t nodes = 0;
    if (depth == 2) {
        for (Move m : list) {
            pos.make_move(m);
            nodes += count_legal_moves(pos);
            pos.unmake_move(m);
        }
        return nodes;
    }
    for (Move m : list) {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move(m);
    }
    return nodes;
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth) {
    std::vector<std::pair<Move, std::uint64_t>> out;
    MoveList list;
    generate<GenType::ALL>(pos, list);
    for (Move m : list) {
        pos.make_move(m);
        out.emplace_back(m, perft(pos, depth - 1));
        pos.unmake_move(m);
    }
    return out;
}

} // namespace horizon
