// The bench: a fixed set of positions searched to a fixed depth. The node count is
// deterministic and identifies the search ("Bench: N" in commit messages). `horizon bench`
// (src/cli/bench.*) and the UCI command `bench` both run it.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include "eval/params.hpp"

namespace horizon {

inline constexpr int BENCH_DEFAULT_DEPTH = 10;

struct BenchResult {
    std::uint64_t nodes = 0;
    std::int64_t ms = 0;
    std::uint64_t tbhits = 0;
};

extern const std::string_view BENCH_FENS[];
extern const int BENCH_FEN_COUNT;

// Searches every bench position with a fresh 16 MiB table; prints per-position lines and
// the summary (Nodes searched / Nodes/second / Total time (ms), then `N nodes M nps`) to
// `out`. With threads > 1 (Lazy SMP) the node count is no longer deterministic. `weights`
// (nullptr: the built-in ones) are those searched with; with `syzygy_path` the searches probe
// those tables and the summary counts their hits.
BenchResult run_bench(int depth, std::ostream& out, int threads = 1,
                      const EvalWeights* weights = nullptr, const std::string& syzygy_path = "");

} // namespace horizon
