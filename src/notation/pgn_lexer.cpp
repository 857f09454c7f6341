#include "notation/pgn_lexer.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <istream>

namespace horizon {

namespace {

constexpr std::size_t MAX_SYMBOL_LENGTH = 255;

bool is_alnum(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_symbol_char(int c) {
    return is_alnum(c) || c == '_' || c == '+' || c == '#' || c == '=' || c == ':' || c == '-' ||
           c == '/';
}
bool is_promotion_letter(int c) { return c > 0 && std::strchr("NBRQnbrq", c); }

std::string printable(int c) {
    if (c > ' ' && c < 127) return std::string(1, char(c));
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02X", unsigned(c) & 0xFF);
    return hex;
}

} // namespace

// ----------------------------------------------------------------------------- Input

PgnLexer::Input::Input(std::istream& in) : in_(in), buf_(BLOCK) {
    // A UTF-8 byte order mark is not part of the text.
    if (peek_at(0) == 0xEF && peek_at(1) == 0xBB && peek_at(2) == 0xBF) pos_ += 3;
}

bool PgnLexer::Input::skip_past(char c) {
    for (;;) {
        if (pos_ == end_ && !fill()) return false;
        const char* begin = buf_.data() + pos_;
        const char* end = buf_.data() + end_;
        const char* hit = static_cast<const char*>(std::memchr(begin, c, std::size_t(end - begin)));
        const char* stop = hit ? hit + 1 : end;
        line_ += std::size_t(std::count(begin, stop, '\n'));
        pos_ = std::size_t(stop - buf_.data());
        if (hit) {
            line_blank_ = c == '\n';
            return true;
        }
    }
}

bool PgnLexer::Input::fill() {
    if (eof_) return false;
    if (pos_ > 0) {
        std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
        end_ -= pos_;
        pos_ = 0;
    }
    in_.read(buf_.data() + end_, std::streamsize(buf_.size() - end_));
    const auto got = std::size_t(in_.gcount());
    if (got == 0) eof_ = true;
    end_ += got;
    return got > 0;
}

// ----------------------------------------------------------------------------- PgnLexer

PgnToken PgnLexer::next(bool keep_comments) {
    if (pushed_) {
        pushed_ = false;
        return pushed_token_;
    }
    for (;;) {
        const int c = src_.peek();
        if (c == END_OF_INPUT) return PgnToken{PgnTok::END, src_.line(), src_.line_blank()};
        if (is_pgn_space(c)) {
            src_.get();
        } else if (c == '%' && src_.line_blank()) {
            src_.skip_past('\n'); // an escape line: ignored
        } else {
            break;
        }
    }
    PgnToken t{PgnTok::BAD, src_.line(), src_.line_blank()};
    const int c = src_.get();
    text_.clear();
    error_ = nullptr;
    switch (c) {
    case '[':
        t.type = PgnTok::TAG_OPEN;
        break;
    case ']':
        t.type = PgnTok::TAG_CLOSE;
        break;
    case '(':
        t.type = PgnTok::VARIATION_OPEN;
        break;
    case ')':
        t.type = PgnTok::VARIATION_CLOSE;
        break;
    case '*':
        t.type = PgnTok::STAR;
        break;
    case '.':
        text_ += '.';
        while (src_.peek() == '.') {
            src_.get();
            if (text_.size() < 8) text_ += '.';
        }
        t.type = PgnTok::PERIOD;
        break;
    case '"':
        t.type = read_string();
        break;
    case '{':
        t.type = read_brace_comment(keep_comments);
        break;
    case ';':
        t.type = read_line_comment(keep_comments);
        break;
    case '$':
        while (src_.peek() >= '0' && src_.peek() <= '9' && text_.size() < 8)
            text_ += char(src_.get());
        t.type = text_.empty() ? bad("'$' without a number") : PgnTok::NAG;
        break;
    case '!':
    case '?':
        text_ += char(c);
        while ((src_.peek() == '!' || src_.peek() == '?') && text_.size() < 8)
            text_ += char(src_.get());
        t.type = PgnTok::SUFFIX;
        break;
    default:
        if (is_alnum(c) || (c == '-' && src_.peek() == '-')) { // "--": a null move
            read_symbol(c);
            t.type = PgnTok::SYMBOL;
        } else {
            text_ = printable(c);
            t.type = bad("unexpected character");
        }
    }
    return t;
}

// A tag value: up to the closing quote on the same line; \" and \\ are escapes.
PgnTok PgnLexer::read_string() {
    for (;;) {
        int c = src_.get();
        if (c == END_OF_INPUT || c == '\n') return bad("the tag value has no closing '\"'");
        if (c == '"') return PgnTok::STRING;
        if (c == '\\' && (src_.peek() == '"' || src_.peek() == '\\')) c = src_.get();
        text_ += char(c);
    }
}

// Adds a comment's character, each run of white space made one space, none at the ends.
void PgnLexer::comment_char(int c, bool& space) {
    if (is_pgn_space(c)) {
        space = !text_.empty();
        return;
    }
    if (space) text_ += ' ';
    space = false;
    text_ += char(c);
}

PgnTok PgnLexer::read_brace_comment(bool keep) {
    if (!keep) return src_.skip_past('}') ? PgnTok::COMMENT : bad("the comment has no closing '}'");
    bool space = false;
    for (;;) {
        const int c = src_.get();
        if (c == END_OF_INPUT) return bad("the comment has no closing '}'");
        if (c == '}') return PgnTok::COMMENT;
        comment_char(c, space);
    }
}

PgnTok PgnLexer::read_line_comment(bool keep) {
    if (!keep) {
        src_.skip_past('\n');
        return PgnTok::COMMENT;
    }
    bool space = false;
    for (int c = src_.get(); c != END_OF_INPUT && c != '\n'; c = src_.get())
        comment_char(c, space);
    return PgnTok::COMMENT;
}

void PgnLexer::read_symbol(int first) {
    text_ += char(first);
    while (is_symbol_char(src_.peek())) {
        const int c = src_.get();
        if (text_.size() < MAX_SYMBOL_LENGTH) text_ += char(c);
    }
    // "e8(Q)": a promotion piece in parentheses belongs to the move, not a variation.
    if (src_.peek() == '(' && is_promotion_letter(src_.peek_at(1)) && src_.peek_at(2) == ')')
        for (int i = 0; i < 3; ++i)
            text_ += char(src_.get());
}

} // namespace horizon
