// Helpers shared by the test files: positions from FEN, a reference attack test built only
// on the board array and the slow ray walkers, and a brute-force mate checker that does not
// use the search.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <unistd.h>

#include "core/position.hpp"
#include "movegen/movegen.hpp"
#include "notation/epd.hpp"
#include "platform/subprocess.hpp"

namespace horizon::test {

inline Position position_from(const std::string& fen, bool chess960 = false) {
    Position pos;
    const auto err = pos.set_fen(fen, chess960);
    INFO("FEN: " << fen << "  error: " << (err ? err->message : std::string()));
    REQUIRE_FALSE(err.has_value());
    return pos;
}

// Pieces of colour `by` (among those on `occ`) that attack `s`, from the board array and the
// reference sliders only.
inline Bitboard reference_attackers(const Position& pos, Square s, Color by, Bitboard occ) {
    Bitboard result = 0;
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Square from = Square(i);
        const Piece p = pos.piece_on(from);
        if (p == NO_PIECE || color_of(p) != by || !(occ & square_bb(from))) continue;
        Bitboard att = 0;
        switch (type_of(p)) {
        case PAWN:
            att = pawn_attacks(by, from);
            break;
        case KNIGHT:
            att = knight_attacks(from);
            break;
        case BISHOP:
            att = slow_bishop_attacks(from, occ);
            break;
        case ROOK:
            att = slow_rook_attacks(from, occ);
            break;
        case QUEEN:
            att = slow_bishop_attacks(from, occ) | slow_rook_attacks(from, occ);
            break;
        case KING:
            att = king_attacks(from);
            break;
        default:
            break;
        }
        if (att & square_bb(s)) result |= square_bb(from);
    }
    return result;
}

// Collects failures of a sweep: how many, and the first one to show.
struct Failures {
    int count = 0;
    std::string first;
    void add(const std::string& what) {
        if (count++ == 0) first = what;
    }
};

// The whole content of a file (the test fails when it cannot be read).
inline std::string read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    INFO("reading " << path);
    REQUIRE(in.good());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The folder of the Syzygy tables the tests read: tests/data/syzygy, the files of the 3- and
// 4-piece set that the tests' positions need (or wherever the CMake variable HORIZON_SYZYGY_DIR
// names). A test fails at once, naming the folder, when it is not there.
inline std::string tables_folder() {
    const std::string folder = HORIZON_SYZYGY_DIR;
    INFO("the 3- and 4-piece Syzygy tables are not in " << folder
                                                        << " (cmake -DHORIZON_SYZYGY_DIR=FOLDER)");
    REQUIRE(std::filesystem::is_directory(folder));
    return folder;
}

// The words of a line (an engine's output line, an option's declaration), split at blanks.
inline std::vector<std::string> tokens(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string t; in >> t;)
        out.push_back(t);
    return out;
}

// The FENs of a perft suite in perft/.
inline std::vector<std::string> perft_suite_fens(const std::string& file) {
    const std::string path = std::string(HORIZON_SOURCE_DIR) + "/perft/" + file;
    std::vector<std::string> errors;
    const auto entries = read_perft_suite(path, errors);
    INFO("reading " << path << ": " << (errors.empty() ? "" : errors[0]));
    REQUIRE(entries.has_value());
    std::vector<std::string> out;
    for (const auto& entry : *entries)
        out.push_back(entry.fen);
    return out;
}

// Calls visit(fen, chess960, suite) for the positions of the perft suites: standard.epd,
// cpw.epd, chess960-tricky.epd, and every `chess960_step`-th position of chess960.epd.
template <class Visit> void for_each_perft_position(std::size_t chess960_step, Visit&& visit) {
    for (const char* suite : {"standard.epd", "cpw.epd", "chess960-tricky.epd", "chess960.epd"}) {
        const bool chess960 = std::string(suite).rfind("chess960", 0) == 0;
        const auto fens = perft_suite_fens(suite);
        const std::size_t step = std::string(suite) == "chess960.epd" ? chess960_step : 1;
        for (std::size_t i = 0; i < fens.size(); i += step)
            visit(fens[i], chess960, suite);
    }
}

inline bool has_legal_move(const Position& pos) {
    MoveList list;
    generate<GenType::ALL>(pos, list);
    return !list.empty();
}

inline bool is_checkmate(const Position& pos) { return pos.in_check() && !has_legal_move(pos); }

inline bool mates_in_one(Position& pos) {
    MoveList list;
    generate<GenType::ALL>(pos, list);
    for (Move m : list) {
        pos.make_move(m);
        const bool mate = is_checkmate(pos);
        pos.unmake_move(m);
        if (mate) return true;
    }
    return false;
}

// After `first`, every reply allows a mate in one (or `first` mates at once).
inline bool forces_mate_in_two(Position pos, Move first) {
    pos.make_move(first);
    if (is_checkmate(pos)) return true;
    MoveList replies;
    generate<GenType::ALL>(pos, replies);
    if (replies.empty()) return false; // stalemate
    for (Move r : replies) {
        pos.make_move(r);
        const bool mate = mates_in_one(pos);
        pos.unmake_move(r);
        if (!mate) return false;
    }
    return true;
}

// A folder of its own under the system's temporary folder, removed with everything in it when
// the object goes (ctest runs test cases in parallel processes, so the name holds the pid).
class TempDir {
public:
    TempDir() {
        static std::atomic<int> serial{0};
        path_ = std::filesystem::temp_directory_path() /
                ("horizon-test-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    // Writes `text` to the file `name` in the folder; returns its full path.
    std::string write(const std::string& name, const std::string& text) const {
        const std::string file = (path_ / name).string();
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out << text;
        out.close();
        REQUIRE(out.good());
        return file;
    }
    std::string path(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

struct ShellRun {
    std::string output; // stdout and stderr, or stdout alone
    std::optional<int> status;
};

// Runs the engine binary with `args` (no input), as a shell would. The output is stdout with
// stderr joined in, or (stderr_too false) stdout alone.
inline ShellRun run_horizon(const std::string& args, bool stderr_too = true) {
    using namespace std::chrono_literals;
    const char* redirect = stderr_too ? " 2>&1" : " 2>/dev/null";
    Subprocess p({"/bin/sh", "-c", std::string("'") + HORIZON_BINARY + "' " + args + redirect});
    p.close_stdin();
    ShellRun r;
    while (auto line = p.read_line(60s))
        r.output += *line + "\n";
    r.status = p.wait(10s);
    return r;
}

// Runs a subcommand's entry point in-process with `args` as its argv (args[0] its name).
template <class Main> int run_main(Main main_fn, const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    for (const auto& a : args)
        argv.push_back(a.c_str());
    return main_fn(int(argv.size()), argv.data());
}

} // namespace horizon::test
