#include "analysis/pgn_analysis.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>

#include "analysis/game_analysis.hpp"
#include "analysis/svg_plot.hpp"
#include "engine/config.hpp"
#include "notation/pgn_reader.hpp"
#include "notation/pgn_writer.hpp"

namespace horizon {

namespace {

std::optional<std::uint64_t> game_number(std::string_view text) {
    if (text.empty() || text.size() > 18 ||
        text.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    const std::uint64_t n = std::stoull(std::string(text));
    return n >= 1 ? std::optional(n) : std::nullopt;
}

// Where the game's main line holds a null move, which cannot be searched or judged: "game 3,
// move 12...: a null move ('--') in the main line"; "" when there is none.
std::string null_move_text(const PgnGame& game, std::uint64_t number) {
    const auto& moves = game.moves.moves;
    const auto it = std::find_if(moves.begin(), moves.end(),
                                 [](const PgnMove& m) { return m.move == Move::null(); });
    if (it == moves.end()) return "";
    const int ply = int(it - moves.begin()) + (game.start.side_to_move() == BLACK ? 1 : 0);
    return "game " + std::to_string(number) + ", move " +
           std::to_string(game.start.fullmove_number() + ply / 2) + (ply % 2 ? "..." : ".") +
           ": a null move ('--') in the main line cannot be analysed";
}

// The analysis of a PGN file, game after game.
class PgnAnalysis {
public:
    PgnAnalysis(Engine& engine, const PgnAnalysisSettings& settings,
                const PgnAnalysisOutput& output, const PgnAnalysisCallbacks& callbacks)
        : engine_(engine), settings_(settings), output_(output), callbacks_(callbacks) {}

    PgnAnalysisReport run(std::istream& in) {
        const auto start = std::chrono::steady_clock::now();
        PgnReader reader(in);
        PgnGame game;
        std::uint64_t positions_done = 0;
        while (reader.next(game)) {
            const std::uint64_t number = reader.games_read();
            if (number > settings_.games.last()) break;
            if (!settings_.games.contains(number)) continue;
            for (const PgnError& w : game.warnings)
                notice("warning: " + w.message());
            std::string problem = game.error ? game.error->message() : null_move_text(game, number);
            if (!problem.empty()) {
                notice(problem + " (game left out)");
                ++report_.errors;
                continue;
            }
            const GameAnalysis analysis = analyze_one(game, number, positions_done);
            positions_done += analysis.positions.size();
            if (callbacks_.on_game) callbacks_.on_game();
            report_game(game, number, analysis);
        }
        report_.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        write_totals();
        return report_;
    }

private:
    void notice(const std::string& text) {
        if (callbacks_.on_notice) callbacks_.on_notice(text);
    }

    // `positions_done`: the positions of the games before this one.
    GameAnalysis analyze_one(PgnGame& game, std::uint64_t number, std::uint64_t positions_done) {
        const auto report = [&](const PgnAnalysisProgress& p) {
            if (callbacks_.on_position) callbacks_.on_position(p);
        };
        engine_.new_game();
        GameAnalysis analysis =
            analyze_game(engine_, game, settings_.limits, [&](int done, int total) {
                report({positions_done + std::uint64_t(done), number, done, total});
            });
        // The explanations and puzzles come after the game's searches: the positions stay at
        // the game's end while they run.
        const int positions = int(analysis.positions.size());
        const auto step = [&](PgnAnalysisStage stage) {
            return [&, stage](std::size_t done, std::size_t total) {
                report({positions_done + std::uint64_t(positions), number, positions, positions,
                        stage, done, total});
            };
        };
        const std::vector<Explanation> explanations =
            explain_game(engine_, game, analysis, settings_.limits, settings_.explain,
                         report_.explain_seconds, step(PgnAnalysisStage::EXPLANATIONS));
        count_explanations(explanations, analysis);
        if (output_.puzzle_epd && output_.puzzle_pgn)
            write_puzzles(game, number, analysis, explanations, step(PgnAnalysisStage::PUZZLES));
        ++report_.analysed;
        report_.positions += analysis.positions.size();
        report_.search_seconds += analysis.search_seconds;
        const auto& id = engine_identity();
        annotate_game(game, analysis, {id.name + " " + id.version, settings_.limit_text, 10});
        PgnWriteOptions write_options;
        write_options.nag_suffixes = true;
        write_pgn(output_.games, game, write_options);
        output_.games.flush();
        if (settings_.plot_dir) write_plot(game, number, analysis);
        return analysis;
    }

    void count_explanations(const std::vector<Explanation>& explanations,
                            const GameAnalysis& analysis) {
        for (std::size_t i = 0; i < explanations.size(); ++i) {
            if (analysis.moves[i].judgement < Judgement::MISTAKE) continue;
            ++report_.marked;
            ++report_.kinds[std::size_t(explanations[i].kind)];
            if (explanations[i].names_threat) ++report_.threats;
        }
    }

    void write_puzzles(const PgnGame& game, std::uint64_t number, const GameAnalysis& analysis,
                       const std::vector<Explanation>& explanations,
                       const std::function<void(std::size_t, std::size_t)>& progress) {
        const std::vector<Puzzle> found =
            find_puzzles(engine_, game, number, analysis, explanations, settings_.puzzle_options,
                         settings_.puzzles_player, report_.puzzle_seconds, progress);
        PgnWriteOptions options;
        for (const Puzzle& p : found) {
            *output_.puzzle_epd << puzzle_epd(p) << "\n";
            write_pgn(*output_.puzzle_pgn, puzzle_pgn(p), options);
        }
        output_.puzzle_epd->flush();
        output_.puzzle_pgn->flush();
        report_.puzzles += found.size();
    }

    void write_plot(const PgnGame& game, std::uint64_t number, const GameAnalysis& analysis) {
        const std::filesystem::path file = std::filesystem::path(*settings_.plot_dir) /
                                           ("game-" + std::to_string(number) + ".svg");
        std::ofstream svg(file, std::ios::binary | std::ios::trunc);
        svg << plot_svg(game_plot(game, analysis));
        svg.close();
        if (!svg) {
            notice("cannot write " + file.string());
            ++report_.errors;
        }
    }

    void report_game(const PgnGame& game, std::uint64_t number, const GameAnalysis& analysis) {
        std::ostream& out = output_.summary;
        out << "Game " << number << ": " << game.tag("White") << " - " << game.tag("Black") << ", "
            << game.result << " (" << analysis.moves.size() << " plies)\n";
        std::string lines = summary_lines(game, analysis);
        for (std::size_t at = 0; at < lines.size();) {
            const std::size_t end = lines.find('\n', at);
            out << "  " << lines.substr(at, end - at + 1);
            at = end + 1;
        }
        for (Color c : {WHITE, BLACK}) {
            const std::string name(game.tag(c == WHITE ? "White" : "Black"));
            if (!totals_.count(name)) order_.push_back(name);
            totals_[name] += analysis.players[c];
        }
        out.flush();
    }

    void write_totals() {
        if (report_.analysed <= 1) return;
        output_.summary << "Totals by player:\n";
        for (const std::string& name : order_)
            output_.summary << "  " << (name.empty() ? "?" : name) << ": " << totals_[name].moves
                            << " moves, " << totals_[name].text() << "\n";
    }

    Engine& engine_;
    const PgnAnalysisSettings& settings_;
    const PgnAnalysisOutput& output_;
    const PgnAnalysisCallbacks& callbacks_;
    PgnAnalysisReport report_;
    std::map<std::string, PlayerSummary> totals_;
    std::vector<std::string> order_; // players in order of appearance
};

} // namespace

std::optional<GameRange> GameRange::parse(std::string_view text, std::string& error) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view part = text.substr(0, comma);
        const std::size_t dash = part.find('-');
        std::optional<std::uint64_t> lo, hi;
        if (dash == std::string_view::npos) {
            lo = hi = game_number(part);
        } else {
            lo = dash == 0 ? std::optional<std::uint64_t>(1) : game_number(part.substr(0, dash));
            hi = dash + 1 == part.size() ? std::optional<std::uint64_t>(UINT64_MAX)
                                         : game_number(part.substr(dash + 1));
            if (dash == 0 && dash + 1 == part.size()) lo.reset();
        }
        if (!lo || !hi) {
            // (Appended piece by piece: GCC 12 warns wrongly of overlapping copies in the
            // chain of operator+ here.)
            error.assign(1, '\'').append(part).append(
                "' is not a game number (from 1) or a range of them such as 3-7, 10- or -4");
            return std::nullopt;
        }
        if (*lo > *hi) {
            error.assign(1, '\'').append(part).append("' runs backwards");
            return std::nullopt;
        }
        spans.emplace_back(*lo, *hi);
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    return GameRange(std::move(spans));
}

bool GameRange::contains(std::uint64_t game) const {
    return std::any_of(spans_.begin(), spans_.end(),
                       [&](const auto& s) { return game >= s.first && game <= s.second; });
}

std::uint64_t GameRange::last() const {
    std::uint64_t last = 0;
    for (const auto& s : spans_)
        last = std::max(last, s.second);
    return last;
}

PgnAnalysisReport analyze_pgn_games(std::istream& in, Engine& engine,
                                    const PgnAnalysisSettings& settings,
                                    const PgnAnalysisOutput& output,
                                    const PgnAnalysisCallbacks& callbacks) {
    return PgnAnalysis(engine, settings, output, callbacks).run(in);
}

std::uint64_t count_pgn_positions(std::istream& in, const GameRange& games) {
    PgnReader reader(in, {false, false});
    PgnGame game;
    std::uint64_t total = 0;
    while (reader.next(game)) {
        if (reader.games_read() > games.last()) break;
        if (games.contains(reader.games_read()) && !game.error)
            total += game.moves.moves.size() + 1;
    }
    return total;
}

} // namespace horizon
