// `horizon analyze`: the games of a PGN file annotated (analysis/pgn_analysis.hpp), with an
// SVG plot per game on request (analysis/svg_plot.hpp); or the best lines of a position (--fen)
// or of each position of an EPD file, as a table (analysis/best_lines.hpp).
#pragma once

namespace horizon {

int analyze_main(int argc, const char* const* argv);

} // namespace horizon
