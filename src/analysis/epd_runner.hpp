// The test-suite runner of `horizon epd`. Each position is searched (the table cleared first)
// and counts as solved when the move the search plays is one of its `bm` moves, none of its
// `am` moves, and, with `dm N`, its score is a mate in N moves or fewer. The time to solution
// is the time from which the search's best move stayed a solution to the end.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "core/types.hpp"
#include "engine/engine.hpp"
#include "eval/tablebases.hpp"
#include "notation/epd.hpp"

namespace horizon {

struct EpdTest {
    EpdEntry entry;
    std::vector<Move> best;  // bm: one of these (empty: any)
    std::vector<Move> avoid; // am: none of these
    int mate = 0;            // dm: a mate in this many moves or fewer (0: no demand)

    // Whether playing `m` with this score (side to move's view) solves it.
    bool solved_by(Move m, Score score) const;
    // What a solution is: "Rxb2", "Qe5+ or Qf4", "not Bxf7", "mate in 3", joined by ", ".
    std::string expected() const;
};

// The test of an entry: its bm, am and dm operations read (SAN). nullopt with `error` set when
// a move is not legal there, dm is not a whole number from 1 up, or there is no operation to
// test.
std::optional<EpdTest> make_epd_test(const EpdEntry& entry, std::string& error);

// The tests of a suite file. nullopt when the file cannot be read or a position cannot be
// tested, with one message per problem in `errors`, each naming the place
// ("wac.epd:12 (WAC.012): bm 'Nf9': no white knight can move to f9").
std::optional<std::vector<EpdTest>> read_epd_tests(const std::string& path,
                                                   std::vector<std::string>& errors);

struct EpdOutcome {
    bool solved = false;
    Move played = Move::none();
    Score score = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
    std::int64_t ms = 0;
    // When solved: the report from which the best move stayed a solution.
    std::int64_t solution_ms = 0;
    std::uint64_t solution_nodes = 0;
    std::optional<TbProbe> table; // the verdict of the engine's tables, where they hold it
};

// Follows one search of a test's position, report after report, for the time to solution
// (of Horizon's search here, of another engine's in cli/epd).
class SolutionTracker {
public:
    explicit SolutionTracker(const EpdTest& test) : test_(test) {}
    // A report of the search: its best move, score (side to move's view) and bound, when.
    void report(Move best, Score score, Bound bound, std::int64_t ms, std::uint64_t nodes);
    // The search's final answer.
    EpdOutcome finish(Move played, Score score, int depth, std::uint64_t nodes, std::int64_t ms);

private:
    const EpdTest& test_;
    bool holding_ = false; // the last report's best move is a solution
    std::int64_t since_ms_ = 0;
    std::uint64_t since_nodes_ = 0;
};

// Searches the test's position on `engine` (its table cleared first); the outcome carries the
// verdict of the engine's Syzygy tables where they hold the position.
EpdOutcome run_epd_test(Engine& engine, const EpdTest& test, const SearchLimits& limits);

} // namespace horizon
