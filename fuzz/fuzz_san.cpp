// Move text: the input's first line is a FEN (empty or refused: the standard start), each
// further line a move as SAN, long algebraic or UCI text. A move read must be legal and must
// be written back to text that reads as the same move; every legal move's SAN and UCI text
// read back as that move.
#include <string>

#include "core/position.hpp"
#include "fuzz_support.hpp"
#include "movegen/movegen.hpp"
#include "notation/san.hpp"
#include "notation/uci_move.hpp"

using namespace horizon;

namespace {

void check_writers(const Position& pos) {
    MoveList moves;
    generate<GenType::ALL>(pos, moves);
    for (Move m : moves) {
        const std::string san = move_to_san(pos, m);
        const ParsedMove back = parse_san(pos, san);
        FUZZ_CHECK(back.move == m, pos.fen() + " " + san + ": " + back.error);
        const std::string uci = move_to_uci(pos, m);
        const auto uci_back = parse_uci_move(pos, uci);
        FUZZ_CHECK(uci_back && *uci_back == m, pos.fen() + " " + uci);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_init();
    const auto lines = fuzz_lines(fuzz_text(data, size));
    if (lines.empty()) return 0;
    Position pos;
    const bool chess960 = !lines[0].empty() && lines[0].back() == '*';
    const std::string_view fen = chess960 ? lines[0].substr(0, lines[0].size() - 1) : lines[0];
    if (pos.set_fen(fen, chess960)) pos = Position();
    check_writers(pos);
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const ParsedMove san = parse_san(pos, lines[i]);
        FUZZ_CHECK(bool(san) == san.error.empty(), std::string(lines[i]));
        if (san) {
            FUZZ_CHECK(pos.is_legal(san.move), pos.fen() + " " + std::string(lines[i]));
            const std::string written = move_to_san(pos, san.move);
            FUZZ_CHECK(parse_san(pos, written).move == san.move, pos.fen() + " " + written);
        }
        const auto uci = parse_uci_move(pos, lines[i]);
        if (uci) {
            FUZZ_CHECK(pos.is_legal(*uci), pos.fen() + " " + std::string(lines[i]));
            FUZZ_CHECK(move_to_uci(pos, *uci) == lines[i] ||
                           parse_uci_move(pos, move_to_uci(pos, *uci)) == uci,
                       pos.fen() + " " + std::string(lines[i]));
        }
        // Play on: the move read (SAN first), so later lines meet later positions.
        const Move played = san ? san.move : uci ? *uci : Move::none();
        if (played != Move::none()) {
            pos.make_move(played);
            check_writers(pos);
        }
    }
    return 0;
}
