#include "notation/epd.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>

#include "notation/san.hpp"

namespace horizon {

namespace {

constexpr int FEN_FIELDS = 4;
constexpr std::size_t MAX_CLOCK_DIGITS = 6;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool is_digits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_number(std::string_view s) { return s.size() <= MAX_CLOCK_DIGITS && is_digits(s); }

bool is_opcode(std::string_view s) {
    return !s.empty() && std::isalpha(static_cast<unsigned char>(s[0])) &&
           std::all_of(s.begin(), s.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
           });
}

// Reads the line's words and strings one at a time.
class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    void skip_blanks() {
        while (at_ < text_.size() && is_blank(text_[at_]))
            ++at_;
    }
    bool done() {
        skip_blanks();
        return at_ >= text_.size();
    }
    char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
    void advance() { ++at_; }
    std::size_t where() const { return at_; }
    void rewind(std::size_t to) { at_ = to; }

    // A run of characters up to a blank or a semicolon.
    std::string_view word() {
        skip_blanks();
        const std::size_t start = at_;
        while (at_ < text_.size() && !is_blank(text_[at_]) && text_[at_] != ';')
            ++at_;
        return text_.substr(start, at_ - start);
    }

    // A string in double quotes, at the opening quote; false when it never closes.
    bool quoted(std::string& out) {
        ++at_; // the opening quote
        while (at_ < text_.size()) {
            char c = text_[at_++];
            if (c == '"') return true;
            if (c == '\\' && at_ < text_.size() && (text_[at_] == '"' || text_[at_] == '\\'))
                c = text_[at_++];
            out += c;
        }
        return false;
    }

private:
    std::string_view text_;
    std::size_t at_ = 0;
};

// Reads the operands of `op` up to its semicolon (or the end of the line).
std::optional<std::string> read_operands(Scanner& in, EpdOperation& op) {
    for (;;) {
        in.skip_blanks();
        const char c = in.peek();
        if (c == ';') {
            in.advance();
            return std::nullopt;
        }
        if (c == '\0') return std::nullopt; // a last operation without its ';'
        std::string operand;
        if (c == '"') {
            if (!in.quoted(operand))
                return "operation '" + op.opcode + "' has a string that is never closed";
        } else {
            operand = std::string(in.word());
        }
        op.operands.push_back(std::move(operand));
    }
}

std::optional<std::string> clock_operand(const EpdOperations& r, std::string_view opcode,
                                         std::string& value) {
    const EpdOperation* op = r.find(opcode);
    if (!op) return std::nullopt;
    if (op->operands.size() != 1 || !is_number(op->operands[0]))
        return "operation '" + std::string(opcode) + "' needs one whole number";
    value = op->operands[0];
    return std::nullopt;
}

} // namespace

const EpdOperation* EpdOperations::find(std::string_view opcode) const {
    for (const EpdOperation& op : operations)
        if (op.opcode == opcode) return &op;
    return nullptr;
}

std::string EpdOperations::id() const {
    const EpdOperation* op = find("id");
    return op && !op->operands.empty() ? op->operands[0] : std::string();
}

std::optional<EpdLine> split_epd(std::string_view line, std::string& error) {
    Scanner in(line);
    std::string fields;
    for (int i = 0; i < FEN_FIELDS; ++i) {
        const std::string_view field = in.word();
        if (field.empty()) {
            error = "the position needs 4 fields (placement, side to move, castling, en passant), "
                    "got " +
                    std::to_string(i);
            return std::nullopt;
        }
        fields += std::string(field) + " ";
    }

    // Two numbers after the fields are the clocks of a six-field FEN.
    std::string halfmove = "0", fullmove = "1";
    const std::size_t after_fields = in.where();
    const std::string_view first = in.word();
    const std::string_view second = in.word();
    if (is_number(first) && is_number(second)) {
        halfmove = std::string(first);
        fullmove = std::string(second);
    } else {
        in.rewind(after_fields);
    }

    EpdLine epd;
    // A perft suite's ';' before its first operation.
    in.skip_blanks();
    if (in.peek() == ';') in.advance();
    while (!in.done()) {
        EpdOperation op;
        op.opcode = std::string(in.word());
        if (!is_opcode(op.opcode)) {
            error = op.opcode.empty() ? std::string("an empty operation (a ';' alone)")
                                      : "'" + op.opcode + "' is not an operation's name";
            return std::nullopt;
        }
        if (auto err = read_operands(in, op)) {
            error = *err;
            return std::nullopt;
        }
        epd.operations.push_back(std::move(op));
    }
    if (auto err = clock_operand(epd, "hmvc", halfmove)) {
        error = *err;
        return std::nullopt;
    }
    if (auto err = clock_operand(epd, "fmvn", fullmove)) {
        error = *err;
        return std::nullopt;
    }
    // Some suites write a move number of 0; a FEN's starts at 1.
    if (std::all_of(fullmove.begin(), fullmove.end(), [](char c) { return c == '0'; }))
        fullmove = "1";
    epd.fen = fields + halfmove + " " + fullmove;
    return epd;
}

