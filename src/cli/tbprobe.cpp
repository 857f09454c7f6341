#include "cli/tbprobe.hpp"

#include <algorithm>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "core/position.hpp"
#include "eval/tablebases.hpp"
#include "movegen/random_position.hpp"

namespace horizon {

namespace {

constexpr const char* FOOTER =
    "\nOne line a position, 'FEN | WDL | DTZ' (WDL: win, cursed win, draw, blessed loss or loss\n"
    "for the side to move, the fifty-move counter counted; DTZ: plies to a capture or pawn\n"
    "move, signed, '-' without a DTZ table; '|' alone: not in the tables). --random N draws N\n"
    "random legal positions (default 3-4 pieces) with the side to move, en passant and the\n"
    "fifty-move counter varied, the same for the same seed; --material: only that material\n"
    "(White's pieces, 'v', Black's), counter at 0.\n";

// What the command line asks for.
struct Request {
    std::string path;
    std::string fen;          // one position, or
    std::uint64_t random = 0; // this many random ones
    std::uint64_t seed = 1;
    int min_pieces = 3, max_pieces = 4;
    std::optional<std::string> material;
};

Request read_request(const cxxopts::ParseResult& args) {
    Request req;
    req.material = text_flag(args, "material");
    if (!args.count("syzygy-path")) throw UsageError("--syzygy-path is needed");
    req.path = args["syzygy-path"].as<std::string>();
    req.fen = fen_argument(args, "fen-words");
    if (args.count("random") && !req.fen.empty())
        throw UsageError("--random: a FEN or --random, not both");
    if (!args.count("random")) {
        for (const char* flag : {"seed", "pieces", "material"})
            if (args.count(flag))
                throw UsageError(std::string("--") + flag + " goes with --random");
    } else {
        req.random = whole_flag(args, "random", 1, 100'000'000);
        if (args.count("seed")) req.seed = whole_flag(args, "seed", 0, UINT64_MAX);
    }
    if (auto pieces = text_flag(args, "pieces")) {
        const auto dash = pieces->find('-');
        req.min_pieces =
            int(whole_number("--pieces", pieces->substr(0, dash), 2, TbConfig::MAX_PIECES));
        req.max_pieces =
            dash == std::string::npos
                ? req.min_pieces
                : int(whole_number("--pieces", pieces->substr(dash + 1), 2, TbConfig::MAX_PIECES));
        if (req.min_pieces > req.max_pieces)
            throw UsageError("--pieces: runs backwards: '" + *pieces + "'");
    }
    if (const auto& material = req.material) {
        const auto v = material->find('v');
        const bool ok = v != std::string::npos && material->size() <= 8 &&
                        material->find_first_not_of("KQRBNPv") == std::string::npos &&
                        std::count(material->begin(), material->end(), 'K') == 2 &&
                        (*material)[0] == 'K' && (*material)[v + 1] == 'K';
        if (!ok) throw UsageError("--material: not pieces like KBNvK: '" + *material + "'");
    }
    return req;
}

// "FEN | WDL | DTZ" ("FEN | " alone when the tables do not hold the position).
std::string probe_line(const Tablebases& tables, const Position& pos) {
    std::string line = pos.fen() + " | ";
    if (const auto probe = tables.probe(pos)) {
        line += std::string(tb_wdl_name(probe->wdl)) + " | ";
        line += probe->dtz ? std::to_string(*probe->dtz) : "-";
    }
    return line;
}

} // namespace

int tbprobe_main(int argc, const char* const* argv) {
    CommandLine cli("tbprobe", "Probe the Syzygy tables: the WDL and DTZ of a position, or of "
                               "random positions.");
    // clang-format off
    cli.add()
        ("syzygy-path", "the tables (folders joined by ':', ';' on Windows); required", cxxopts::value<std::string>(), "PATH")
        ("fen", "the position (or its words without the flag)", cxxopts::value<std::string>(), "FEN")
        ("random", "probe N random legal positions instead", cxxopts::value<std::string>(), "N")
        ("seed", "with --random: the seed (default 1)", cxxopts::value<std::string>(), "N")
        ("pieces", "with --random: pieces, kings included (default 3-4)", cxxopts::value<std::string>(), "MIN-MAX")
        ("material", "with --random: only this material", cxxopts::value<std::string>(), "KBNvK");
    // clang-format on
    cli.positional({"fen-words"}, "", true); // shown in the synopsis
    cli.synopsis("--syzygy-path PATH ([--fen] FEN | --random N [--seed N] [--pieces MIN-MAX] "
                 "[--material KBNvK])");
    cli.footer(FOOTER);
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    Request req;
    try {
        req = read_request(args);
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    Tablebases tables;
    const TbLoad load = tables.set_path(req.path);
    for (const auto& p : load.problems)
        std::cerr << "horizon tbprobe: " << p << "\n";
    if (!tables.enabled()) {
        std::cerr << "horizon tbprobe: " << load.summary() << " in '" << req.path << "'\n";
        return 1;
    }
    if (req.max_pieces > tables.largest())
        return cli.fail("--pieces: the tables hold " + std::to_string(tables.largest()) +
                        " pieces at most, not " + std::to_string(req.max_pieces));
    std::vector<Position> positions;
    if (req.random) {
        positions =
            random_positions(req.seed, req.random, req.min_pieces, req.max_pieces, req.material);
    } else {
        Position pos;
        if (auto err = pos.set_fen(req.fen)) return cli.fail("bad FEN: " + err->message);
        positions.push_back(pos);
    }
    for (const auto& pos : positions)
        std::cout << probe_line(tables, pos) << "\n";
    return 0;
}

} // namespace horizon
