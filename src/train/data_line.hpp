// The training data's lines: the one format between `horizon datagen`, which writes it, and
// `horizon tune`, which reads it. Both sides go through this file, so a line one writes the
// other reads.
//
//     <FEN> | <score> | <result>      a position: the search score in centipawns and the game
//                                    result (1.0, 0.5 or 0.0), both from White's point of view
//     # game <g>                     the end of game g's block of positions
//     # <anything>                   a comment (the first character that is not blank is '#')
//     (blank)                        skipped
//
// What is written: the FEN as Position::fen() gives it, " | " between the fields, the score as
// an integer and the result as "1.0", "0.5" or "0.0". What is read, besides: blanks around each
// field (a trailing '\r' included), a '+' before the score, the results "1", "1/2" and "0", and
// a FEN of four fields (read as if " 0 1" followed).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/position.hpp"

namespace horizon {

// A score outside ±DATA_SCORE_LIMIT is refused (the engine's scores are far inside it).
constexpr int DATA_SCORE_LIMIT = 1000000;

// One position line. The result is White's points in halves: 2 won, 1 drawn, 0 lost.
struct DataLine {
    Position pos;
    int score = 0;
    int result_halves = 1;
};

enum class LineKind {
    BLANK,
    COMMENT,
    GAME_END, // a comment beginning "# game "
    POSITION, // anything else: read it with read_data_line
};

// Writing: appends the line and its '\n' to `out`.
void append_data_line(std::string& out, std::string_view fen, int score, int result_halves);
void append_game_end(std::string& out, std::uint64_t game);
// "# <text>": a comment line, without the '\n'.
std::string comment_line(std::string_view text);

// Reading. `line` is one line without its '\n'.
LineKind line_kind(std::string_view line);
// A position line into `out`; on a malformed line returns what is wrong with it, and `out` is
// left in an unspecified state.
std::optional<std::string> read_data_line(std::string_view line, DataLine& out);
// A GAME_END line's game number, or what is wrong with the line.
std::optional<std::string> read_game_end(std::string_view line, std::uint64_t& game);

} // namespace horizon
