// `horizon uci-bench`: protocol responsiveness of a UCI engine binary (Horizon by default),
// measured from outside as a GUI sees it: start-up to uciok, isready while searching,
// stop to bestmove, movetime accuracy, peak memory.
#pragma once

namespace horizon {

int uci_bench_main(int argc, const char* const* argv);

} // namespace horizon
