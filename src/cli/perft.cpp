#include "cli/perft.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <cxxopts.hpp>

#include "cli/command_line.hpp"
#include "movegen/perft.hpp"
#include "notation/epd.hpp"
#include "notation/uci_move.hpp"
#include "platform/subprocess.hpp"
#include "platform/system.hpp"

namespace horizon {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void print_speed(std::uint64_t nodes, double secs) {
    std::cout << "Time (ms): " << std::int64_t(secs * 1000) << "\n";
    std::cout << "Nodes/second: " << std::uint64_t(double(nodes) / std::max(secs, 1e-9)) << "\n";
}

struct BenchPosition {
    const char* name;
    const char* fen;
    int depth;
};

// The positions the speed figure is quoted on (chessprogramming's reference positions).
constexpr BenchPosition BENCH_POSITIONS[] = {
    {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
    {"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7},
    {"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5},
    {"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5},
};

// Times Stockfish's `go perft` after it reported ready, so its start-up is not counted.
std::optional<double> stockfish_perft_seconds(const std::string& path, const BenchPosition& p,
                                              std::uint64_t expected) {
    try {
        Subprocess sf({path});
        sf.write("uci\nsetoption name Threads value 1\nisready\n");
        if (!sf.wait_for("readyok", std::chrono::seconds(20))) return std::nullopt;
        sf.write(std::string("position fen ") + p.fen + "\nisready\n");
        if (!sf.wait_for("readyok", std::chrono::seconds(20))) return std::nullopt;
        const auto start = Clock::now();
        sf.write("go perft " + std::to_string(p.depth) + "\n");
        auto line = sf.wait_for("Nodes searched", std::chrono::seconds(600));
        const double secs = seconds_since(start);
        sf.write("quit\n");
        if (!line) return std::nullopt;
        const auto n = std::stoull(line->substr(line->find(':') + 1));
        if (n != expected) {
            std::cerr << "stockfish counted " << n << " on " << p.name << ", expected " << expected
                      << "\n";
            return std::nullopt;
        }
        return secs;
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return std::nullopt;
    }
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

int run_bench(const std::string& stockfish, int runs) {
    const bool with_sf = !stockfish.empty() && stockfish != "none";
    std::printf("%-10s %5s %14s %12s %12s %12s %8s\n", "position", "depth", "nodes", "horizon ms",
                with_sf ? "stockfish ms" : "", "horizon Mnps", with_sf ? "ratio" : "");
    double total_h = 0, total_s = 0;
    std::uint64_t total_nodes = 0;
    bool sf_ok = with_sf;
    for (const auto& p : BENCH_POSITIONS) {
        std::vector<double> th, ts;
        std::uint64_t nodes = 0;
        // Alternate the two engines run by run so both see the same machine load.
        for (int r = 0; r < runs; ++r) {
            Position pos;
            pos.set_fen(p.fen);
            const auto start = Clock::now();
            nodes = perft(pos, p.depth);
            th.push_back(seconds_since(start));
            if (sf_ok) {
                auto s = stockfish_perft_seconds(stockfish, p, nodes);
                if (!s) {
                    std::cerr << "stockfish comparison failed; continuing without it\n";
                    sf_ok = false;
                } else {
                    ts.push_back(*s);
                }
            }
        }
        const double mh = median(th);
        total_h += mh;
        total_nodes += nodes;
        if (sf_ok) {
            const double ms = median(ts);
            total_s += ms;
            std::printf("%-10s %5d %14llu %12.1f %12.1f %12.1f %8.2f\n", p.name, p.depth,
                        static_cast<unsigned long long>(nodes), mh * 1000, ms * 1000,
                        double(nodes) / mh / 1e6, ms / mh);
        } else {
            std::printf("%-10s %5d %14llu %12.1f %12s %12.1f\n", p.name, p.depth,
                        static_cast<unsigned long long>(nodes), mh * 1000, "",
                        double(nodes) / mh / 1e6);
        }
    }
    std::printf("\nHorizon: %llu nodes in %.1f ms (median of %d runs per position), %.1f Mnps\n",
                static_cast<unsigned long long>(total_nodes), total_h * 1000, runs,
                double(total_nodes) / total_h / 1e6);
    if (sf_ok) {
        std::printf("Stockfish (%s): %.1f ms, %.1f Mnps\n", stockfish.c_str(), total_s * 1000,
                    double(total_nodes) / total_s / 1e6);
        std::printf("Speed ratio (Horizon nps / Stockfish nps): %.2f\n", total_s / total_h);
    }
    std::printf("Peak memory (RSS): %ld KiB\n", peak_memory_kib());
    return 0;
}

// perft --suite: every position's counts checked, then the totals.
int check_suite(const std::string& file, int max_depth) {
    std::vector<std::string> errors;
    const SuiteResult r = run_perft_suite(file, max_depth, std::cout, std::cout, errors);
    if (!errors.empty()) {
        for (const std::string& e : errors)
            std::cerr << "horizon perft: " << e << "\n";
        return 2;
    }
    std::cout << "\n"
              << r.positions << " positions, " << r.checks << " counts checked, "
              << (r.checks - r.failures) << " passed, " << r.failures << " failed\n";
    std::cout << "Nodes searched: " << r.nodes << "\n";
    print_speed(r.nodes, r.seconds);
    return r.failures ? 1 : 0;
}

// perft --depth: the count (with --divide, per root move), its speed and the peak memory.
int count_nodes(Position& pos, int depth, bool divide) {
    const auto start = Clock::now();
    std::uint64_t nodes = 0;
    if (divide) {
        for (const auto& [m, n] : perft_divide(pos, depth)) {
            std::cout << move_to_uci(pos, m) << ": " << n << "\n";
            nodes += n;
        }
        std::cout << "\n";
    } else {
        nodes = perft(pos, depth);
    }
    const double secs = seconds_since(start);
    std::cout << "Nodes searched: " << nodes << "\n";
    print_speed(nodes, secs);
    std::cout << "Peak memory (RSS, KiB): " << peak_memory_kib() << "\n";
    return 0;
}

} // namespace

SuiteResult run_perft_suite(const std::string& path, int max_depth, std::ostream& out,
                            std::ostream& progress, std::vector<std::string>& errors) {
    SuiteResult result;
    const auto entries = read_perft_suite(path, errors);
    if (!entries) return result;

    const auto start = Clock::now();
    for (std::size_t i = 0; i < entries->size(); ++i) {
        const EpdPerftEntry& e = (*entries)[i];
        Position pos;
        if (auto err = pos.set_fen(e.fen)) {
            out << "FAIL " << e.fen << ": bad FEN: " << err->message << "\n";
            ++result.failures;
            ++result.positions;
            continue;
        }
        const int depths =
            max_depth > 0 ? std::min<int>(max_depth, int(e.counts.size())) : int(e.counts.size());
        bool ok = true;
        std::uint64_t nodes = 0;
        for (int d = 1; d <= depths; ++d) {
            const std::uint64_t n = perft(pos, d);
            nodes += n;
            ++result.checks;
            if (n != e.counts[d - 1]) {
                ok = false;
                ++result.failures;
                out << "FAIL " << e.fen << " depth " << d << ": expected " << e.counts[d - 1]
                    << ", got " << n << "\n";
            }
        }
        result.nodes += nodes;
        ++result.positions;
        progress << "[" << (i + 1) << "/" << entries->size() << "] " << (ok ? "ok  " : "FAIL")
                 << " D1-D" << depths << " " << nodes << " nodes  " << e.fen << "\n";
    }
    result.seconds = seconds_since(start);
    return result;
}

int perft_main(int argc, const char* const* argv) {
    CommandLine cli("perft", "Count leaf nodes of the move tree (perft).");
    // clang-format off
    cli.add()
        ("d,depth", "depth to count, 1 to 20", cxxopts::value<std::string>(), "N")
        ("f,fen", "position (FEN); the start position when absent", cxxopts::value<std::string>(), "FEN")
        ("divide", "print the count under each root move")
        ("chess960", "print castling as king-takes-rook")
        ("s,suite", "run an EPD suite file (FEN ;D1 n ;D2 n ...)", cxxopts::value<std::string>(), "FILE")
        ("max-depth", "with --suite: deepest depth to check (0 = all)", cxxopts::value<std::string>()->default_value("0"), "N")
        ("bench", "speed benchmark on the reference positions, side by side with Stockfish")
        ("stockfish", "Stockfish binary for --bench ('none' to skip)", cxxopts::value<std::string>()->default_value("/usr/games/stockfish"), "FILE")
        ("runs", "with --bench: runs per position (median taken)", cxxopts::value<std::string>()->default_value("3"), "N");
    // clang-format on
    cli.synopsis("(--depth N [--fen FEN] [--divide] | --suite FILE | --bench) [OPTION...]");
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    int depth = 0, max_depth = 0, runs = 0;
    Position pos;
    try {
        runs = int(whole_flag(args, "runs", 1, 1000));
        max_depth = int(whole_flag(args, "max-depth", 0, 100));
        if (!args.count("bench") && !args.count("suite")) {
            if (!args.count("depth"))
                throw UsageError("give --depth N (or --suite FILE, or --bench)");
            depth = int(whole_flag(args, "depth", 1, 20));
            const std::string fen =
                text_flag(args, "fen").value_or(std::string(Position::START_FEN));
            if (auto err = pos.set_fen(fen, args.count("chess960") > 0))
                throw UsageError("--fen: bad FEN: " + err->message);
        }
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    try {
        if (args.count("bench")) return run_bench(args["stockfish"].as<std::string>(), runs);
        if (args.count("suite")) return check_suite(args["suite"].as<std::string>(), max_depth);
        return count_nodes(pos, depth, args.count("divide") > 0);
    } catch (const std::exception& e) {
        std::cerr << "horizon perft: " << e.what() << "\n";
        return 2;
    }
}

} // namespace horizon
