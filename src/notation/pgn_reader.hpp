// The PGN reader: games read one by one from a stream (the import format, what real files
// hold), each into a PgnGame (notation/pgn.hpp), over the tokens of notation/pgn_lexer.
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
#include <iosfwd>
#include <memory>
#include <string_view>
#include <vector>

#include "notation/pgn.hpp"

namespace horizon {

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

} // namespace horizon
