// The analysis of a PGN file, game after game: each game in range read, searched and judged
// (analysis/game_analysis), its mistakes explained (analysis/explain) and made puzzles of
// (analysis/puzzles), written annotated with its summary and, on request, a plot
// (analysis/svg_plot); then the totals by player. It writes the games, summaries and puzzles to
// the streams it is given and reports how it goes through callbacks; the front end, `horizon
// analyze` (cli/analyze), reads the flags, opens the files and shows the progress and notices.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/explain.hpp"
#include "analysis/puzzles.hpp"
#include "engine/engine.hpp"
#include "notation/pgn.hpp"
#include "search/timeman.hpp"

namespace horizon {

// Game numbers (1-based, counting every game of the file): "5", "3-7", "10-" (to the end),
// "-4" (from the first), and lists of these "1,4,7-9".
class GameRange {
public:
    static std::optional<GameRange> parse(std::string_view text, std::string& error);
    static GameRange all() { return GameRange({{1, UINT64_MAX}}); }

    bool contains(std::uint64_t game) const;
    // The last game in the range (UINT64_MAX when it runs to the end).
    std::uint64_t last() const;

private:
    explicit GameRange(std::vector<std::pair<std::uint64_t, std::uint64_t>> spans)
        : spans_(std::move(spans)) {}
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans_; // inclusive
};

struct PgnAnalysisSettings {
    SearchLimits limits;
    std::string limit_text; // the limits in words ("100 ms a move"), for the summary comment
    GameRange games = GameRange::all();
    ExplainMode explain = ExplainMode::MISTAKES;
    PuzzleOptions puzzle_options;
    std::string puzzles_player;          // "": every player's mistakes
    std::optional<std::string> plot_dir; // one SVG plot per game in this folder (game-N.svg)
};

// Where the analysis writes: the annotated games, the summary (a few lines per game, then the
// totals by player when more than one game was analysed) and, when both are set, the puzzles.
struct PgnAnalysisOutput {
    std::ostream& games;
    std::ostream& summary;
    std::ostream* puzzle_epd = nullptr;
    std::ostream* puzzle_pgn = nullptr;
};

// What the analysis of a game is doing: searching its positions, then explaining its mistakes,
// then looking for puzzles in it.
enum class PgnAnalysisStage { POSITIONS, EXPLANATIONS, PUZZLES };

// Where the analysis stands, after each search.
struct PgnAnalysisProgress {
    std::uint64_t positions_done = 0; // searched so far, the games before this one included
    std::uint64_t game = 0;           // its number in the file
    int position = 0, positions = 0;  // in this game
    PgnAnalysisStage stage = PgnAnalysisStage::POSITIONS;
    // In the explanations: moves explained of those to explain; in the puzzles: moves looked
    // at of the game's moves.
    std::size_t step = 0, steps = 0;
};

struct PgnAnalysisCallbacks {
    std::function<void(const PgnAnalysisProgress&)> on_position;
    // A game analysed and written, before its summary is.
    std::function<void()> on_game;
    // One line for the user: a warning of the reader, a game left out (and why), a plot that
    // could not be written.
    std::function<void(const std::string&)> on_notice;
};

// What a run did.
struct PgnAnalysisReport {
    std::uint64_t analysed = 0;
    std::uint64_t errors = 0; // games left out, and plots not written
    std::uint64_t positions = 0;
    double seconds = 0, search_seconds = 0, explain_seconds = 0, puzzle_seconds = 0;
    std::uint64_t marked = 0;   // moves marked "?" or "??" (and "?!" with ExplainMode::ALL)
    std::array<int, 6> kinds{}; // the marked moves' explanations, by ExplanationKind
    int threats = 0;            // explanations that name a threat (ignored or created)
    std::uint64_t puzzles = 0;
};

// Analyses the games of `in` that settings.games holds, one by one, with the engine as it is
// set (threads, hash, tables); a game the reader could not read whole, or whose main line holds
// a null move, is left out with a notice.
PgnAnalysisReport analyze_pgn_games(std::istream& in, Engine& engine,
                                    const PgnAnalysisSettings& settings,
                                    const PgnAnalysisOutput& output,
                                    const PgnAnalysisCallbacks& callbacks = {});

// The positions of the games of `in` in range, each read whole (moves + 1 a game): a quick
// read of the moves alone, for the ETA.
std::uint64_t count_pgn_positions(std::istream& in, const GameRange& games);

} // namespace horizon
