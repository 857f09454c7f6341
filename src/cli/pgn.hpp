// `horizon pgn FILE`: reads a PGN file and writes it back in export format, reporting the
// games it cannot read; with --stats, only reads it and prints how fast.
#pragma once

namespace horizon {

int pgn_main(int argc, const char* const* argv);

} // namespace horizon
