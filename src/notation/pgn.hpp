// PGN (Portable Game Notation): games with their tags, moves, comments, NAGs and nested
// variations, as the reader fills them in and the writer writes them out. The jobs stand in
// files of their own: notation/pgn_reader (a streaming reader of the import format, what real
// files hold), notation/pgn_writer (the export format, what the standard prescribes; the
// reader reads its output back into the same game) and, below the reader, notation/pgn_lexer.
// Here: the game itself, and the commands analyses write into comments ("[%eval 0.25]").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.hpp"
#include "core/types.hpp"

namespace horizon {

struct PgnLine;

// One move, with what the file says about it.
struct PgnMove {
    Move move; // Move::null() for a null move, written "--" (a side passes; never in check)
    std::vector<std::uint8_t> nags; // $n in file order; "!", "?", "!!", "??", "!?", "?!" too
    // The reader puts a comment after a move into comment_after, unless variations came
    // between them: then it stands before the next move (comment_before) or, with no move
    // left, in the line's trailing_comment. A line's first comment is its first move's
    // comment_before. Comments are kept with each run of white space made one space; an
    // analysis writes commands such as "[%eval 0.25]" into them (see pgn_command).
    std::string comment_before;
    std::string comment_after;
    std::vector<PgnLine> variations; // alternatives to this move, from the same position

    bool operator==(const PgnMove&) const = default;
};

// A sequence of moves from one position: a game's main line or a variation.
struct PgnLine {
    std::vector<PgnMove> moves;
    std::string trailing_comment; // after the last move's variations, or in a line of no moves

    bool operator==(const PgnLine&) const = default;
};

struct PgnTag {
    std::string name;
    std::string value; // unescaped

    bool operator==(const PgnTag&) const = default;
};

// Why a game could not be read (PgnGame::error), or what was read past in it
// (PgnGame::warnings). move_number and side say where in the game: the full-move number and
// side to move of the position the offending text was read in (move_number 0: in the tags,
// before any move).
struct PgnError {
    std::size_t game = 0; // 1-based, counting every game of the input
    std::size_t line = 0; // 1-based line of the input
    int move_number = 0;
    Color side = WHITE;
    bool in_variation = false;
    std::string text;   // the offending text, e.g. "Nf9"
    std::string reason; // e.g. "no white knight can move to f9"

    // "game 2, move 14... (line 37): 'Nxe5': no black knight can move to e5"
    std::string message() const;
};

struct PgnGame {
    std::string comment_before_tags; // comments before or between the tags
    std::vector<PgnTag> tags;        // in file order
    Position start;                  // from the FEN tag (and Variant), else the standard start
    PgnLine moves;                   // the main line
    std::string result = "*";        // "1-0", "0-1", "1/2-1/2" or "*"
    // Set when the game could not be read whole; what came before the problem is kept.
    std::optional<PgnError> error;
    // What the reader read past, the game still whole: a move number that does not fit the
    // position ("5." at move 7, "3..." before a white move; one warning a game, which counts
    // the others). The moves decide, not the numbers.
    std::vector<PgnError> warnings;

    // The tag's value, or "" when the game has no such tag.
    std::string_view tag(std::string_view name) const;
    bool has_tag(std::string_view name) const;
    // Replaces the tag's value, or appends the tag.
    void set_tag(std::string_view name, std::string_view value);
    // The main line's moves (null moves included), and the position after them.
    std::vector<Move> main_line() const;
    Position end_position() const;
};

// True for "1-0", "0-1", "1/2-1/2" and "*".
bool is_pgn_result(std::string_view text);

// Commands embedded in comments, "[%name value]" (e.g. "[%eval 0.25]", "[%clk 0:01:02]"):
// the value of the first one named `name`, or nullopt; and a comment with that command set
// (replaced in place, or appended).
std::optional<std::string> pgn_command(std::string_view comment, std::string_view name);
std::string set_pgn_command(std::string_view comment, std::string_view name,
                            std::string_view value);

} // namespace horizon
