#include "cli/uci_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <cxxopts.hpp>

#include "cli/command_line.hpp"
#include "platform/subprocess.hpp"
#include "platform/system.hpp"

namespace horizon {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Stats {
    std::vector<double> v;
    void add(double x) { v.push_back(x); }
    double median() const {
        std::vector<double> s = v;
        std::sort(s.begin(), s.end());
        return s.empty() ? 0 : s[s.size() / 2];
    }
    double max() const { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }
    double min() const { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }
};

bool start_engine(Subprocess& e) {
    e.write("uci\n");
    return e.wait_for("uciok", milliseconds(5000)).has_value();
}

// The measurements of all runs.
struct Measurements {
    Stats startup, isready, stop, movetime, rss, hash;
    int failures = 0;
};

// One run: start the engine, then time isready and stop during a search, a movetime search,
// and the largest Hash with a new game; quit.
void measure_run(const std::vector<std::string>& cmd, int movetime, int overhead, Measurements& m) {
    // Start-up: process launch to uciok.
    const auto t0 = Clock::now();
    Subprocess e(cmd);
    if (!start_engine(e)) {
        ++m.failures;
        return;
    }
    m.startup.add(ms_since(t0));
    e.write("setoption name Move Overhead value " + std::to_string(overhead) + "\nisready\n");
    e.wait_for("readyok", milliseconds(5000));

    // isready while searching, then stop.
    e.write("position startpos\ngo infinite\n");
    std::this_thread::sleep_for(milliseconds(100));
    auto t = Clock::now();
    e.write("isready\n");
    if (!e.wait_for("readyok", milliseconds(5000))) ++m.failures;
    m.isready.add(ms_since(t));
    std::this_thread::sleep_for(milliseconds(100));
    t = Clock::now();
    e.write("stop\n");
    if (!e.wait_for("bestmove", milliseconds(5000))) ++m.failures;
    m.stop.add(ms_since(t));

    // movetime.
    e.write("position startpos moves e2e4 e7e5\nisready\n");
    e.wait_for("readyok", milliseconds(5000));
    t = Clock::now();
    e.write("go movetime " + std::to_string(movetime) + "\n");
    if (!e.wait_for("bestmove", milliseconds(movetime + 5000))) ++m.failures;
    m.movetime.add(ms_since(t));

    m.rss.add(double(e.peak_memory_kib()));
    // The largest Hash a GUI can ask for, then a new game (which clears it).
    t = Clock::now();
    e.write("setoption name Hash value 16384\nucinewgame\nisready\n");
    if (!e.wait_for("readyok", milliseconds(60000))) ++m.failures;
    m.hash.add(ms_since(t));
    e.write("quit\n");
    e.wait(milliseconds(2000));
}

void print_measurements(const Measurements& m, const std::string& engine, int runs, int movetime,
                        int overhead) {
    std::printf("engine: %s, %d runs (median / max, ms)\n", engine.c_str(), runs);
    std::printf("start-up to uciok          %8.1f / %8.1f\n", m.startup.median(), m.startup.max());
    std::printf("isready during search      %8.1f / %8.1f\n", m.isready.median(), m.isready.max());
    std::printf("stop to bestmove           %8.1f / %8.1f\n", m.stop.median(), m.stop.max());
    std::printf("go movetime %-5d          %8.1f / %8.1f  (min %.1f; Move Overhead %d)\n", movetime,
                m.movetime.median(), m.movetime.max(), m.movetime.min(), overhead);
    std::printf("peak memory (KiB)          %8.0f / %8.0f\n", m.rss.median(), m.rss.max());
    std::printf("Hash 16384 + ucinewgame    %8.1f / %8.1f  (to readyok)\n", m.hash.median(),
                m.hash.max());
    if (m.failures) std::printf("FAILURES: %d responses missing\n", m.failures);
}

} // namespace

int uci_bench_main(int argc, const char* const* argv) {
    CommandLine cli("uci-bench",
                    "Measure a UCI engine's responsiveness from outside, as a GUI sees it.");
    // clang-format off
    cli.add()
        ("engine", "engine binary (default: this horizon)", cxxopts::value<std::string>(), "FILE")
        ("runs", "repetitions of each measurement", cxxopts::value<std::string>()->default_value("10"), "N")
        ("movetime", "movetime to check", cxxopts::value<std::string>()->default_value("500"), "MS")
        ("overhead", "Move Overhead to set", cxxopts::value<std::string>()->default_value("30"), "MS");
    // clang-format on
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    const std::string engine = text_flag(args, "engine").value_or(executable_path());
    int runs = 0, movetime = 0, overhead = 0;
    try {
        runs = int(whole_flag(args, "runs", 1, 10000));
        movetime = int(whole_flag(args, "movetime", 1, 3'600'000));
        overhead = int(whole_flag(args, "overhead", 0, 5000));
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    const std::vector<std::string> cmd{engine};
    Measurements m;
    try {
        for (int r = 0; r < runs; ++r)
            measure_run(cmd, movetime, overhead, m);
    } catch (const std::exception& ex) {
        std::cerr << "horizon uci-bench: " << ex.what() << "\n";
        return 2;
    }
    print_measurements(m, engine, runs, movetime, overhead);
    return m.failures ? 1 : 0;
}

} // namespace horizon
