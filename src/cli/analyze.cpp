#include "cli/analyze.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <cxxopts.hpp>

#include "analysis/best_lines.hpp"
#include "analysis/game_analysis.hpp"
#include "analysis/pgn_analysis.hpp"
#include "cli/command_line.hpp"
#include "cli/progress.hpp"
#include "cli/search_flags.hpp"
#include "notation/epd.hpp"

namespace horizon {

namespace {

constexpr std::int64_t DEFAULT_MOVETIME_MS = 500;
constexpr int MAX_MULTIPV = 256;

bool has_epd_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return ext == ".epd";
}

// What the command line asked for.
struct AnalyzeRequest {
    std::string input; // PGN or EPD file ("-": a PGN on standard input)
    std::optional<std::string> fen;
    std::optional<std::string> out; // -o
    int multipv = 1;
    SearchFlags search;
    PgnAnalysisSettings pgn;            // its limits are search's
    std::optional<std::string> puzzles; // the puzzle files' name, without .epd / .pgn
};

// "--puzzles out/p", "out/p.epd" or "out/p.pgn" all name out/p.epd and out/p.pgn.
std::string puzzle_base(const std::string& name) {
    const std::filesystem::path path(name);
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return ext == ".epd" || ext == ".pgn" ? (path.parent_path() / path.stem()).string() : name;
}

// The closing lines on stderr: games, positions and time, the explanations and the puzzles.
// Returns the exit status.
int report_run(const PgnAnalysisReport& r, const AnalyzeRequest& request) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "horizon analyze: %llu %s analysed, %llu left out; %llu positions in "
                  "%.2f s, %.2f s (%.1f%%) of it in the search\n",
                  static_cast<unsigned long long>(r.analysed), r.analysed == 1 ? "game" : "games",
                  static_cast<unsigned long long>(r.errors),
                  static_cast<unsigned long long>(r.positions), r.seconds, r.search_seconds,
                  r.seconds > 0 ? 100.0 * r.search_seconds / r.seconds : 0.0);
    std::cerr << line;
    if (request.pgn.explain != ExplainMode::OFF) {
        const auto kind = [&](ExplanationKind k) { return r.kinds[std::size_t(k)]; };
        std::snprintf(line, sizeof line,
                      "horizon analyze: %llu moves marked ? or ?? explained in %.2f s: %d by "
                      "mate, %d by a table, %d by material, %d by evaluation groups, %d "
                      "without; %d name a threat\n",
                      static_cast<unsigned long long>(r.marked), r.explain_seconds,
                      kind(ExplanationKind::MATE), kind(ExplanationKind::TABLE),
                      kind(ExplanationKind::MATERIAL), kind(ExplanationKind::GROUPS),
                      kind(ExplanationKind::NONE), r.threats);
        std::cerr << line;
    }
    if (request.puzzles) {
        std::snprintf(line, sizeof line, "horizon analyze: %llu %s written in %.2f s\n",
                      static_cast<unsigned long long>(r.puzzles),
                      r.puzzles == 1 ? "puzzle" : "puzzles", r.puzzle_seconds);
        std::cerr << line;
    }
    if (r.analysed == 0 && r.errors == 0) {
        std::cerr << "horizon analyze: no game to analyse (the file holds none in the range)\n";
        return 2;
    }
    return r.errors ? 1 : 0;
}

// The games of `in` analysed into `output`, with a progress line on a terminal; returns the
// exit status.
int run_pgn_analysis(const AnalyzeRequest& request, Engine& engine, std::istream& in,
                     const PgnAnalysisOutput& output) {
    std::uint64_t total = 0; // positions, for the ETA
    if (stderr_is_terminal() && request.input != "-") {
        std::ifstream count_in(request.input, std::ios::binary);
        total = count_pgn_positions(count_in, request.pgn.games);
    }
    Progress progress(std::cerr, total > 0, "analyze");
    PgnAnalysisCallbacks callbacks;
    callbacks.on_position = [&](const PgnAnalysisProgress& p) {
        std::string detail = "game " + std::to_string(p.game) + ", ";
        switch (p.stage) {
        case PgnAnalysisStage::POSITIONS:
            detail += "position " + std::to_string(p.position) + "/" + std::to_string(p.positions);
            break;
        case PgnAnalysisStage::EXPLANATIONS:
            detail += "explaining " + std::to_string(p.step) + "/" + std::to_string(p.steps);
            break;
        case PgnAnalysisStage::PUZZLES:
            detail += "puzzles, move " + std::to_string(p.step) + "/" + std::to_string(p.steps);
            break;
        }
        progress.update(p.positions_done, total, detail);
    };
    callbacks.on_game = [&] { progress.finish(); };
    callbacks.on_notice = [&](const std::string& text) {
        progress.finish();
        std::cerr << "horizon analyze: " << text << "\n";
    };
    const PgnAnalysisReport report = analyze_pgn_games(in, engine, request.pgn, output, callbacks);
    progress.finish();
    return report_run(report, request);
}

// Opens what a PGN analysis reads and writes, and runs it.
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
    if (const auto& dir = request.pgn.plot_dir) {
        std::error_code ec;
        std::filesystem::create_directories(*dir, ec);
        if (ec || !std::filesystem::is_directory(*dir)) {
            std::cerr << "horizon analyze: --plot: cannot make the folder " << *dir
                      << (ec ? ": " + ec.message() : std::string()) << "\n";
            return 2;
        }
    }
    // The summary goes to standard output unless the annotated games do.
    PgnAnalysisOutput output{request.out ? static_cast<std::ostream&>(out_file) : std::cout,
                             request.out ? std::cout : std::cerr};
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
        output.puzzle_epd = &puzzle_epd;
        output.puzzle_pgn = &puzzle_pgn;
    }
    const int status =
        run_pgn_analysis(request, engine, request.input == "-" ? std::cin : file, output);
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
    if (args.count("plot")) r.pgn.plot_dir = args["plot"].as<std::string>();
    if (args.count("games")) {
        std::string error;
        auto range = GameRange::parse(args["games"].as<std::string>(), error);
        if (!range) throw UsageError("--games '" + args["games"].as<std::string>() + "': " + error);
        r.pgn.games = *range;
    }
    if (const auto mode = text_flag(args, "explain")) {
        if (*mode == "off")
            r.pgn.explain = ExplainMode::OFF;
        else if (*mode == "on")
            r.pgn.explain = ExplainMode::MISTAKES;
        else if (*mode == "all")
            r.pgn.explain = ExplainMode::ALL;
        else
            throw UsageError("--explain: 'on', 'off' or 'all', not '" + *mode + "'");
    }
    r.puzzles = text_flag(args, "puzzles");
    if (r.puzzles && r.puzzles->empty()) throw UsageError("--puzzles: a file name is needed");
    for (const char* flag : {"puzzles-player", "puzzle-margin"})
        if (args.count(flag) && !r.puzzles)
            throw UsageError(std::string("--") + flag + " goes with --puzzles FILE");
    if (const auto player = text_flag(args, "puzzles-player")) r.pgn.puzzles_player = *player;
    if (args.count("puzzle-margin"))
        r.pgn.puzzle_options.margin_cp = int(whole_flag(args, "puzzle-margin", 1, PUZZLE_MATE_CP));
    if (args.count("multipv")) r.multipv = int(whole_flag(args, "multipv", 1, MAX_MULTIPV));
    r.search = read_search_flags(args, DEFAULT_MOVETIME_MS);
    r.pgn.limits = r.search.limits;
    r.pgn.limit_text = r.search.limit_text();
    return r;
}

} // namespace

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
