#include "uci/uci.hpp"

#include <chrono>
#include <istream>
#include <ostream>
#include <sstream>
#include <vector>

#include "engine/config.hpp"
#include "movegen/perft.hpp"

namespace horizon {

namespace {

std::vector<std::string> tokens(const std::string& s) {
    std::istringstream ss(s);
    std::vector<std::string> out;
    for (std::string t; ss >> t;) out.push_back(t);
    return out;
}

} // namespace

UciLoop::UciLoop(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

void UciLoop::send(const std::string& line) { out_ << line << '\n' << std::flush; }

void UciLoop::run() {
    for (std::string line; std::getline(in_, line);)
        if (!handle(line)) return;
}

bool UciLoop::handle(const std::string& raw) {
    std::string line = raw;
    for (char& c : line)
        if (c == '\t' || c == '\r') c = ' ';
    std::istringstream ss(line);
    std::string cmd;
    ss >> cmd;
    std::string rest;
    std::getline(ss, rest);
    if (cmd.empty()) return true;
    if (cmd == "quit") return false;
    if (cmd == "uci") {
        send("id name " + engine_identity().name + " " + engine_identity().version);
        send("id author " + engine_identity().author);
        send("option name UCI_Chess960 type check default false");
        send("uciok");
    } else if (cmd == "isready") {
        send("readyok");
    } else if (cmd == "position") {
        cmd_position(rest);
    } else if (cmd == "go") {
        cmd_go(rest);
    } else if (cmd == "d") {
        std::istringstream board(pos_.pretty());
        for (std::string l; std::getline(board, l);) send(l);
    } else if (cmd == "setoption") {
        const auto t = tokens(rest);
        if (t.size() == 4 && t[0] == "name" && t[1] == "UCI_Chess960" && t[2] == "value")
            chess960_ = t[3] == "true", pos_.set_chess960(chess960_);
    } else if (cmd == "ucinewgame" || cmd == "stop") {
    } else {
        send("info string unknown command '" + cmd.substr(0, 64) + "'");
    }
    return true;
}

void UciLoop::cmd_position(const std::string& args) {
    const auto t = tokens(args);
    std::size_t i = 0;
    std::string fen;
    if (i < t.size() && t[i] == "startpos") {
        fen = std::string(Position::START_FEN);
        ++i;
    } else if (i < t.size() && t[i] == "fen") {
        for (++i; i < t.size() && t[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + t[i];
    } else {
        send("info string position needs 'startpos' or 'fen <FEN>'");
        return;
    }
    Position next;
    if (auto err = next.set_fen(fen, chess960_)) {
        send("info string bad FEN: " + err->message);
        return;
    }
    if (i < t.size() && t[i] == "moves") {
        for (++i; i < t.size(); ++i) {
            auto m = next.parse_uci_move(t[i]);
            if (!m) {
                send("info string illegal or malformed move '" + t[i].substr(0, 16) +
                     "'; position unchanged");
                return;
            }
            next.make_move(*m);
        }
    } else if (i < t.size()) {
        send("info string unexpected '" + t[i].substr(0, 16) + "' in position; position unchanged");
        return;
    }
    pos_ = std::move(next);
}

void UciLoop::cmd_go(const std::string& args) {
    const auto t = tokens(args);
    if (t.size() == 2 && t[0] == "perft") {
        int depth = 0;
        try {
            depth = std::stoi(t[1]);
        } catch (...) {
            depth = 0;
        }
        if (depth < 1 || depth > 20) {
            send("info string go perft needs a depth from 1 to 20");
            return;
        }
        const auto start = std::chrono::steady_clock::now();
        std::uint64_t total = 0;
        for (const auto& [m, n] : perft_divide(pos_, depth)) {
            send(pos_.move_to_uci(m) + ": " + std::to_string(n));
            total += n;
        }
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        send("");
        send("Nodes searched: " + std::to_string(total));
        send("info string perft time " + std::to_string(std::int64_t(secs * 1000)) + " ms, " +
             std::to_string(std::uint64_t(double(total) / std::max(secs, 1e-9))) + " nps");
        return;
    }
    send("info string only 'go perft N' is supported so far");
}

} // namespace horizon
