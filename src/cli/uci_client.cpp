#include "cli/uci_client.hpp"

#include <sstream>
#include <stdexcept>

namespace horizon {

namespace {

using std::chrono::milliseconds;

constexpr milliseconds START_TIMEOUT{10000};
constexpr milliseconds READY_TIMEOUT{60000};
constexpr milliseconds MOVETIME_GRACE{10000};
constexpr milliseconds UNLIMITED_WAIT{3600 * 1000};

Score uci_mate_score(long moves) {
    // "mate 3": the side to move mates in 3 moves (5 plies); "mate -2": it is mated in 4 plies.
    if (moves > 0) return mate_in(int(2 * moves - 1));
    return mated_in(int(-2 * moves));
}

} // namespace

std::optional<UciInfo> parse_uci_info(const std::string& line) {
    std::istringstream in(line);
    std::string word;
    if (!(in >> word) || word != "info") return std::nullopt;
    UciInfo info;
    bool scored = false;
    while (in >> word) {
        if (word == "depth") {
            in >> info.depth;
        } else if (word == "multipv") {
            in >> info.multipv;
        } else if (word == "nodes") {
            in >> info.nodes;
        } else if (word == "time") {
            in >> info.time_ms;
        } else if (word == "score") {
            std::string kind;
            long value = 0;
            if (!(in >> kind >> value)) return std::nullopt;
            info.score = kind == "mate" ? uci_mate_score(value) : Score(value);
            scored = kind == "mate" || kind == "cp";
        } else if (word == "lowerbound") {
            info.bound = BOUND_LOWER;
        } else if (word == "upperbound") {
            info.bound = BOUND_UPPER;
        } else if (word == "pv") {
            while (in >> word)
                info.pv.push_back(word);
        } else if (word == "string") {
            return std::nullopt;
        }
    }
    if (!scored || info.pv.empty() || !in.eof()) return std::nullopt;
    return info;
}

UciClient::UciClient(const std::string& command) : command_(command) {
    process_ = std::make_unique<Subprocess>(std::vector<std::string>{command});
    process_->write("uci\n");
    while (auto line = process_->read_line(START_TIMEOUT)) {
        if (line->rfind("id name ", 0) == 0) name_ = line->substr(8);
        if (*line == "uciok") return;
    }
    throw std::runtime_error(command + " did not answer 'uci' with 'uciok'");
}

UciClient::~UciClient() { process_->write("quit\n"); }

void UciClient::set_option(const std::string& name, const std::string& value) {
    process_->write("setoption name " + name + " value " + value + "\n");
}

void UciClient::new_game() {
    process_->write("ucinewgame\nisready\n");
    if (!process_->wait_for("readyok", READY_TIMEOUT))
        throw std::runtime_error(command_ + " did not answer 'isready'");
}

std::string UciClient::search(const Position& pos, const SearchLimits& limits,
                              const std::function<void(const UciInfo&)>& on_info) {
    std::string go = "go";
    milliseconds wait = UNLIMITED_WAIT;
    if (limits.depth) go += " depth " + std::to_string(limits.depth);
    if (limits.nodes) go += " nodes " + std::to_string(limits.nodes);
    if (limits.movetime) {
        go += " movetime " + std::to_string(limits.movetime);
        wait = milliseconds(limits.movetime) + MOVETIME_GRACE;
    }
    process_->write("position fen " + pos.fen() + "\nisready\n");
    if (!process_->wait_for("readyok", READY_TIMEOUT))
        throw std::runtime_error(command_ + " did not answer 'isready'");
    process_->write(go + "\n");
    while (auto line = process_->read_line(wait)) {
        if (line->rfind("bestmove", 0) == 0) {
            std::istringstream in(*line);
            std::string word, move;
            in >> word >> move;
            return move;
        }
        if (auto info = parse_uci_info(*line)) on_info(*info);
    }
    throw std::runtime_error(command_ + " sent no bestmove");
}

} // namespace horizon
