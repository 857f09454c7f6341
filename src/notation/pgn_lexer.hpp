// The PGN lexer: the input read in large blocks, with a count of lines, split into tokens
// (tag brackets, strings, symbols, periods, NAGs, move suffixes, comments, variation
// parentheses). Not for use outside notation/pgn*: the reader (notation/pgn_reader) is what
// the rest of Horizon reads PGN with.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "notation/pgn_common.hpp"

namespace horizon {

enum class PgnTok {
    END,
    TAG_OPEN,
    TAG_CLOSE,
    STRING,
    SYMBOL,
    PERIOD,
    STAR,
    NAG,
    SUFFIX,
    COMMENT,
    VARIATION_OPEN,
    VARIATION_CLOSE,
    BAD
};

struct PgnToken {
    PgnTok type = PgnTok::END;
    std::size_t line = 0;
    bool line_start = false; // the first thing on its line
};

// Splits the input into PGN tokens. A token's text (symbol, string, comment, NAG digits,
// suffix) is text() until the next call; a BAD token says why in error(). Skips white space
// between tokens, a UTF-8 byte order mark at the start and "%" escape lines.
class PgnLexer {
public:
    explicit PgnLexer(std::istream& in) : src_(in) {}

    // The next token; comments are read into text() only when `keep_comments`.
    PgnToken next(bool keep_comments);
    // Gives `t` back: the next call returns it again (its text must not have changed).
    void push_back(const PgnToken& t) {
        pushed_ = true;
        pushed_token_ = t;
    }
    const std::string& text() const { return text_; }
    const char* error() const { return error_ ? error_ : "unreadable"; }

private:
    static constexpr int END_OF_INPUT = -1;

    // The input, read in large blocks, with a count of lines.
    class Input {
    public:
        explicit Input(std::istream& in);

        int peek() {
            return pos_ < end_ || fill() ? static_cast<unsigned char>(buf_[pos_]) : END_OF_INPUT;
        }
        // The character k places ahead, or END_OF_INPUT.
        int peek_at(std::size_t k) {
            while (end_ - pos_ <= k)
                if (!fill()) return END_OF_INPUT;
            return static_cast<unsigned char>(buf_[pos_ + k]);
        }
        int get() {
            const int c = peek();
            if (c == END_OF_INPUT) return c;
            ++pos_;
            if (c == '\n') {
                ++line_;
                line_blank_ = true;
            } else if (!is_pgn_space(c)) {
                line_blank_ = false;
            }
            return c;
        }
        // Moves to just after the next `c`; false when the input ends first.
        bool skip_past(char c);
        std::size_t line() const { return line_; }
        // True when only white space stands before the next character on its line.
        bool line_blank() const { return line_blank_; }

    private:
        static constexpr std::size_t BLOCK = 1 << 16;

        bool fill();

        std::istream& in_;
        std::vector<char> buf_;
        std::size_t pos_ = 0, end_ = 0;
        bool eof_ = false;
        std::size_t line_ = 1;
        bool line_blank_ = true;
    };

    PgnTok bad(const char* why) {
        error_ = why;
        return PgnTok::BAD;
    }
    PgnTok read_string();
    void comment_char(int c, bool& space);
    PgnTok read_brace_comment(bool keep);
    PgnTok read_line_comment(bool keep);
    void read_symbol(int first);

    Input src_;
    std::string text_;
    const char* error_ = nullptr;
    bool pushed_ = false;
    PgnToken pushed_token_;
};

} // namespace horizon
