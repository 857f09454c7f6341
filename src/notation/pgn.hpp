// PGN (Portable Game Notation): games with their tags, moves, comments, NAGs and nested
// variations. A streaming reader for the import format (what real files hold) and a writer
// for the export format (what the standard prescribes); the reader reads the writer's
// output back into the same game.
//
//     std::ifstream in(path, std::ios::binary);
//     PgnReader reader(in, {.comments = false, .variations = false});
//     PgnGame game;
//     while (reader.next(game)) {
//         if (game.error) { std::cerr << game.error->message() << "\n"; continue; }
//         Position pos = game.start;
//         for (const PgnMove& m : game.moves.moves) pos.make_move(m.move);
//     }
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
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

struct PgnReadOptions {
    bool comments = true;   // keep comments (else they are skipped)
    bool variations = true; // keep variations, their moves checked (else skipped unread)
};

// Reads games one by one from a stream, holding one game at a time. Reads every game
// there is, and nothing else makes a game: a game that cannot be read whole (an illegal or
// unreadable move, a bad tag or FEN, an unknown variant) comes back with `error` set and the
// reader goes on with the next game. Comments ({...} and ; to the end of the line) may stand
// anywhere between tokens: before a game's tags they go to comment_before_tags (with no
// tags, to the first move's comment_before), and after the last game they belong to no game
// and are skipped. Accepts a UTF-8 byte order mark, CRLF line ends, "%" escape lines, a
// missing result, moves in SAN or long algebraic ("Ng1-f3", "g1f3", "e7e8q"; see parse_san),
// a FEN tag without its move counters (read as Position::set_fen reads it), and Chess960
// games (Variant "Chess960", "Fischerandom", ... with X-FEN or Shredder-FEN). Move numbers
// are checked against the position, but only warn (PgnGame::warnings).
class PgnReader {
public:
    explicit PgnReader(std::istream& in, PgnReadOptions options = {});
    ~PgnReader();
    PgnReader(const PgnReader&) = delete;
    PgnReader& operator=(const PgnReader&) = delete;

    // Reads the next game into `game` (replacing what it held; reusing one PgnGame across
    // calls saves allocations). False when the input has no more games.
    bool next(PgnGame& game);
    // Games read so far, those with errors included.
    std::size_t games_read() const;

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

// Every game of a text (for small inputs; a file is better read with a PgnReader).
std::vector<PgnGame> read_pgn(std::string_view text, PgnReadOptions options = {});

struct PgnWriteOptions {
    int max_line = 79;      // move text is wrapped into lines of at most this many characters
    bool comments = true;   // write the comments
    bool variations = true; // write the variations
    // NAGs 1-6 as "!", "?", "!!", "??", "!?", "?!" after the move instead of $1-$6.
    bool nag_suffixes = false;
};

// Writes the game in export format: comment_before_tags in braces (when comments are
// written), the seven tag roster first (Event, Site, Date, Round,
// White, Black, Result; "?" where the game has none), SetUp/FEN and Variant when the start
// asks for them, the other tags in their order, a blank line, the wrapped move text with
// comments, NAGs and variations, the result, and a blank line. For games built by hand:
// a '}' in a comment (PGN has no escape for it) is written as ')', and a line stops before
// its first move that is not legal where it stands.
void write_pgn(std::ostream& out, const PgnGame& game, const PgnWriteOptions& options = {});
std::string to_pgn(const PgnGame& game, const PgnWriteOptions& options = {});

// True for "1-0", "0-1", "1/2-1/2" and "*".
bool is_pgn_result(std::string_view text);

// Commands embedded in comments, "[%name value]" (e.g. "[%eval 0.25]", "[%clk 0:01:02]"):
// the value of the first one named `name`, or nullopt; and a comment with that command set
// (replaced in place, or appended).
std::optional<std::string> pgn_command(std::string_view comment, std::string_view name);
std::string set_pgn_command(std::string_view comment, std::string_view name,
                            std::string_view value);

} // namespace horizon
