#include "notation/epd.hpp"

#include <algorithm>
#include <cctype>

#include "notation/san.hpp"

namespace horizon {

namespace {

constexpr int FEN_FIELDS = 4;
constexpr std::size_t MAX_CLOCK_DIGITS = 6;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool is_number(std::string_view s) {
    return !s.empty() && s.size() <= MAX_CLOCK_DIGITS &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

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

std::optional<std::string> clock_operand(const EpdRecord& r, std::string_view opcode,
                                         std::string& value) {
    const EpdOperation* op = r.find(opcode);
    if (!op) return std::nullopt;
    if (op->operands.size() != 1 || !is_number(op->operands[0]))
        return "operation '" + std::string(opcode) + "' needs one whole number";
    value = op->operands[0];
    return std::nullopt;
}

} // namespace

const EpdOperation* EpdRecord::find(std::string_view opcode) const {
    for (const EpdOperation& op : operations)
        if (op.opcode == opcode) return &op;
    return nullptr;
}

std::string EpdRecord::id() const {
    const EpdOperation* op = find("id");
    return op && !op->operands.empty() ? op->operands[0] : std::string();
}

std::optional<EpdRecord> parse_epd(std::string_view line, std::string& error, bool chess960) {
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

    EpdRecord record;
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
        record.operations.push_back(std::move(op));
    }
    if (auto err = clock_operand(record, "hmvc", halfmove)) {
        error = *err;
        return std::nullopt;
    }
    if (auto err = clock_operand(record, "fmvn", fullmove)) {
        error = *err;
        return std::nullopt;
    }
    // Some suites write a move number of 0; a FEN's starts at 1.
    if (std::all_of(fullmove.begin(), fullmove.end(), [](char c) { return c == '0'; }))
        fullmove = "1";
    if (auto err = record.pos.set_fen(fields + halfmove + " " + fullmove, chess960)) {
        error = "bad FEN: " + err->message;
        return std::nullopt;
    }
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

} // namespace horizon
