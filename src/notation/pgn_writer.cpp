#include "notation/pgn_writer.hpp"

#include <algorithm>
#include <iterator>
#include <ostream>

#include "notation/pgn_common.hpp"
#include "notation/san.hpp"

namespace horizon {

namespace {

// Lays tokens out in lines of at most `max_line` characters (a token longer than that
// stands alone). "(" sticks to the token after it and ")" to the one before.
class MoveTextLayout {
public:
    MoveTextLayout(std::string& out, int max_line) : out_(out), max_line_(max_line) {}

    void token(std::string_view t) {
        flush();
        held_ = prefix_;
        held_ += t;
        prefix_.clear();
    }
    void open_variation() { prefix_ += '('; }
    void close_variation() { held_ += ')'; }
    void comment(std::string_view text) {
        // One token per word, so that a comment wraps like the moves around it.
        std::string word = "{";
        std::size_t i = 0;
        for (;;) {
            while (i < text.size() && is_pgn_space(text[i]))
                ++i;
            if (i == text.size()) break;
            for (; i < text.size() && !is_pgn_space(text[i]); ++i)
                word += text[i] == '}' ? ')' : text[i]; // a comment cannot hold '}'
            token(word);
            word.clear();
        }
        if (word == "{") token(word); // no words at all
        held_ += '}';
    }
    void finish() {
        flush();
        out_ += '\n';
    }

private:
    void flush() {
        if (held_.empty()) return;
        if (column_ > 0 && column_ + 1 + int(held_.size()) > max_line_) {
            out_ += '\n';
            column_ = 0;
        } else if (column_ > 0) {
            out_ += ' ';
            ++column_;
        }
        out_ += held_;
        column_ += int(held_.size());
        held_.clear();
    }

    std::string& out_;
    int max_line_;
    int column_ = 0;
    std::string held_;   // the last token, not yet laid out (a ')' may still join it)
    std::string prefix_; // '(' waiting for the next token
};

void write_line(MoveTextLayout& layout, Position pos, const PgnLine& line,
                const PgnWriteOptions& options) {
    bool number_black = true; // a Black move needs "N..." after a break in the moves
    for (const PgnMove& m : line.moves) {
        const bool null_move = m.move == Move::null();
        // Only a hand-built game can hold an illegal move.
        if (null_move ? pos.in_check() : !pos.is_legal(m.move)) break;
        if (options.comments && !m.comment_before.empty()) {
            layout.comment(m.comment_before);
            number_black = true;
        }
        if (pos.side_to_move() == WHITE)
            layout.token(std::to_string(pos.fullmove_number()) + ".");
        else if (number_black)
            layout.token(std::to_string(pos.fullmove_number()) + "...");
        std::string san = null_move ? std::string(PGN_NULL_MOVE) : move_to_san(pos, m.move);
        std::size_t first_nag = 0;
        if (options.nag_suffixes && !m.nags.empty() && !nag_to_suffix(m.nags[0]).empty()) {
            san += nag_to_suffix(m.nags[0]);
            first_nag = 1;
        }
        layout.token(san);
        for (std::size_t i = first_nag; i < m.nags.size(); ++i) {
            // (Appended, not "$" + ...: GCC 12 warns wrongly of overlapping copies there.)
            std::string nag = "$";
            nag += std::to_string(m.nags[i]);
            layout.token(nag);
        }
        number_black = false;
        if (options.comments && !m.comment_after.empty()) {
            layout.comment(m.comment_after);
            number_black = true;
        }
        if (options.variations) {
            for (const PgnLine& variation : m.variations) {
                if (variation.moves.empty() &&
                    (!options.comments || variation.trailing_comment.empty()))
                    continue;
                layout.open_variation();
                write_line(layout, pos, variation, options);
                layout.close_variation();
                number_black = true;
            }
        }
        play_pgn_move(pos, m.move);
    }
    if (options.comments && !line.trailing_comment.empty()) layout.comment(line.trailing_comment);
}

void write_tag(std::string& out, std::string_view name, std::string_view value) {
    out += '[';
    out += name;
    out += " \"";
    for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        out += c == '\n' || c == '\r' ? ' ' : c;
    }
    out += "\"]\n";
}

} // namespace

std::string to_pgn(const PgnGame& game, const PgnWriteOptions& options) {
    static constexpr std::string_view ROSTER[] = {"Event", "Site",  "Date",  "Round",
                                                  "White", "Black", "Result"};
    std::string out;
    if (options.comments && !game.comment_before_tags.empty()) {
        MoveTextLayout layout(out, options.max_line);
        layout.comment(game.comment_before_tags);
        layout.finish();
    }
    for (std::string_view name : ROSTER) {
        std::string_view value = game.tag(name);
        if (!game.has_tag(name) && name == "Date")
            value = "????.??.??";
        else if (!game.has_tag(name) && name == "Result")
            value = game.result;
        else if (!game.has_tag(name))
            value = "?";
        write_tag(out, name, value);
    }
    if (game.start.fen() != Position::START_FEN) {
        if (!game.has_tag("SetUp")) write_tag(out, "SetUp", "1");
        if (!game.has_tag("FEN")) write_tag(out, "FEN", game.start.fen());
    }
    if (game.start.is_chess960() && !game.has_tag("Variant")) write_tag(out, "Variant", "Chess960");
    for (const PgnTag& t : game.tags)
        if (std::find(std::begin(ROSTER), std::end(ROSTER), t.name) == std::end(ROSTER))
            write_tag(out, t.name, t.value);
    out += '\n';
    MoveTextLayout layout(out, options.max_line);
    write_line(layout, game.start, game.moves, options);
    layout.token(game.result);
    layout.finish();
    out += '\n';
    return out;
}

void write_pgn(std::ostream& out, const PgnGame& game, const PgnWriteOptions& options) {
    out << to_pgn(game, options);
}

} // namespace horizon
