#include "train/data_line.hpp"

#include <charconv>

namespace horizon {

namespace {

constexpr std::string_view SEPARATOR = " | ";
constexpr std::string_view GAME_END_PREFIX = "# game ";
constexpr const char* LINE_FORMAT = "expected '<FEN> | <score> | <result>'";

std::string_view trim(std::string_view s) {
    const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}

int field_count(std::string_view s) {
    int n = 0;
    bool in_field = false;
    for (char c : s) {
        const bool space = c == ' ' || c == '\t';
        if (!space && !in_field) ++n;
        in_field = !space;
    }
    return n;
}

// A field of a malformed line as its message shows it: control characters as \xNN, cut short
// after `limit` characters (a line of a megabyte must not make a message of one).
std::string shown(std::string_view text, std::size_t limit = 100) {
    static constexpr char HEX[] = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) {
            s += "\\x";
            s += HEX[c >> 4];
            s += HEX[c & 15];
        } else {
            s += char(c);
        }
    }
    if (text.size() > limit) s += "...";
    return s;
}

const char* result_text(int result_halves) {
    return result_halves == 2 ? "1.0" : result_halves == 1 ? "0.5" : "0.0";
}

std::optional<int> result_halves_of(std::string_view text) {
    if (text == "1.0" || text == "1") return 2;
    if (text == "0.5" || text == "1/2") return 1;
    if (text == "0.0" || text == "0") return 0;
    return std::nullopt;
}

} // namespace

void append_data_line(std::string& out, std::string_view fen, int score, int result_halves) {
    out += fen;
    out += SEPARATOR;
    out += std::to_string(score);
    out += SEPARATOR;
    out += result_text(result_halves);
    out += '\n';
}

void append_game_end(std::string& out, std::uint64_t game) {
    out += GAME_END_PREFIX;
    out += std::to_string(game);
    out += '\n';
}

std::string comment_line(std::string_view text) { return "# " + std::string(text); }

LineKind line_kind(std::string_view line) {
    if (trim(line).empty()) return LineKind::BLANK;
    line.remove_prefix(line.find_first_not_of(" \t"));
    if (line.front() != '#') return LineKind::POSITION;
    return line.starts_with(GAME_END_PREFIX) ? LineKind::GAME_END : LineKind::COMMENT;
}

std::optional<std::string> read_data_line(std::string_view line, DataLine& out) {
    const auto bar1 = line.find('|');
    const auto bar2 = bar1 == std::string_view::npos ? bar1 : line.find('|', bar1 + 1);
    if (bar2 == std::string_view::npos) return std::string(LINE_FORMAT);
    if (line.find('|', bar2 + 1) != std::string_view::npos)
        return std::string("more than three '|'-separated fields; ") + LINE_FORMAT;
    const std::string_view fen = trim(line.substr(0, bar1));
    const std::string_view score_text = trim(line.substr(bar1 + 1, bar2 - bar1 - 1));
    const std::string_view result_text = trim(line.substr(bar2 + 1));

    long long value = 0;
    const char* first = score_text.data();
    const char* last = first + score_text.size();
    // An optional '+' then what from_chars reads: an optional '-' and digits ("+-5" is not).
    if (!score_text.empty() && *first == '+') ++first;
    const bool signed_twice = first != score_text.data() && first != last && *first == '-';
    const auto [end, ec] = std::from_chars(first, last, value);
    const bool overflow = ec == std::errc::result_out_of_range;
    if (score_text.empty() || signed_twice || (ec != std::errc() && !overflow) || end != last)
        return "score '" + shown(score_text) + "' is not an integer (centipawns)";
    if (overflow || value < -DATA_SCORE_LIMIT || value > DATA_SCORE_LIMIT)
        return "score " + shown(score_text) + " is outside -" + std::to_string(DATA_SCORE_LIMIT) +
               ".." + std::to_string(DATA_SCORE_LIMIT);

    const auto result = result_halves_of(result_text);
    if (!result) return "result '" + shown(result_text) + "' is not 1.0, 0.5 or 0.0";

    std::string full(fen);
    if (field_count(fen) == 4) full += " 0 1";
    // The FEN reader's message may quote a field of it: shown the same way.
    if (auto err = out.pos.set_fen(full))
        return "bad FEN '" + shown(fen) + "': " + shown(err->message, 300);
    out.score = int(value);
    out.result_halves = *result;
    return std::nullopt;
}

std::optional<std::string> read_game_end(std::string_view line, std::uint64_t& game) {
    const std::string_view text = trim(line);
    const auto malformed = [&] { return "malformed game line '" + shown(line) + "'"; };
    if (!text.starts_with(GAME_END_PREFIX)) return malformed();
    const std::string_view number = text.substr(GAME_END_PREFIX.size());
    const char* last = number.data() + number.size();
    const auto [end, ec] = std::from_chars(number.data(), last, game);
    if (number.empty() || ec != std::errc() || end != last) return malformed();
    return std::nullopt;
}

} // namespace horizon
