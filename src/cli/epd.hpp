// `horizon epd SUITE.epd`: the test-suite runner's front end (the runner itself, what counts as
// solved and the time to solution: analysis/epd_runner.hpp), and the same runner driving
// another UCI engine.
#pragma once

#include "analysis/epd_runner.hpp"
#include "search/search.hpp"

namespace horizon {

class UciClient;
// run_epd_test with another UCI engine (ucinewgame first).
EpdOutcome run_epd_test(UciClient& engine, const EpdTest& test, const SearchLimits& limits);

int epd_main(int argc, const char* const* argv);

} // namespace horizon
