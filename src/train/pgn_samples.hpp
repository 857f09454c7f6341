// Training positions from played games: the quiet positions of PGN games that match runners
// (fastchess, cutechess) wrote, each with the score the engine to move gave in its move comment
// ("{+0.35/16 0.412s}") and the game's result, in the data-line format `horizon tune` reads.
// Stronger engines' games played here make better-labelled data than Horizon's own early
// self-play. The front end is `horizon datagen --from-pgn` (cli/datagen).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace horizon {

struct PgnSampleOptions {
    int skip_plies = 8;   // plies after each game's start position that are not written
    int max_score = 2000; // positions scored beyond +-this (cp) are not written
    // When set: a game with the start position, moves and result of a game recorded here is
    // skipped (a copy: at fixed nodes a match plays an opening's games again move for move),
    // and every game used is recorded. Shared by the files of one run.
    std::set<std::string>* distinct = nullptr;
};

struct PgnSampleSummary {
    std::uint64_t games = 0;      // games read
    std::uint64_t used = 0;       // games whose positions were written
    std::uint64_t unreadable = 0; // games the reader could not read whole
    std::uint64_t unfinished = 0; // result "*"
    std::uint64_t abnormal = 0;   // ended by time, an illegal move, a stall, ...
    std::uint64_t repeats = 0;    // copies of a game used before (options.distinct)
    std::uint64_t positions = 0;  // written
};

// The score (centipawns, from the side that moved) of a match runner's move comment: the
// leading "+0.35" or "-1.20" of "+0.35/16 0.412s"; nullopt for a mate ("+M5/20"), a book move
// ("book") or anything else.
std::optional<int> comment_score(std::string_view comment);

// Reads every game of `in` and appends its training lines to `out`, closing each used game
// with "# game <n>" (n counts used games from `first_game`). A position is written when it
// is `skip_plies` or more plies into the game, its side is not in check, the move played
// there is no capture or promotion, the comment after that move has a score within
// max_score, and the position has mating material. Games without a result, or whose
// Termination tag names anything but a normal end or an adjudication, are skipped.
PgnSampleSummary pgn_samples(std::istream& in, std::ostream& out,
                             const PgnSampleOptions& options = {}, std::uint64_t first_game = 0);

// Told each input's summary as write_pgn_samples finishes reading it.
using PgnSampleFileReport =
    std::function<void(const std::string& path, const PgnSampleSummary& summary)>;

// A new data file `out` from the games of the PGN files `inputs`: a header comment with the
// settings, then each file's lines as pgn_samples writes them (skip_plies as given), the used
// games numbered on across the files; with `distinct_games`, a copy of a game used before, in
// this file or an earlier one, is skipped. Written to "<out>.part" and renamed once every input
// was read, so nothing is left half made. Returns the sums over the files. Throws
// std::invalid_argument when `out` exists or a file cannot be opened, std::runtime_error when
// the writing fails.
PgnSampleSummary write_pgn_samples(const std::vector<std::string>& inputs, const std::string& out,
                                   int skip_plies, bool distinct_games,
                                   const PgnSampleFileReport& on_file = {});

} // namespace horizon
