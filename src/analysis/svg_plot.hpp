// The course of a game as a picture: one self-contained SVG file (no script, no external
// reference) with White's win chance over the moves, from the WDL model, drawn as a line over
// stacked bands (White wins, draw, Black wins), the mistakes marked with their move in a
// tooltip, and the players and result in the title.
#pragma once

#include <string>
#include <vector>

#include "analysis/game_analysis.hpp"
#include "core/types.hpp"
#include "eval/wdl.hpp"
#include "notation/pgn.hpp"

namespace horizon {

struct PlotMark {
    std::size_t position = 0; // index into GamePlot::white: the position the move leaves
    Judgement judgement = Judgement::GOOD;
    std::string label; // e.g. "23... Nxe5?? (blunder by Black)"
};

struct GamePlot {
    std::string title;         // "Fischer - Byrne, 0-1"
    std::string subtitle;      // event, site, date
    std::vector<Wdl> white;    // per position of the main line, from White's point of view
    int first_move_number = 1; // of the first position
    Color first_side = WHITE;  // to move in the first position
    std::vector<PlotMark> marks;
};

// The plot of an analysed game.
GamePlot game_plot(const PgnGame& game, const GameAnalysis& analysis);

// The SVG document.
std::string plot_svg(const GamePlot& plot);

// Text with &, <, >, " and ' written as XML entities.
std::string xml_escape(std::string_view text);

} // namespace horizon