std::optional<EpdRecord> parse_epd(std::string_view line, std::string& error, bool chess960) {
    auto epd = split_epd(line, error);
    if (!epd) return std::nullopt;
    EpdRecord record;
    if (auto err = record.pos.set_fen(epd->fen, chess960)) {
        error = "bad FEN: " + err->message;
        return std::nullopt;
    }
    record.operations = std::move(epd->operations);
    return record;
}

std::optional<std::vector<Move>> epd_moves(const Position& pos, const EpdOperation& op,
                                           std::string& error) {
    std::vector<Move> moves;
    for (const std::string& text : op.operands) {
        const ParsedMove m = parse_san(pos, text);
        if (!m) {
            error = op.opcode + " '" + text + "': " + m.error;
            return std::nullopt;
        }
        moves.push_back(m.move);
    }
    return moves;
}

namespace {

// The lines of an EPD file that are neither blank nor comments, each read by
// parse(number, text, error) into a T (nullopt and `error` set when the line is bad). Each
// problem goes to `errors` ("path:N: what"); nullopt when there is any.
template <class T, class Parse>
std::optional<std::vector<T>> read_epd_lines(const std::string& path,
                                             std::vector<std::string>& errors, Parse&& parse) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        errors.push_back("cannot open " + path);
        return std::nullopt;
    }
    std::vector<T> entries;
    bool all_read = true;
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        std::string error;
        if (std::optional<T> entry = parse(number, line, error)) {
            entries.push_back(std::move(*entry));
        } else {
            errors.push_back(path + ":" + std::to_string(number) + ": " + error);
            all_read = false;
        }
    }
    if (!all_read) return std::nullopt;
    return entries;
}

// The counts of a perft suite's line, from its operations D1, D2, ...
std::optional<std::string> perft_counts(const EpdOperations& epd,
                                        std::vector<std::uint64_t>& counts) {
    constexpr std::size_t MAX_COUNT_DIGITS = 19; // below 2^64
    for (const EpdOperation& op : epd.operations) {
        const std::string_view digits = std::string_view(op.opcode).substr(1);
        if (op.opcode.size() < 2 || op.opcode[0] != 'D' || !is_digits(digits) ||
            op.operands.size() != 1 || !is_digits(op.operands[0]) ||
            op.operands[0].size() > MAX_COUNT_DIGITS) {
            std::string field = op.opcode;
            for (const std::string& operand : op.operands)
                field += " " + operand;
            return "bad depth field '" + field + "'";
        }
        std::size_t depth = 0;
        const auto read = std::from_chars(digits.data(), digits.data() + digits.size(), depth);
        if (read.ec != std::errc() || depth != counts.size() + 1)
            return "depths must be D1, D2, ... in order, got '" + op.opcode + "'";
        std::uint64_t count = 0;
        const std::string& text = op.operands[0];
        std::from_chars(text.data(), text.data() + text.size(), count);
        counts.push_back(count);
    }
    if (counts.empty()) return "no depth counts";
    return std::nullopt;
}

} // namespace

std::optional<std::vector<EpdEntry>> read_epd_file(const std::string& path,
                                                   std::vector<std::string>& errors) {
    auto entries = read_epd_lines<EpdEntry>(
        path, errors,
        [](std::size_t number, const std::string& line,
           std::string& error) -> std::optional<EpdEntry> {
            auto record = parse_epd(line, error);
            if (!record) return std::nullopt;
            const std::string id = record->id();
            return EpdEntry{number, std::move(*record),
                            id.empty() ? "line " + std::to_string(number) : id};
        });
    if (entries && entries->empty()) {
        errors.push_back(path + " holds no positions");
        return std::nullopt;
    }
    return entries;
}

std::optional<EpdPerftEntry> parse_perft_epd_line(std::string_view line, std::string& error) {
    auto epd = split_epd(line, error);
    if (!epd) return std::nullopt;
    EpdPerftEntry entry;
    if (auto err = perft_counts(*epd, entry.counts)) {
        error = *err;
        return std::nullopt;
    }
    entry.fen = std::move(epd->fen);
    return entry;
}

std::optional<std::vector<EpdPerftEntry>> read_perft_suite(const std::string& path,
                                                           std::vector<std::string>& errors) {
    return read_epd_lines<EpdPerftEntry>(
        path, errors, [](std::size_t number, const std::string& line, std::string& error) {
            auto entry = parse_perft_epd_line(line, error);
            if (entry) entry->line = number;
            return entry;
        });
}

std::string epd_string_operand(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + '"';
}

} // namespace horizon
