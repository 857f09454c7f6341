// The PGN writer: a game (notation/pgn.hpp) in export format, what the standard prescribes;
// the reader (notation/pgn_reader) reads it back into the same game.
#pragma once

#include <iosfwd>
#include <string>

#include "notation/pgn.hpp"

namespace horizon {

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

} // namespace horizon
