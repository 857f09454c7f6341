// EPD: any line is refused with a reason or read; a position read has a FEN that reads back
// to it, and each operation's moves (when it names moves) are legal there. Perft-suite lines
// too: a line read has its counts and a FEN of six fields.
#include <string>

#include "core/position.hpp"
#include "fuzz_support.hpp"
#include "notation/epd.hpp"

using namespace horizon;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_init();
    for (std::string_view line : fuzz_lines(fuzz_text(data, size))) {
        std::string error;
        const auto split = split_epd(line, error);
        FUZZ_CHECK(bool(split) == error.empty(), std::string(line));
        for (bool chess960 : {false, true}) {
            error.clear();
            const auto record = parse_epd(line, error, chess960);
            FUZZ_CHECK(bool(record) == error.empty(), std::string(line));
            if (!record) continue;
            FUZZ_CHECK(split.has_value(), std::string(line));
            const std::string fen = record->pos.fen();
            Position again;
            FUZZ_CHECK(!again.set_fen(fen, chess960) && again.fen() == fen, fen);
            for (const EpdOperation& op : record->operations) {
                std::string why;
                if (const auto moves = epd_moves(record->pos, op, why)) {
                    for (Move m : *moves)
                        FUZZ_CHECK(record->pos.is_legal(m), fen + " " + op.opcode);
                } else {
                    FUZZ_CHECK(!why.empty(), fen + " " + op.opcode);
                }
            }
        }
        error.clear();
        if (const auto perft = parse_perft_epd_line(line, error)) {
            FUZZ_CHECK(error.empty(), std::string(line));
            std::size_t fields = 0;
            for (std::size_t i = 0; i < perft->fen.size(); ++i)
                fields += perft->fen[i] != ' ' && (i == 0 || perft->fen[i - 1] == ' ');
            FUZZ_CHECK(fields == 6, perft->fen);
        } else {
            FUZZ_CHECK(!error.empty(), std::string(line));
        }
    }
    return 0;
}
