#include "analysis/svg_plot.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "notation/san.hpp"

namespace horizon {

namespace {

// The page and the plot area in it.
constexpr double WIDTH = 900, HEIGHT = 380;
constexpr double LEFT = 60, RIGHT = 880, TOP = 70, BOTTOM = 320;
constexpr double MARK_RADIUS = 5;
constexpr int WANTED_TICKS = 10;

constexpr const char* WHITE_WIN_FILL = "#f4f4f4";
constexpr const char* DRAW_FILL = "#b8b8b8";
constexpr const char* BLACK_WIN_FILL = "#3c3c3c";
constexpr const char* LINE_COLOUR = "#1565c0";
constexpr const char* MARK_COLOURS[] = {"", "#f5d000", "#f08000", "#d01010"};

std::string num(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", v);
    return text;
}

double x_of(std::size_t i, std::size_t count) {
    return count < 2 ? LEFT : LEFT + (RIGHT - LEFT) * double(i) / double(count - 1);
}
double y_of(double share) { return BOTTOM - (BOTTOM - TOP) * share; }

// A band between two curves over the positions (lower and upper shares of a point).
template <class Lower, class Upper>
std::string band(const std::vector<Wdl>& white, Lower lower, Upper upper, const char* fill) {
    std::string points;
    for (std::size_t i = 0; i < white.size(); ++i)
        points += num(x_of(i, white.size())) + "," + num(y_of(upper(white[i]))) + " ";
    for (std::size_t i = white.size(); i-- > 0;)
        points += num(x_of(i, white.size())) + "," + num(y_of(lower(white[i]))) + " ";
    points.pop_back();
    return "<polygon points=\"" + points + "\" fill=\"" + fill + "\"/>\n";
}

// Move-number ticks: every 1, 2, 5, 10, 20, 50 ... moves, about WANTED_TICKS of them.
int tick_step(int moves) {
    for (int step = 1;; step *= 10)
        for (int k : {1, 2, 5})
            if (moves <= WANTED_TICKS * k * step) return k * step;
}

// The move number of position i, and whether it is the first of a new move (White to move).
int move_number_at(const GamePlot& plot, std::size_t i) {
    const int ply = int(i) + (plot.first_side == BLACK ? 1 : 0);
    return plot.first_move_number + ply / 2;
}

void write_axes(std::ostringstream& out, const GamePlot& plot) {
    for (int percent : {0, 25, 50, 75, 100}) {
        const double y = y_of(percent / 100.0);
        out << "<line x1=\"" << num(LEFT) << "\" y1=\"" << num(y) << "\" x2=\"" << num(RIGHT)
            << "\" y2=\"" << num(y) << "\" stroke=\"#808080\" stroke-width=\"0.5\""
            << (percent == 50 ? " stroke-dasharray=\"4 3\"" : "") << "/>\n";
        out << "<text x=\"" << num(LEFT - 6) << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
            << percent << "%</text>\n";
    }
    const std::size_t n = plot.white.size();
    if (n < 2) return;
    const int first = move_number_at(plot, 0), last = move_number_at(plot, n - 1);
    const int step = tick_step(last - first + 1);
    for (std::size_t i = 0; i < n; ++i) {
        const int number = move_number_at(plot, i);
        const bool white_to_move = (int(i) + (plot.first_side == BLACK ? 1 : 0)) % 2 == 0;
        if (!white_to_move || number % step != 0) continue;
        const double x = x_of(i, n);
        out << "<line x1=\"" << num(x) << "\" y1=\"" << num(BOTTOM) << "\" x2=\"" << num(x)
            << "\" y2=\"" << num(BOTTOM + 5) << "\" stroke=\"#000\"/>\n";
        out << "<text x=\"" << num(x) << "\" y=\"" << num(BOTTOM + 18)
            << "\" text-anchor=\"middle\">" << number << "</text>\n";
    }
}

void write_legend(std::ostringstream& out) {
    struct Entry {
        const char* colour;
        const char* text;
    };
    const Entry entries[] = {{WHITE_WIN_FILL, "White wins"}, {DRAW_FILL, "draw"},
                             {BLACK_WIN_FILL, "Black wins"}, {MARK_COLOURS[1], "?! inaccuracy"},
                             {MARK_COLOURS[2], "? mistake"}, {MARK_COLOURS[3], "?? blunder"}};
    double x = LEFT;
    const double y = HEIGHT - 22;
    for (const Entry& e : entries) {
        out << "<rect x=\"" << num(x) << "\" y=\"" << num(y - 10)
            << "\" width=\"12\" height=\"12\" fill=\"" << e.colour
            << "\" stroke=\"#000\" stroke-width=\"0.5\"/>\n";
        out << "<text x=\"" << num(x + 17) << "\" y=\"" << num(y) << "\">" << e.text << "</text>\n";
        x += 125;
    }
}

} // namespace

std::string xml_escape(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

GamePlot game_plot(const PgnGame& game, const GameAnalysis& analysis) {
    GamePlot plot;
    const auto name = [&](const char* tag) {
        const std::string_view v = game.tag(tag);
        return v.empty() || v == "?" ? std::string(tag) : std::string(v);
    };
    plot.title = name("White") + " - " + name("Black") + ", " + game.result;
    for (const char* tag : {"Event", "Site", "Date"}) {
        const std::string_view v = game.tag(tag);
        if (v.empty() || v.find_first_not_of("?.") == std::string_view::npos) continue;
        if (!plot.subtitle.empty()) plot.subtitle += ", ";
        plot.subtitle += v;
    }
    plot.first_move_number = game.start.fullmove_number();
    plot.first_side = game.start.side_to_move();

    Position pos = game.start;
    for (std::size_t i = 0; i < analysis.positions.size(); ++i) {
        const Wdl w = analysis.positions[i].wdl;
        plot.white.push_back(pos.side_to_move() == WHITE ? w : Wdl{w.loss, w.draw, w.win});
        if (i == analysis.moves.size()) break;
        const MoveJudgement& mj = analysis.moves[i];
        if (mj.judgement != Judgement::GOOD) {
            const Color mover = pos.side_to_move();
            std::string label = std::to_string(pos.fullmove_number()) +
                                (mover == WHITE ? ". " : "... ") + move_to_san(pos, mj.played) +
                                std::string(nag_to_suffix(judgement_nag(mj.judgement))) + " (" +
                                judgement_name(mj.judgement) + " by " +
                                (mover == WHITE ? "White" : "Black") + ")";
            plot.marks.push_back(PlotMark{i + 1, mj.judgement, std::move(label)});
        }
        pos.make_move(mj.played);
    }
    return plot;
}

std::string plot_svg(const GamePlot& plot) {
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(WIDTH) << "\" height=\""
        << num(HEIGHT) << "\" viewBox=\"0 0 " << num(WIDTH) << " " << num(HEIGHT)
        << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
        << "<title>" << xml_escape(plot.title) << "</title>\n"
        << "<rect width=\"" << num(WIDTH) << "\" height=\"" << num(HEIGHT) << "\" fill=\"#fff\"/>\n"
        << "<text x=\"" << num(WIDTH / 2) << "\" y=\"26\" text-anchor=\"middle\" font-size=\"17\" "
        << "font-weight=\"bold\">" << xml_escape(plot.title) << "</text>\n"
        << "<text x=\"" << num(WIDTH / 2) << "\" y=\"46\" text-anchor=\"middle\" fill=\"#444\">"
        << xml_escape(plot.subtitle) << "</text>\n"
        << "<rect x=\"" << num(LEFT) << "\" y=\"" << num(TOP) << "\" width=\"" << num(RIGHT - LEFT)
        << "\" height=\"" << num(BOTTOM - TOP) << "\" fill=\"" << BLACK_WIN_FILL << "\"/>\n";

    const auto win = [](const Wdl& w) { return w.win / 1000.0; };
    const auto win_or_draw = [](const Wdl& w) { return (w.win + w.draw) / 1000.0; };
    const auto zero = [](const Wdl&) { return 0.0; };
    if (!plot.white.empty()) {
        out << band(plot.white, win, win_or_draw, DRAW_FILL);
        out << band(plot.white, zero, win, WHITE_WIN_FILL);
    }
    write_axes(out, plot);

    out << "<polyline class=\"white-win-chance\" fill=\"none\" stroke=\"" << LINE_COLOUR
        << "\" stroke-width=\"2\" points=\"";
    for (std::size_t i = 0; i < plot.white.size(); ++i)
        out << (i ? " " : "") << num(x_of(i, plot.white.size())) << ","
            << num(y_of(win(plot.white[i])));
    out << "\"/>\n";

    for (const PlotMark& m : plot.marks) {
        if (m.position >= plot.white.size()) continue;
        out << "<circle cx=\"" << num(x_of(m.position, plot.white.size())) << "\" cy=\""
            << num(y_of(win(plot.white[m.position]))) << "\" r=\"" << num(MARK_RADIUS)
            << "\" fill=\"" << MARK_COLOURS[int(m.judgement)] << "\" stroke=\"#000\"><title>"
            << xml_escape(m.label) << "</title></circle>\n";
    }
    out << "<text x=\"" << num(LEFT) << "\" y=\"" << num(TOP - 6)
        << "\">White's win chance (WDL model); move numbers below</text>\n";
    write_legend(out);
    out << "</svg>\n";
    return out.str();
}

} // namespace horizon
