// Training-data lines (what `tune` reads): any line is classified, and a position line is
// refused with a reason or read; a line read is written back by the one writer and reads
// back the same (the position, the score, the result).
#include <string>

#include "fuzz_support.hpp"
#include "train/data_line.hpp"

using namespace horizon;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_init();
    for (std::string_view line : fuzz_lines(fuzz_text(data, size))) {
        const LineKind kind = line_kind(line);
        if (kind == LineKind::GAME_END) {
            std::uint64_t game = 0;
            if (!read_game_end(line, game)) {
                std::string out;
                append_game_end(out, game);
                std::uint64_t back = 0;
                FUZZ_CHECK(!read_game_end(std::string_view(out).substr(0, out.size() - 1), back),
                           out);
                FUZZ_CHECK(back == game, out);
            }
            continue;
        }
        if (kind != LineKind::POSITION) continue;
        DataLine read;
        if (auto err = read_data_line(line, read)) {
            FUZZ_CHECK(!err->empty(), std::string(line));
            continue;
        }
        FUZZ_CHECK(read.score >= -DATA_SCORE_LIMIT && read.score <= DATA_SCORE_LIMIT,
                   std::string(line));
        FUZZ_CHECK(read.result_halves >= 0 && read.result_halves <= 2, std::string(line));
        std::string out;
        append_data_line(out, read.pos.fen(), read.score, read.result_halves);
        FUZZ_CHECK(!out.empty() && out.back() == '\n', out);
        const std::string_view written = std::string_view(out).substr(0, out.size() - 1);
        FUZZ_CHECK(line_kind(written) == LineKind::POSITION, out);
        DataLine back;
        const auto err = read_data_line(written, back);
        FUZZ_CHECK(!err, out + err.value_or(""));
        FUZZ_CHECK(back.pos.fen() == read.pos.fen() && back.score == read.score &&
                       back.result_halves == read.result_halves,
                   out);
    }
    return 0;
}
