// `horizon datagen`: self-play games at a fixed node count per move, from random balanced
// openings, written as quiet positions with their search score and the game result for the
// evaluation tuner. Every game is reproducible from (seed, game number), and a run that was
// stopped resumes where it ended when started again on the same file.
//
// File format, one position a line, scores and results from White's point of view:
//     <FEN> | <score in centipawns> | <1.0, 0.5 or 0.0>
// and comment lines beginning with '#': a header with the settings that decide the games,
// and a `# game <g>` line closing the block of each finished game. Blocks are written in
// game-number order, so the file does not depend on the number of threads.
#pragma once

#include "eval/params.hpp"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace horizon {

struct DatagenOptions {
    std::string out;                    // the data file (created, or resumed)
    std::uint64_t games = 0;            // stop when games 0..games-1 are in the file (0: no limit)
    std::uint64_t positions = 0;        // stop when the file holds this many (0: no limit)
    std::uint64_t nodes = 5000;         // search nodes per move
    std::uint64_t balance_nodes = 3000; // nodes of the search that checks an opening
    int threads = 1;                    // worker threads, one engine and one game each
    std::uint64_t seed = 1;             // game g's opening depends on (seed, g) only
    int hash_mib = 16;                  // hash table per worker, MiB
    bool terminal = false;              // redraw the progress line in place (else a line now and then)
    // The evaluation weights the games are played with (nullptr: the built-in ones). Their
    // signature is part of the file's header, so a resumed file keeps the same weights.
    const EvalWeights* weights = nullptr;
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

// Plays and writes games until a target is met. Progress and the summary go to `progress`.
// Throws std::runtime_error when the file cannot be read, used or written.
DatagenSummary run_datagen(const DatagenOptions& options, std::ostream& progress);

int datagen_main(int argc, const char* const* argv);

} // namespace horizon
