#include "notation/pgn.hpp"

#include <algorithm>

#include "notation/pgn_common.hpp"

namespace horizon {

bool is_pgn_result(std::string_view text) {
    return text == "1-0" || text == "0-1" || text == "1/2-1/2" || text == "*";
}

// ----------------------------------------------------------------------------- PgnError

std::string PgnError::message() const {
    std::string out = "game " + std::to_string(game);
    if (move_number == 0)
        out += ", in the tags";
    else
        out += ", move " + std::to_string(move_number) + (side == WHITE ? "." : "...");
    if (in_variation) out += " in a variation";
    out += " (line " + std::to_string(line) + "): ";
    if (!text.empty()) out += "'" + text + "': ";
    return out + reason;
}

// ----------------------------------------------------------------------------- PgnGame

std::string_view PgnGame::tag(std::string_view name) const {
    for (const PgnTag& t : tags)
        if (t.name == name) return t.value;
    return {};
}

bool PgnGame::has_tag(std::string_view name) const {
    return std::any_of(tags.begin(), tags.end(), [&](const PgnTag& t) { return t.name == name; });
}

void PgnGame::set_tag(std::string_view name, std::string_view value) {
    for (PgnTag& t : tags) {
        if (t.name == name) {
            t.value = value;
            return;
        }
    }
    tags.push_back(PgnTag{std::string(name), std::string(value)});
}

std::vector<Move> PgnGame::main_line() const {
    std::vector<Move> out;
    out.reserve(moves.moves.size());
    for (const PgnMove& m : moves.moves)
        out.push_back(m.move);
    return out;
}

Position PgnGame::end_position() const {
    Position pos = start;
    for (const PgnMove& m : moves.moves)
        play_pgn_move(pos, m.move);
    return pos;
}

// ----------------------------------------------------------------------------- commands

namespace {

// Where "[%name" starts in the comment, with the command's value bounds; npos when absent.
struct CommandPlace {
    std::size_t start = std::string_view::npos; // the '['
    std::size_t value_begin = 0, value_end = 0; // the value, trimmed
    std::size_t end = 0;                        // just after the ']'
};

CommandPlace find_command(std::string_view comment, std::string_view name) {
    const std::string key = "[%" + std::string(name);
    for (std::size_t at = comment.find(key); at != std::string_view::npos;
         at = comment.find(key, at + 1)) {
        const std::size_t after = at + key.size();
        if (after < comment.size() && comment[after] != ' ' && comment[after] != ']') continue;
        const std::size_t close = comment.find(']', after);
        if (close == std::string_view::npos) return {};
        CommandPlace p{at, after, close, close + 1};
        while (p.value_begin < p.value_end && comment[p.value_begin] == ' ')
            ++p.value_begin;
        while (p.value_end > p.value_begin && comment[p.value_end - 1] == ' ')
            --p.value_end;
        return p;
    }
    return {};
}

} // namespace

std::optional<std::string> pgn_command(std::string_view comment, std::string_view name) {
    const CommandPlace p = find_command(comment, name);
    if (p.start == std::string_view::npos) return std::nullopt;
    return std::string(comment.substr(p.value_begin, p.value_end - p.value_begin));
}

std::string set_pgn_command(std::string_view comment, std::string_view name,
                            std::string_view value) {
    const std::string command = "[%" + std::string(name) + " " + std::string(value) + "]";
    const CommandPlace p = find_command(comment, name);
    if (p.start != std::string_view::npos)
        return std::string(comment.substr(0, p.start)) + command +
               std::string(comment.substr(p.end));
    if (comment.empty()) return command;
    return std::string(comment) + " " + command;
}

} // namespace horizon
