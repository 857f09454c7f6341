// Data generation: self-play games at a fixed node count per move, from random balanced
// openings, written as positions (the quiet ones, or as DatagenOptions says) with their search
// score and the game result for the evaluation tuner. Every game is reproducible from (seed, game
// number), and a run that was stopped resumes where it ended when started again on the same file.
//
// The file is in the format of train/data_line: a header comment with the settings that decide
// the games, then each finished game's position lines closed by its `# game <g>` line. Blocks
// are written in game-number order, so the file does not depend on the number of threads.
// The same openings, written alone, make an opening book (train/opening_book). The front end,
// `horizon datagen`, is cli/datagen.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "eval/params.hpp"

namespace horizon {

class Engine;
struct SearchResult;

// Which position a search gives the data (DatagenOptions::resolve).
enum class SampleResolve {
    NONE, // the searched position, when it is quiet (is_quiet_sample)
    PV,   // the end of the noisy start of the search's principal variation (resolve_pv)
};

struct DatagenOptions {
    std::string out;                    // the data file (created, or resumed)
    std::uint64_t games = 0;            // stop when games 0..games-1 are in the file (0: no limit)
    std::uint64_t positions = 0;        // stop when the file holds this many (0: no limit)
    std::uint64_t nodes = 5000;         // search nodes per move
    std::uint64_t balance_nodes = 3000; // nodes of the search that checks an opening
    int max_imbalance = 300;            // |score| of that search at most this, centipawns
    int threads = 1;                    // worker threads, one engine and one game each
    std::uint64_t seed = 1;             // game g's opening depends on (seed, g) only
    int hash_mib = 16;                  // hash table per worker, MiB
    // The evaluation weights the games are played with (nullptr: the built-in ones). Their
    // signature is part of the file's header, so a resumed file keeps the same weights.
    const EvalWeights* weights = nullptr;
    // Of a game's candidate positions, write at most this many, chosen at random by a generator
    // seeded from (seed, game) alone and written in the game's order (0: every candidate).
    // Consecutive positions of a game are near copies; a few spread over it are worth more.
    std::uint64_t per_game = 0;
    // NONE: the candidates are the quiet positions, written as they are. PV: a searched position
    // whose score is no mate is a candidate when resolve_pv finds an end to its search's line,
    // and that end is written, with the search's score; an end that several searches of the
    // game lead to is one candidate, with the last one's score. A line whose first move is
    // quiet and gives no check, from a position not in check, ends where it starts; so PV
    // writes other positions than NONE only where the line starts with a capture, a promotion
    // or a check (or in check), and it admits positions whose best move captures.
    SampleResolve resolve = SampleResolve::NONE;
};

// Why a game ended.
enum class GameEnd {
    CHECKMATE,
    STALEMATE,
    FIFTY_MOVES,
    REPETITION,
    INSUFFICIENT_MATERIAL,
    ADJUDICATED_WIN,
    ADJUDICATED_DRAW,
    PLY_CAP,
    COUNT
};

struct DatagenSummary {
    std::uint64_t games = 0;     // written by this run
    std::uint64_t positions = 0; // written by this run
    std::uint64_t resumed_games = 0;
    std::uint64_t resumed_positions = 0;
    std::uint64_t white_wins = 0, draws = 0, black_wins = 0;
    std::uint64_t plies = 0; // over this run's games, counted from the start position
    std::array<std::uint64_t, std::size_t(GameEnd::COUNT)> ends{};
    // Searches of this run's games (not the opening checks), to see the node limit kept.
    std::uint64_t searches = 0, search_nodes = 0, max_search_nodes = 0;
    double seconds = 0;
};

// What a run found in its file before its first game.
struct DatagenResume {
    std::uint64_t games = 0, positions = 0; // complete games kept, and their positions
    std::uint64_t dropped_bytes = 0;        // an unfinished game's lines, cut off the end
};

// Where a run stands.
struct DatagenProgress {
    std::uint64_t file_games = 0, file_positions = 0; // in the file, resumed ones included
    std::uint64_t games = 0, positions = 0;           // written by this run
    double elapsed = 0;                               // seconds since this run started
};

struct DatagenCallbacks {
    std::function<void(const DatagenResume&)> on_resume;     // once, before the first game
    std::function<void(const DatagenProgress&)> on_progress; // every `interval`, and at the end
    std::chrono::milliseconds interval{250};
};

// Plays and writes games until a target is met. Throws std::runtime_error when the file cannot
// be read, used or written.
DatagenSummary run_datagen(const DatagenOptions& options, const DatagenCallbacks& callbacks = {});

// Game `game`'s opening, a function of (options.seed, game) alone: 8 or 9 random plies from the
// start position that a search of options.balance_nodes finds within options.max_imbalance of
// level. The engine is left with a fresh game at it (its table holds that search); the position
// keeps the opening's moves, for the draw rules. Throws when no such opening is found.
Position game_opening(Engine& engine, const DatagenOptions& options, std::uint64_t game);

// An engine as datagen's workers have it: options.weights (or the built-in ones) and
// options.hash_mib of hash. Throws when the hash cannot be had.
std::unique_ptr<Engine> make_datagen_engine(const DatagenOptions& options);

// A position worth training on, whoever played its games (self-play here, or the games
// train/pgn_samples reads): its side is not in check, the move played (or found best) there
// captures or promotes nothing, and its score (from either side) is no mate.
bool is_quiet_sample(const Position& pos, Move played, int score);

// The most plies resolve_pv plays.
inline constexpr int RESOLVE_MAX_PLIES = 8;

// Where the noisy start of `pv`, a line from `root`, ends: its moves are played while the side
// to move is in check or the move captures, promotes or gives check, RESOLVE_MAX_PLIES at most;
// the walk stops before the first other move, or where the line ends. nullopt when that position
// is in check or has no legal move, or a move of the line is not legal.
std::optional<Position> resolve_pv(const Position& root, const std::vector<Move>& pv);

// The FEN of the position a search of `pos` (its result `r`) gives the data under `resolve`
// (DatagenOptions::resolve), or nullopt when it gives none. The search's score goes with it: it
// is the score of the whole line, so from White's point of view it is the same number at the
// line's end as at `pos`. Leaving out the first plies of a game is the caller's part.
std::optional<std::string> sample_fen(const Position& pos, const SearchResult& r,
                                      SampleResolve resolve);

} // namespace horizon
