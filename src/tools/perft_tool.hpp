// `horizon perft`: counts, divide, EPD suites, and the speed benchmark against Stockfish.
#pragma once

namespace horizon {

int perft_main(int argc, const char* const* argv);

} // namespace horizon
