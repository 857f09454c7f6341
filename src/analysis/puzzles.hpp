// Puzzles from one's own games: the positions where a player went wrong (a move marked "?" or
// "??") and one move was clearly best, checked by a deeper search than the analysis: its best
// line and second-best line searched together (MultiPV 2), the best move kept only when the
// second line is at least twice the margin below it (so that it stays at least the margin
// below for a deeper search by another engine) and the move played is not the best one.
//
// A position already decided is left out: when the side to move stands worse than -bound, or
// when the game stood beyond +-bound before the opponent's last move (the chance did not come
// from a game still open). Each puzzle is written as an EPD line and as a PGN game that starts
// from its position (FEN and SetUp tags), the solution as its moves.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/explain.hpp"
#include "analysis/game_analysis.hpp"
#include "core/position.hpp"
#include "engine/engine.hpp"
#include "notation/pgn.hpp"

namespace horizon {

struct PuzzleOptions {
    static constexpr int DEFAULT_MARGIN_CP = 150;
    static constexpr int DEFAULT_BOUND_CP = 500;
    static constexpr int EXTRA_DEPTH = 1; // the check searches this much deeper
    static constexpr std::size_t SOLUTION_PLIES = 8;
    // Horizon's own check asks this many times the margin: other engines score the lines
    // otherwise (Stockfish 15.1 at depth 18 found less than 150 cp in one puzzle in ten that
    // Horizon had found 200 to 280 cp apart; docs/analysis.md), and a puzzle should stay
    // unique for them too.
    static constexpr int CHECK_FACTOR = 2;
    // The depths, the last ones of the check, at which the best move and the margin must hold;
    // and the best line's score may move by at most the margin between the last two of them.
    static constexpr std::size_t HOLD_DEPTHS = 3;
    int margin_cp = DEFAULT_MARGIN_CP; // the second-best line at least this far below
    int bound_cp = DEFAULT_BOUND_CP;   // beyond this the game counts as decided
};

// Scores as the margin compares them: mates count as this many centipawns.
constexpr int PUZZLE_MATE_CP = 1500;
int puzzle_cp(Score s);

struct Puzzle {
    Position pos;
    Move best;
    Move played;
    std::vector<Move> solution; // the best line, starting with `best`
    Score best_score = 0;       // side to move's view, at the check's depth
    Score second_score = 0;
    int depth = 0; // of the check
    std::string player;
    std::string theme;
    std::uint64_t game = 0;                      // its number in the file
    std::string white, black, site, date, round; // the source game's tags
};

// Whether the position before move `index` of the analysed game may make a puzzle before the
// deeper check: the move is marked "?" or "??" and is not the search's best, the position has
// more than one legal move, the move played lost at least the margin by the analysis's own
// scores (the second-best move scores no lower than it), and the game is not decided.
bool puzzle_candidate(const GameAnalysis& analysis, std::size_t index, const Position& before,
                      const PuzzleOptions& options);

// The depth the check searches: the analysis's depth at that position plus EXTRA_DEPTH.
int puzzle_depth(const PositionEval& eval);

// The check: the best two lines of `before` searched to `depth`; a puzzle when at each of the
// last HOLD_DEPTHS depths the best move is the same, not `played`, and the second line is at
// least CHECK_FACTOR times the margin below it (a margin that holds at one depth only is not
// kept), and the best line's score moved by at most the margin over the last two depths unless
// it is a mate (a position the search is still changing its mind about is no sure puzzle) and,
// short of a mate, stays within the bound either way (the game not decided by it).
std::optional<Puzzle> check_puzzle(Engine& engine, const Position& before, Move played, int depth,
                                   const PuzzleOptions& options);

// The puzzles of an analysed game (its explanations give the themes, one per move), those of
// `player` only when it is not empty; adds the time the checks took to `seconds`. `progress`
// hears (moves looked at, moves of the game) after each candidate is checked.
std::vector<Puzzle>
find_puzzles(Engine& engine, const PgnGame& game, std::uint64_t number,
             const GameAnalysis& analysis, const std::vector<Explanation>& explanations,
             const PuzzleOptions& options, const std::string& player, double& seconds,
             const std::function<void(std::size_t, std::size_t)>& progress = {});

// One EPD line: the four FEN fields, bm (SAN), id (puzzle_id), pv (the solution, SAN), c0 the
// theme, c1 the player, c2 "margin N cp at depth D", c3 "played MOVE", c4 "uci MOVE" (the
// best move for tools without SAN), hmvc and fmvn.
std::string puzzle_epd(const Puzzle& p);
// A game from the puzzle's position: the source's players, PuzzlePlayer and PuzzleTheme tags,
// the solution as its moves and a comment that says who is to move and what was played.
PgnGame puzzle_pgn(const Puzzle& p);
// "Lucky, game 1, move 3...": the puzzle's id.
std::string puzzle_id(const Puzzle& p);

} // namespace horizon
