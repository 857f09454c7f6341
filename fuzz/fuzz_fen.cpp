// FEN: any text either is refused or gives a position whose FEN reads back to the same
// position (the same FEN, the same hash); every legal move of it makes and unmakes cleanly,
// the incremental hashes agree with the ones computed from scratch, and the counted moves are
// the generated ones. Both as a standard game and as Chess960.
#include <string>

#include "core/position.hpp"
#include "fuzz_support.hpp"
#include "movegen/movegen.hpp"

using namespace horizon;

namespace {

void check_position(Position& pos, bool chess960) {
    const std::string fen = pos.fen();
    Position again;
    FUZZ_CHECK(!again.set_fen(fen, chess960), fen);
    FUZZ_CHECK(again.fen() == fen, fen);
    FUZZ_CHECK(again.key() == pos.key(), fen);
    FUZZ_CHECK(pos.key() == pos.compute_key(), fen);
    FUZZ_CHECK(pos.pawn_key() == pos.compute_pawn_key(), fen);

    MoveList moves;
    generate<GenType::ALL>(pos, moves);
    FUZZ_CHECK(count_legal_moves(pos) == moves.size(), fen);
    for (Move m : moves) {
        FUZZ_CHECK(pos.is_legal(m), fen);
        pos.make_move(m);
        FUZZ_CHECK(pos.key() == pos.compute_key(), fen);
        FUZZ_CHECK(pos.pawn_key() == pos.compute_pawn_key(), fen);
        const std::string child = pos.fen();
        Position reread;
        FUZZ_CHECK(!reread.set_fen(child, chess960), child);
        FUZZ_CHECK(reread.fen() == child, child);
        pos.unmake_move(m);
        FUZZ_CHECK(pos.fen() == fen, fen);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_init();
    const std::string_view text = fuzz_text(data, size);
    for (bool chess960 : {false, true}) {
        Position pos;
        const std::string before = pos.fen();
        if (pos.set_fen(text, chess960)) {
            // Refused: the position it held stays.
            FUZZ_CHECK(pos.fen() == before, std::string(text));
            continue;
        }
        check_position(pos, chess960);
    }
    return 0;
}
