#include "cli/analyze.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>

#include <cxxopts.hpp>

#include "analysis/best_lines.hpp"
#include "analysis/explain.hpp"
#include "analysis/game_analysis.hpp"
#include "analysis/puzzles.hpp"
#include "analysis/svg_plot.hpp"
#include "cli/command_line.hpp"
#include "cli/progress.hpp"
#include "cli/search_flags.hpp"
#include "engine/config.hpp"
#include "notation/epd.hpp"
#include "notation/pgn_reader.hpp"
#include "notation/pgn_writer.hpp"

namespace horizon {

namespace {

constexpr std::int64_t DEFAULT_MOVETIME_MS = 500;
constexpr int MAX_MULTIPV = 256;

std::optional<std::uint64_t> game_number(std::string_view text) {
    if (text.empty() || text.size() > 18 ||
        text.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    const std::uint64_t n = std::stoull(std::string(text));
    return n >= 1 ? std::optional(n) : std::nullopt;
}

bool has_epd_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return ext == ".epd";
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

// What the command line asked for.
struct AnalyzeRequest {
    std::string input; // PGN or EPD file ("-": a PGN on standard input)
    std::optional<std::string> fen;
    std::optional<std::string> out; // -o
    std::optional<std::string> plot_dir;
    GameRange games = GameRange::all();
    int multipv = 1;
    SearchFlags search;
    ExplainMode explain = ExplainMode::MISTAKES;
    std::optional<std::string> puzzles; // the puzzle files' name, without .epd / .pgn
    std::string puzzles_player;         // "": every player
    PuzzleOptions puzzle_options;
};

// "--puzzles out/p", "out/p.epd" or "out/p.pgn" all name out/p.epd and out/p.pgn.
std::string puzzle_base(const std::string& name) {
    const std::filesystem::path path(name);
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return ext == ".epd" || ext == ".pgn" ? (path.parent_path() / path.stem()).string() : name;
}

// The analysis of a PGN file, game after game.
class PgnAnalysis {
public:
    PgnAnalysis(const AnalyzeRequest& request, Engine& engine, std::ostream& pgn_out,
                std::ostream& summary_out)
        : request_(request), engine_(engine), pgn_out_(pgn_out), summary_out_(summary_out) {}

    // Where the puzzles go (with --puzzles).
    void set_puzzle_outputs(std::ostream* epd, std::ostream* pgn) {
        puzzle_epd_ = epd;
        puzzle_pgn_ = pgn;
    }

    // Returns the exit status.
    int run(std::istream& in, std::uint64_t total_positions) {
        const auto start = std::chrono::steady_clock::now();
        Progress progress(std::cerr, total_positions > 0, "analyze");
        PgnReader reader(in);
        PgnGame game;
        std::uint64_t positions_done = 0;
        while (reader.next(game)) {
            const std::uint64_t number = reader.games_read();
            if (number > request_.games.last()) break;
            if (!request_.games.contains(number)) continue;
            for (const PgnError& w : game.warnings) {
                progress.finish();
                std::cerr << "horizon analyze: warning: " << w.message() << "\n";
            }
            std::string problem = game.error ? game.error->message() : null_move_text(game, number);
            if (!problem.empty()) {
                progress.finish();
                std::cerr << "horizon analyze: " << problem << " (game left out)\n";
                ++errors_;
                continue;
            }
            const auto on_position = [&](int done, int total) {
                progress.update(positions_done + std::uint64_t(done), total_positions,
                                "game " + std::to_string(number) + ", position " +
                                    std::to_string(done) + "/" + std::to_string(total));
            };
            const GameAnalysis analysis = analyze_one(game, number, on_position);
            positions_done += analysis.positions.size();
            progress.finish();
            report_game(game, number, analysis);
        }
        progress.finish();
        seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return finish();
    }

private:
    GameAnalysis analyze_one(PgnGame& game, std::uint64_t number,
                             const std::function<void(int, int)>& on_position) {
        engine_.new_game();
        GameAnalysis analysis = analyze_game(engine_, game, request_.search.limits, on_position);
        const std::vector<Explanation> explanations = explain_game(
            engine_, game, analysis, request_.search.limits, request_.explain, explain_seconds_);
        count_explanations(explanations, analysis);
        if (puzzle_epd_) write_puzzles(game, number, analysis, explanations);
        ++analysed_;
        positions_ += analysis.positions.size();
        search_seconds_ += analysis.search_seconds;
        const auto& id = engine_identity();
        annotate_game(game, analysis,
                      {id.name + " " + id.version, request_.search.limit_text(), 10});
        PgnWriteOptions write_options;
        write_options.nag_suffixes = true;
        write_pgn(pgn_out_, game, write_options);
        pgn_out_.flush();
        if (request_.plot_dir) write_plot(game, number, analysis);
        return analysis;
    }

    void count_explanations(const std::vector<Explanation>& explanations,
                            const GameAnalysis& analysis) {
        for (std::size_t i = 0; i < explanations.size(); ++i) {
            if (analysis.moves[i].judgement < Judgement::MISTAKE) continue;
            ++marked_;
            ++kinds_[std::size_t(explanations[i].kind)];
            if (explanations[i].names_threat) ++threats_;
        }
    }

    void write_puzzles(const PgnGame& game, std::uint64_t number, const GameAnalysis& analysis,
                       const std::vector<Explanation>& explanations) {
        const std::vector<Puzzle> found =
            find_puzzles(engine_, game, number, analysis, explanations, request_.puzzle_options,
                         request_.puzzles_player, puzzle_seconds_);
        PgnWriteOptions options;
        for (const Puzzle& p : found) {
            *puzzle_epd_ << puzzle_epd(p) << "\n";
            write_pgn(*puzzle_pgn_, puzzle_pgn(p), options);
        }
        puzzle_epd_->flush();
        puzzle_pgn_->flush();
        puzzles_ += found.size();
    }

    void write_plot(const PgnGame& game, std::uint64_t number, const GameAnalysis& analysis) {
        const std::filesystem::path file =
            std::filesystem::path(*request_.plot_dir) / ("game-" + std::to_string(number) + ".svg");
        std::ofstream svg(file, std::ios::binary | std::ios::trunc);
        svg << plot_svg(game_plot(game, analysis));
        svg.close();
        if (!svg) {
            std::cerr << "horizon analyze: cannot write " << file.string() << "\n";
            ++errors_;
        }
    }

    void report_game(const PgnGame& game, std::uint64_t number, const GameAnalysis& analysis) {
        summary_out_ << "Game " << number << ": " << game.tag("White") << " - " << game.tag("Black")
                     << ", " << game.result << " (" << analysis.moves.size() << " plies)\n";
        std::string lines = summary_lines(game, analysis);
        for (std::size_t at = 0; at < lines.size();) {
            const std::size_t end = lines.find('\n', at);
            summary_out_ << "  " << lines.substr(at, end - at + 1);
            at = end + 1;
        }
        for (Color c : {WHITE, BLACK}) {
            const std::string name(game.tag(c == WHITE ? "White" : "Black"));
            if (!totals_.count(name)) order_.push_back(name);
            totals_[name] += analysis.players[c];
        }
        summary_out_.flush();
    }

    int finish() {
        if (analysed_ > 1) {
            summary_out_ << "Totals by player:\n";
            for (const std::string& name : order_)
                summary_out_ << "  " << (name.empty() ? "?" : name) << ": " << totals_[name].moves
                             << " moves, " << totals_[name].text() << "\n";
        }
        char line[200];
        std::snprintf(line, sizeof line,
                      "horizon analyze: %llu %s analysed, %llu left out; %llu positions in "
                      "%.2f s, %.2f s (%.1f%%) of it in the search\n",
                      static_cast<unsigned long long>(analysed_), analysed_ == 1 ? "game" : "games",
                      static_cast<unsigned long long>(errors_),
                      static_cast<unsigned long long>(positions_), seconds_, search_seconds_,
                      seconds_ > 0 ? 100.0 * search_seconds_ / seconds_ : 0.0);
        std::cerr << line;
        if (request_.explain != ExplainMode::OFF) {
            std::snprintf(line, sizeof line,
                          "horizon analyze: %llu moves marked ? or ?? explained in %.2f s: %d by "
                          "mate, %d by a table, %d by material, %d by evaluation groups, %d "
                          "without; %d name a threat\n",
                          static_cast<unsigned long long>(marked_), explain_seconds_,
                          kinds_[std::size_t(ExplanationKind::MATE)],
                          kinds_[std::size_t(ExplanationKind::TABLE)],
                          kinds_[std::size_t(ExplanationKind::MATERIAL)],
                          kinds_[std::size_t(ExplanationKind::GROUPS)],
                          kinds_[std::size_t(ExplanationKind::NONE)], threats_);
            std::cerr << line;
        }
        if (puzzle_epd_) {
            std::snprintf(line, sizeof line, "horizon analyze: %llu %s written in %.2f s\n",
                          static_cast<unsigned long long>(puzzles_),
                          puzzles_ == 1 ? "puzzle" : "puzzles", puzzle_seconds_);
            std::cerr << line;
        }
        if (analysed_ == 0 && errors_ == 0) {
            std::cerr << "horizon analyze: no game to analyse (the file holds none in the range)\n";
            return 2;
        }
        return errors_ ? 1 : 0;
    }

    const AnalyzeRequest& request_;
    Engine& engine_;
    std::ostream& pgn_out_;
    std::ostream& summary_out_;
    std::uint64_t analysed_ = 0, errors_ = 0, positions_ = 0;
    double seconds_ = 0, search_seconds_ = 0, explain_seconds_ = 0, puzzle_seconds_ = 0;
    std::ostream* puzzle_epd_ = nullptr;
    std::ostream* puzzle_pgn_ = nullptr;
    std::uint64_t marked_ = 0, puzzles_ = 0;
    std::array<int, 6> kinds_{}; // by ExplanationKind
    int threats_ = 0;
    std::map<std::string, PlayerSummary> totals_;
    std::vector<std::string> order_; // players in order of appearance
};

// Positions of the games in range (for the ETA): a quick read of the file, moves only.
std::uint64_t count_positions(const std::string& path, const GameRange& games) {
    std::ifstream in(path, std::ios::binary);
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

int analyze_pgn(const AnalyzeRequest& request, Engine& engine) {
    std::ifstream file;
    if (request.input != "-") {
        file.open(request.input, std::ios::binary);
        if (!file) {
            std::cerr << "horizon analyze: cannot open " << request.input << "\n";
            return 2;
        }
    }
    std::ofstream out_file;
    if (request.out) {
        out_file.open(*request.out, std::ios::binary | std::ios::trunc);
        if (!out_file) {
            std::cerr << "horizon analyze: cannot write " << *request.out << "\n";
            return 2;
        }
    }
    if (request.plot_dir) {
        std::error_code ec;
        std::filesystem::create_directories(*request.plot_dir, ec);
        if (ec || !std::filesystem::is_directory(*request.plot_dir)) {
            std::cerr << "horizon analyze: --plot: cannot make the folder " << *request.plot_dir
                      << (ec ? ": " + ec.message() : std::string()) << "\n";
            return 2;
        }
    }
    // The summary goes to standard output unless the annotated games do.
    std::ostream& pgn_out = request.out ? static_cast<std::ostream&>(out_file) : std::cout;
    std::ostream& summary_out = request.out ? std::cout : std::cerr;
    const std::uint64_t total = stderr_is_terminal() && request.input != "-"
                                    ? count_positions(request.input, request.games)
                                    : 0;
    PgnAnalysis analysis(request, engine, pgn_out, summary_out);
    std::ofstream puzzle_epd, puzzle_pgn;
    if (request.puzzles) {
        const std::string base = puzzle_base(*request.puzzles);
        for (auto [stream, name] :
             {std::pair{&puzzle_epd, base + ".epd"}, std::pair{&puzzle_pgn, base + ".pgn"}}) {
            stream->open(name, std::ios::binary | std::ios::trunc);
            if (!*stream) {
                std::cerr << "horizon analyze: --puzzles: cannot write " << name << "\n";
                return 2;
            }
        }
        analysis.set_puzzle_outputs(&puzzle_epd, &puzzle_pgn);
    }
    const int status = analysis.run(request.input == "-" ? std::cin : file, total);
    if (request.out) {
        out_file.close();
        if (!out_file) {
            std::cerr << "horizon analyze: writing " << *request.out << " failed\n";
            return 2;
        }
    }
    return status;
}

// The heading, with the tables' verdict where they hold the position, then the best lines.
std::string lines_text(Engine& engine, const Position& pos, const AnalyzeRequest& request,
                       std::string heading) {
    const auto lines = best_lines(engine, pos, request.search.limits, request.multipv);
    if (const auto table = table_result(engine, pos)) heading += "  [" + table_note(*table) + "]";
    return heading + "\n" + lines_table(pos, lines);
}

int analyze_positions(const AnalyzeRequest& request, Engine& engine) {
    if (request.fen) {
        Position pos;
        if (auto err = pos.set_fen(*request.fen)) {
            std::cerr << "horizon analyze: --fen: bad FEN: " << err->message << "\n";
            return 2;
        }
        std::cout << lines_text(engine, pos, request,
                                "Position " + pos.fen() + " (" + request.search.text() + ")")
                  << std::endl;
        return 0;
    }
    std::vector<std::string> errors;
    const auto entries = read_epd_file(request.input, errors);
    if (!entries) {
        for (const std::string& e : errors)
            std::cerr << "horizon analyze: " << e << "\n";
        return 2;
    }
    Progress progress(std::cerr, stderr_is_terminal(), "analyze");
    for (std::size_t i = 0; i < entries->size(); ++i) {
        const EpdEntry& e = (*entries)[i];
        progress.update(i, entries->size(), e.id);
        engine.new_game();
        const std::string text =
            lines_text(engine, e.record.pos, request, e.id + ": " + e.record.pos.fen());
        progress.finish();
        std::cout << text << std::endl;
    }
    return 0;
}

// Reads the command line into `request`; throws UsageError with the message.
AnalyzeRequest read_request(const cxxopts::ParseResult& args) {
    AnalyzeRequest r;
    if (args.count("fen")) r.fen = args["fen"].as<std::string>();
    if (args.count("file")) r.input = args["file"].as<std::string>();
    if (r.fen.has_value() == !r.input.empty())
        throw UsageError("give a PGN or EPD file, or --fen FEN (one of them)");
    const bool positions = r.fen || has_epd_extension(r.input);
    for (const char* flag :
         {"out", "plot", "games", "explain", "puzzles", "puzzles-player", "puzzle-margin"})
        if (positions && args.count(flag))
            throw UsageError(std::string("--") + flag + " is for PGN files");
    if (!positions && args.count("multipv"))
        throw UsageError("--multipv is for --fen and EPD files");
    if (args.count("out")) r.out = args["out"].as<std::string>();
    if (args.count("plot")) r.plot_dir = args["plot"].as<std::string>();
    if (args.count("games")) {
        std::string error;
        auto range = GameRange::parse(args["games"].as<std::string>(), error);
        if (!range) throw UsageError("--games '" + args["games"].as<std::string>() + "': " + error);
        r.games = *range;
    }
    if (const auto mode = text_flag(args, "explain")) {
        if (*mode == "off")
            r.explain = ExplainMode::OFF;
        else if (*mode == "on")
            r.explain = ExplainMode::MISTAKES;
        else if (*mode == "all")
            r.explain = ExplainMode::ALL;
        else
            throw UsageError("--explain: 'on', 'off' or 'all', not '" + *mode + "'");
    }
    r.puzzles = text_flag(args, "puzzles");
    if (r.puzzles && r.puzzles->empty()) throw UsageError("--puzzles: a file name is needed");
    for (const char* flag : {"puzzles-player", "puzzle-margin"})
        if (args.count(flag) && !r.puzzles)
            throw UsageError(std::string("--") + flag + " goes with --puzzles FILE");
    if (const auto player = text_flag(args, "puzzles-player")) r.puzzles_player = *player;
    if (args.count("puzzle-margin"))
        r.puzzle_options.margin_cp = int(whole_flag(args, "puzzle-margin", 1, PUZZLE_MATE_CP));
    if (args.count("multipv")) r.multipv = int(whole_flag(args, "multipv", 1, MAX_MULTIPV));
    r.search = read_search_flags(args, DEFAULT_MOVETIME_MS);
    return r;
}

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

int analyze_main(int argc, const char* const* argv) {
    CommandLine cli("analyze",
                    "Annotate the games of a PGN file: [%eval] comments (White's view, pawns), "
                    "moves that lose expected result marked ?! ? ?? with the better line and why "
                    "(--explain), puzzles from the mistakes (--puzzles), a summary per player. Or "
                    "show the best lines of a position (--fen) or of each "
                    "position of an EPD file.");
    // clang-format off
    cli.add()
        ("o,out", "write the annotated games to this file (default: standard output)", cxxopts::value<std::string>(), "FILE")
        ("plot", "write one SVG plot per game into this folder (game-N.svg)", cxxopts::value<std::string>(), "DIR")
        ("games", "only these games of the file: 5, 3-7, 10-, -4, or a list 1,4,7-9", cxxopts::value<std::string>(), "RANGE")
        ("fen", "analyse this position", cxxopts::value<std::string>(), "FEN")
        ("multipv", "with --fen or an EPD file: this many best lines", cxxopts::value<std::string>(), "N")
        ("explain", "explain the moves marked ? and ?? in words (on, the default), also ?! (all), or not (off)", cxxopts::value<std::string>(), "MODE")
        ("puzzles", "write puzzles from the games' mistakes to FILE.epd and FILE.pgn", cxxopts::value<std::string>(), "FILE")
        ("puzzles-player", "with --puzzles: only the mistakes of this player (the White or Black tag)", cxxopts::value<std::string>(), "NAME")
        ("puzzle-margin", "with --puzzles: the second-best move at least this far below the best (default 150)", cxxopts::value<std::string>(), "CP");
    // clang-format on
    add_search_flags(cli, DEFAULT_MOVETIME_MS);
    cli.positional({"file"}, "(FILE | --fen FEN)");
    cli.footer("\nFILE: a PGN file ('-': standard input) or an EPD file (.epd).\n");

    AnalyzeRequest request;
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    try {
        request = read_request(args);
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    Engine engine;
    std::vector<std::string> problems;
    const auto err = request.search.apply(engine, problems);
    for (const std::string& p : problems)
        std::cerr << "horizon analyze: --syzygy-path: " << p << "\n";
    if (err) {
        std::cerr << "horizon analyze: " << *err << "\n";
        return 2;
    }
    if (request.fen || has_epd_extension(request.input)) return analyze_positions(request, engine);
    return analyze_pgn(request, engine);
}

} // namespace horizon
