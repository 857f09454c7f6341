#include "movegen/perft.hpp"

#include <chrono>
#include <fstream>
#include <ostream>
#include <sstream>

#include "movegen/movegen.hpp"

namespace horizon {

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return count_legal_moves(pos);
    MoveList list;
    generate<GenType::ALL>(pos, list);
    std::uint64_t nodes = 0;
    if (depth == 2) {
        for (Move m : list) {
            pos.make_move(m);
            nodes += count_legal_moves(pos);
            pos.unmake_move(m);
        }
        return nodes;
    }
    for (Move m : list) {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move(m);
    }
    return nodes;
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth) {
    std::vector<std::pair<Move, std::uint64_t>> out;
    MoveList list;
    generate<GenType::ALL>(pos, list);
    for (Move m : list) {
        pos.make_move(m);
        out.emplace_back(m, perft(pos, depth - 1));
        pos.unmake_move(m);
    }
    return out;
}

std::optional<EpdPerftEntry> parse_perft_epd_line(const std::string& line, std::string& error) {
    EpdPerftEntry entry;
    std::stringstream ss(line);
    std::string part;
    if (!std::getline(ss, part, ';')) {
        error = "empty line";
        return std::nullopt;
    }
    // Trim and complete a 4-field EPD position with clocks.
    const auto first = part.find_first_not_of(" \t");
    const auto last = part.find_last_not_of(" \t\r");
    if (first == std::string::npos) {
        error = "no FEN";
        return std::nullopt;
    }
    entry.fen = part.substr(first, last - first + 1);
    int fields = 0;
    std::stringstream fs(entry.fen);
    for (std::string f; fs >> f;) ++fields;
    if (fields == 4) entry.fen += " 0 1";

    while (std::getline(ss, part, ';')) {
        std::stringstream ps(part);
        std::string tag, count_text, extra;
        const auto digits = [](const std::string& s) {
            return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
        };
        // Exactly "Dn count": no sign, no junk, nothing after the count.
        if (!(ps >> tag >> count_text) || (ps >> extra) || tag.size() < 2 || tag[0] != 'D' ||
            !digits(tag.substr(1)) || !digits(count_text) || count_text.size() > 19) {
            error = "bad depth field '" + part + "'";
            return std::nullopt;
        }
        const std::uint64_t count = std::stoull(count_text);
        int depth = 0;
        try {
            depth = std::stoi(tag.substr(1));
        } catch (...) {
            depth = 0;
        }
        if (depth != int(entry.counts.size()) + 1) {
            error = "depths must be D1, D2, ... in order, got '" + tag + "'";
            return std::nullopt;
        }
        entry.counts.push_back(count);
    }
    if (entry.counts.empty()) {
        error = "no depth counts";
        return std::nullopt;
    }
    return entry;
}

SuiteResult run_perft_suite(const std::string& path, int max_depth, std::ostream& out,
                            std::ostream& progress, std::string& error) {
    SuiteResult result;
    std::ifstream in(path);
    if (!in) {
        error = "cannot open '" + path + "'";
        return result;
    }
    std::vector<EpdPerftEntry> entries;
    std::string line;
    for (int lineno = 1; std::getline(in, line); ++lineno) {
        if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
        std::string why;
        auto entry = parse_perft_epd_line(line, why);
        if (!entry) {
            error = path + ":" + std::to_string(lineno) + ": " + why;
            return result;
        }
        entries.push_back(std::move(*entry));
    }

    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const EpdPerftEntry& e = entries[i];
        Position pos;
        if (auto err = pos.set_fen(e.fen)) {
            out << "FAIL " << e.fen << ": bad FEN: " << err->message << "\n";
            ++result.failures;
            ++result.positions;
            continue;
        }
        const int depths = max_depth > 0 ? std::min<int>(max_depth, int(e.counts.size()))
                                         : int(e.counts.size());
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
        progress << "[" << (i + 1) << "/" << entries.size() << "] " << (ok ? "ok  " : "FAIL")
                 << " D1-D" << depths << " " << nodes << " nodes  " << e.fen << "\n";
    }
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace horizon
