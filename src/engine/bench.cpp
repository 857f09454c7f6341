#include "engine/bench.hpp"

#include <algorithm>
#include <chrono>
#include <ostream>
#include <string>

#include "engine/engine.hpp"
#include "notation/uci_move.hpp"

namespace horizon {

// Openings (8 random plies, balanced) followed by middlegames and endgames.
const std::string_view BENCH_FENS[] = {
    "r1bqk1nr/pppp2pp/n2b4/4pp2/8/NQP4P/PP1PPPP1/R1B1KBNR w KQkq - 0 5",
    "rn1qkbnr/ppp1pppp/8/1N1p4/8/6P1/PPPPPPbP/R1BQKB1R w KQkq - 0 5",
    "rnbqkb1r/pp1pp1pp/8/2p2p2/P5n1/8/1PPPPPPP/RNBQKBNR w KQkq - 0 5",
    "rnbqkb1r/p2pnppp/2p5/1p2p3/7N/P1P5/1P1PPPPP/RNBQKB1R w KQkq - 0 5",
    "1nbqkbnr/r1pp1ppp/p2p4/1p6/8/8/PPPNPPPP/R1BQKBNR w KQk - 0 5",
    "rn1qkbnr/pp2pp1p/2p1b1p1/3p4/2P4P/N5P1/PP1PPP2/R1BQKBNR w KQkq - 0 5",
    "rnbqkb1r/1ppp1ppp/5n2/pN6/4p3/P3P3/1PPP1PPP/R1BQKBNR w KQkq - 0 5",
    "r1bqkbnr/ppp1pppp/n7/3p4/2P5/P7/RP1PPPPP/1NBQKBNR w K - 0 5",
    "rnbqkbnr/pppp2pp/4p2B/5p2/8/2NP3P/PPP1PPP1/R2QKBNR w KQkq - 0 5",
    "r1bqk1nr/pppp2pp/n3pp2/2b5/8/2P3PP/PP1PPP1R/RNBQKBN1 w Qkq - 0 5",
    "rn1qkbnr/1ppbppp1/p6p/1B1p4/8/P1P1P3/1P1P1PPP/RNBQK1NR w KQkq - 0 5",
    "r1bqkb1r/ppp1p1pp/2n2p1n/1B1p4/8/4PPP1/PPPP3P/RNBQK1NR w KQkq - 0 5",
    "rn1qkbnr/pbpp2pp/1p2p3/5p2/P1N1P3/8/1PPP1PPP/R1BQKBNR w KQkq - 0 5",
    "rnbqkbnr/pp2pp2/2pp4/2P3pp/P7/6P1/1P1PPP1P/RNBQKBNR w KQkq - 0 5",
    "rnbqkbn1/2pppppr/p6p/1p6/1P1P4/7P/P1P1PPPR/RNBQKBN1 w Qq - 0 5",
    "rnbqkb1r/p1p1p1pp/3p1n2/1p3p2/5P2/N7/PPPPP1PP/R1BQKBNR w KQkq - 0 5",
    "rnbqkb1r/pp2pp1p/5np1/2pp4/2PP2P1/P7/1P2PP1P/RNBQKBNR w KQkq - 0 5",
    "r1bqkb1r/pp1pppp1/n1p4n/7p/4N3/5PP1/PPPPP2P/R1BQKBNR w KQkq - 0 5",
    "rnbqkbnr/1pp1pppp/3p4/p7/P7/N6N/RPPPPPPP/2BQKB1R w K - 0 5",
    "rnbqkb1r/pp2ppp1/2pp1n2/7p/8/4P2N/PPPPBPPP/RNBQK1R1 w Qkq - 0 5",
    "rnbqkb1r/ppp3pp/3pp2n/5p2/3P4/2P5/PP1KPPPP/RNB1QBNR w kq - 0 5",
    "r1bqk1nr/pppppp1p/6pb/2n5/5P2/1P2P3/P1PP1KPP/RNBQ1BNR w kq - 0 5",
    "rnbqkbnr/p1ppp2p/5pp1/8/p7/2N4P/1PPPPPPR/R1BQKBN1 w Qkq - 0 5",
    "rnbqkb1r/1pppp2p/p4ppn/8/6BP/6P1/PPPPPP2/RNBQK1NR w KQkq - 0 5",
    "rnbqk1nr/1ppp1p1p/p3p3/6p1/1b6/N2P3N/PPPKPPPP/R1BQ1B1R w kq - 0 5",
    "rn1qkb1r/ppp2ppp/3p1n2/4pb2/4N3/6PP/PPPPPP2/R1BQKBNR w KQkq - 0 5",
    "rnbqkb1r/p2pppp1/2p2n2/1p5p/5P2/N5P1/PPPPP1BP/R1BQK1NR w KQkq - 0 5",
    "rnbqkb1r/2ppnppp/8/pp2p3/5B2/2NP3N/PPP1PPPP/R2QKB1R w KQkq - 0 5",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r3k1/pp3ppp/4p3/3p4/3P4/2P1P3/PP4PP/2R3K1 w - - 0 25",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/8/3PK3/8/8/8 w - - 0 60",
    "8/5pk1/6p1/8/5PP1/6K1/8/8 b - - 0 50",
    "6k1/5p2/6p1/8/8/1r6/5PPP/3R2K1 w - - 0 40",
    "8/8/8/4k3/8/8/3QK3/8 w - - 0 70",
    "3k4/8/8/8/8/8/2R5/3K4 b - - 0 55",
    "4r1k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 45",
};
const int BENCH_FEN_COUNT = int(sizeof(BENCH_FENS) / sizeof(BENCH_FENS[0]));

BenchResult run_bench(int depth, std::ostream& out, int threads, const EvalWeights* weights,
                      const std::string& syzygy_path) {
    Engine engine;
    engine.set_threads(threads);
    if (weights) engine.set_weights(*weights);
    if (!syzygy_path.empty()) {
        const TbLoad load = engine.set_syzygy_path(syzygy_path);
        out << "Syzygy: " << load.summary() << "\n";
        for (const auto& problem : load.problems)
            out << "Syzygy: " << problem << "\n";
    }
    BenchResult result;
    SearchLimits limits;
    limits.depth = depth;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < BENCH_FEN_COUNT; ++i) {
        engine.new_game();
        if (auto err = engine.set_position(std::string(BENCH_FENS[i]), {})) {
            out << "bench position " << (i + 1) << " rejected: " << *err << "\n";
            continue;
        }
        const SearchResult r = engine.search_sync(limits, [](const SearchReport&) {});
        out << "Position " << (i + 1) << "/" << BENCH_FEN_COUNT << ": "
            << move_to_uci(engine.position(), r.best) << " " << r.nodes << " nodes\n";
        result.nodes += r.nodes;
        result.tbhits += r.tbhits;
    }
    result.ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    out << "\nNodes searched: " << result.nodes << "\n";
    out << "Nodes/second: "
        << result.nodes * 1000 / std::uint64_t(std::max<std::int64_t>(1, result.ms)) << "\n";
    out << "Total time (ms): " << result.ms << "\n";
    if (!syzygy_path.empty()) out << "Table hits: " << result.tbhits << "\n";
    // The one-line summary OpenBench reads (the last line of the output).
    out << result.nodes << " nodes "
        << result.nodes * 1000 / std::uint64_t(std::max<std::int64_t>(1, result.ms)) << " nps\n";
    return result;
}

} // namespace horizon
