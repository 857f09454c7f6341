#include "notation/pgn.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <istream>
#include <ostream>
#include <sstream>

#include "notation/san.hpp"

namespace horizon {

namespace {

constexpr int END_OF_INPUT = -1;
constexpr int MAX_VARIATION_DEPTH = 100;
constexpr std::size_t MAX_SYMBOL_LENGTH = 255;
constexpr std::string_view NULL_MOVE = "--"; // in the move text: a null move (no move played)

bool is_space(int c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_alnum(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_symbol_char(int c) {
    return is_alnum(c) || c == '_' || c == '+' || c == '#' || c == '=' || c == ':' || c == '-' ||
           c == '/';
}
bool is_promotion_letter(int c) { return c > 0 && std::strchr("NBRQnbrq", c); }
bool is_move_number(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Appends `text` to a comment, one space between the parts.
void append_comment(std::string& to, std::string_view text) {
    if (text.empty()) return;
    if (!to.empty()) to += ' ';
    to += text;
}

// A move of a PGN line, the null move ("--") included.
void play(Position& pos, Move m) {
    if (m == Move::null())
        pos.make_null_move();
    else
        pos.make_move(m);
}
void take_back(Position& pos, Move m) {
    if (m == Move::null())
        pos.unmake_null_move();
    else
        pos.unmake_move(m);
}

// The input, read in large blocks, with a count of lines.
class Source {
public:
    explicit Source(std::istream& in) : in_(in), buf_(BLOCK) {
        // A UTF-8 byte order mark is not part of the text.
        if (peek_at(0) == 0xEF && peek_at(1) == 0xBB && peek_at(2) == 0xBF) pos_ += 3;
    }

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
        } else if (!is_space(c)) {
            line_blank_ = false;
        }
        return c;
    }
    // Moves to just after the next `c`; false when the input ends first.
    bool skip_past(char c) {
        for (;;) {
            if (pos_ == end_ && !fill()) return false;
            const char* begin = buf_.data() + pos_;
            const char* end = buf_.data() + end_;
            const char* hit =
                static_cast<const char*>(std::memchr(begin, c, std::size_t(end - begin)));
            const char* stop = hit ? hit + 1 : end;
            line_ += std::size_t(std::count(begin, stop, '\n'));
            pos_ = std::size_t(stop - buf_.data());
            if (hit) {
                line_blank_ = c == '\n';
                return true;
            }
        }
    }
    std::size_t line() const { return line_; }
    // True when only white space stands before the next character on its line.
    bool line_blank() const { return line_blank_; }

private:
    static constexpr std::size_t BLOCK = 1 << 16;

    bool fill() {
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

    std::istream& in_;
    std::vector<char> buf_;
    std::size_t pos_ = 0, end_ = 0;
    bool eof_ = false;
    std::size_t line_ = 1;
    bool line_blank_ = true;
};

// The full-move number a move-number symbol gives; -1 when it is too large to be one.
long long move_number_value(std::string_view s) {
    long long value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && end == s.data() + s.size() ? value : -1;
}

enum class Tok {
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

struct Token {
    Tok type = Tok::END;
    std::size_t line = 0;
    bool line_start = false; // the first thing on its line
};

// Splits the input into PGN tokens. A token's text (symbol, string, comment, NAG digits,
// suffix) is text() until the next call; a BAD token says why in error().
class Lexer {
public:
    explicit Lexer(std::istream& in) : src_(in) {}

    // The next token; comments are read into text() only when `keep_comments`.
    Token next(bool keep_comments) {
        if (pushed_) {
            pushed_ = false;
            return pushed_token_;
        }
        for (;;) {
            const int c = src_.peek();
            if (c == END_OF_INPUT) return Token{Tok::END, src_.line(), src_.line_blank()};
            if (is_space(c)) {
                src_.get();
            } else if (c == '%' && src_.line_blank()) {
                src_.skip_past('\n'); // an escape line: ignored
            } else {
                break;
            }
        }
        Token t{Tok::BAD, src_.line(), src_.line_blank()};
        const int c = src_.get();
        text_.clear();
        error_ = nullptr;
        switch (c) {
        case '[':
            t.type = Tok::TAG_OPEN;
            break;
        case ']':
            t.type = Tok::TAG_CLOSE;
            break;
        case '(':
            t.type = Tok::VARIATION_OPEN;
            break;
        case ')':
            t.type = Tok::VARIATION_CLOSE;
            break;
        case '*':
            t.type = Tok::STAR;
            break;
        case '.':
            text_ += '.';
            while (src_.peek() == '.') {
                src_.get();
                if (text_.size() < 8) text_ += '.';
            }
            t.type = Tok::PERIOD;
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
            t.type = text_.empty() ? bad("'$' without a number") : Tok::NAG;
            break;
        case '!':
        case '?':
            text_ += char(c);
            while ((src_.peek() == '!' || src_.peek() == '?') && text_.size() < 8)
                text_ += char(src_.get());
            t.type = Tok::SUFFIX;
            break;
        default:
            if (is_alnum(c) || (c == '-' && src_.peek() == '-')) { // "--": a null move
                read_symbol(c);
                t.type = Tok::SYMBOL;
            } else {
                text_ = printable(c);
                t.type = bad("unexpected character");
            }
        }
        return t;
    }
    // Gives `t` back: the next call returns it again (its text must not have changed).
    void push_back(const Token& t) {
        pushed_ = true;
        pushed_token_ = t;
    }
    const std::string& text() const { return text_; }
    const char* error() const { return error_ ? error_ : "unreadable"; }

private:
    Tok bad(const char* why) {
        error_ = why;
        return Tok::BAD;
    }

    static std::string printable(int c) {
        if (c > ' ' && c < 127) return std::string(1, char(c));
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02X", unsigned(c) & 0xFF);
        return hex;
    }

    // A tag value: up to the closing quote on the same line; \" and \\ are escapes.
    Tok read_string() {
        for (;;) {
            int c = src_.get();
            if (c == END_OF_INPUT || c == '\n') return bad("the tag value has no closing '\"'");
            if (c == '"') return Tok::STRING;
            if (c == '\\' && (src_.peek() == '"' || src_.peek() == '\\')) c = src_.get();
            text_ += char(c);
        }
    }

    // Adds a comment's character, each run of white space made one space, none at the ends.
    void comment_char(int c, bool& space) {
        if (is_space(c)) {
            space = !text_.empty();
            return;
        }
        if (space) text_ += ' ';
        space = false;
        text_ += char(c);
    }

    Tok read_brace_comment(bool keep) {
        if (!keep)
            return src_.skip_past('}') ? Tok::COMMENT : bad("the comment has no closing '}'");
        bool space = false;
        for (;;) {
            const int c = src_.get();
            if (c == END_OF_INPUT) return bad("the comment has no closing '}'");
            if (c == '}') return Tok::COMMENT;
            comment_char(c, space);
        }
    }

    Tok read_line_comment(bool keep) {
        if (!keep) {
            src_.skip_past('\n');
            return Tok::COMMENT;
        }
        bool space = false;
        for (int c = src_.get(); c != END_OF_INPUT && c != '\n'; c = src_.get())
            comment_char(c, space);
        return Tok::COMMENT;
    }

    void read_symbol(int first) {
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

    Source src_;
    std::string text_;
    const char* error_ = nullptr;
    bool pushed_ = false;
    Token pushed_token_;
};

// Variant tag values: Chess960 under its names, and standard chess.
enum class Variant { STANDARD, CHESS960, UNKNOWN };

Variant variant_from_tag(std::string_view value) {
    std::string key;
    for (char c : value)
        if (c != ' ' && c != '-' && c != '_') key += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    for (std::string_view name :
         {"chess960", "960", "fischerandom", "fischerrandom", "fischerrandomchess", "frc"})
        if (key == name) return Variant::CHESS960;
    for (std::string_view name : {"", "standard", "normal", "chess", "classical", "fromposition"})
        if (key == name) return Variant::STANDARD;
    return Variant::UNKNOWN;
}

} // namespace

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
        play(pos, m.move);
    return pos;
}

// ----------------------------------------------------------------------------- PgnReader

class PgnReader::Impl {
public:
    Impl(std::istream& in, PgnReadOptions options) : lex_(in), options_(options) {}

    bool next(PgnGame& game);
    std::size_t games() const { return games_; }

private:
    PgnError problem(const Token& t, std::string_view text, std::string reason, int depth) const;
    bool fail(const Token& t, std::string_view text, std::string reason, int depth = 0);
    bool read_tags(bool& ended, std::string& comment);
    bool set_up_start();
    bool read_line(PgnLine& line, int depth, std::string pending_comment = {});
    void check_move_number(const Token& t, std::string number, int depth);
    bool attach_nag(PgnLine& line, const Token& t, int nag, int depth);
    bool skip_variation(const Token& open);
    void skip_rest_of_game();

    Lexer lex_;
    PgnReadOptions options_;
    Position standard_; // the standard start position, copied into each game without a FEN
    Position pos_;      // the position reached while reading moves
    PgnGame* game_ = nullptr;
    std::size_t games_ = 0;
    bool in_moves_ = false;
    int error_depth_ = 0; // variations open where the game's error was found
    std::size_t variant_line_ = 0, fen_line_ = 0; // where those tags stand
    std::optional<PgnTag> carried_tag_;           // a tag that began the next game
    std::string carried_comment_;                 // comments read before that tag
    // Move numbers of this game that do not fit the position: the first one is a warning
    // (warnings[number_warning_]), the others are counted into it when the game ends.
    std::size_t number_mismatches_ = 0, number_warning_ = 0;
};

bool PgnReader::Impl::next(PgnGame& game) {
    game_ = &game;
    game.tags.clear();
    game.moves.moves.clear();
    game.moves.trailing_comment.clear();
    game.comment_before_tags.clear();
    game.result = "*";
    game.error.reset();
    game.warnings.clear();
    in_moves_ = false;
    number_mismatches_ = 0;
    pos_ = standard_;
    // Comments read before the game's first tag (or, with no tags, before its first move).
    // Comments alone are no game: those after the last game belong to none and are skipped.
    std::string comment;
    if (carried_tag_) {
        comment.swap(carried_comment_);
    } else {
        Token first = lex_.next(options_.comments);
        for (; first.type == Tok::COMMENT; first = lex_.next(options_.comments))
            append_comment(comment, lex_.text());
        if (first.type == Tok::END) return false;
        lex_.push_back(first);
    }
    ++games_;
    bool ended = false;
    if (!read_tags(ended, comment) || !set_up_start()) {
        skip_rest_of_game();
        return true;
    }
    if (ended) return true;
    in_moves_ = true;
    pos_ = game.start;
    const std::string_view tag_result = game.tag("Result");
    if (is_pgn_result(tag_result)) game.result = tag_result; // unless the move text says
    if (!read_line(game.moves, 0, std::move(comment))) skip_rest_of_game();
    if (number_mismatches_ > 1)
        game.warnings[number_warning_].reason +=
            " (and " + std::to_string(number_mismatches_ - 1) +
            (number_mismatches_ > 2 ? " more move numbers of this game that do not fit)"
                                    : " more move number of this game that does not fit)");
    return true;
}

PgnError PgnReader::Impl::problem(const Token& t, std::string_view text, std::string reason,
                                  int depth) const {
    PgnError e;
    e.game = games_;
    e.line = t.line;
    e.move_number = in_moves_ ? pos_.fullmove_number() : 0;
    e.side = pos_.side_to_move();
    e.in_variation = depth > 0;
    e.text = text;
    e.reason = std::move(reason);
    return e;
}

bool PgnReader::Impl::fail(const Token& t, std::string_view text, std::string reason, int depth) {
    if (game_->error) return false;
    game_->error = problem(t, text, std::move(reason), depth);
    error_depth_ = depth;
    return false;
}

// A move number ("12", "12.", "12...": its periods are read here) must be the full-move
// number of the position the next move is played in, and "..." must stand before a black
// move. A number that does not fit is a warning (the first of the game; the others are
// counted); the moves decide.
void PgnReader::Impl::check_move_number(const Token& t, std::string number, int depth) {
    std::string text = number;
    const Token after = lex_.next(options_.comments);
    if (after.type == Tok::PERIOD)
        text += lex_.text();
    else
        lex_.push_back(after);
    const bool black_mark = text.size() - number.size() >= 2;
    const int expected = pos_.fullmove_number();
    const Color side = pos_.side_to_move();
    std::string reason;
    if (move_number_value(number) != expected)
        reason = "the move number does not fit the position: this is move " +
                 std::to_string(expected) + ", " + (side == WHITE ? "white" : "black") + " to move";
    else if (black_mark && side == WHITE)
        reason = "'...' stands before a black move, but white is to move";
    if (reason.empty()) return;
    if (number_mismatches_++ > 0) return;
    number_warning_ = game_->warnings.size();
    game_->warnings.push_back(problem(t, text, std::move(reason), depth));
}

// Reads the tags. `comment` holds the comments read so far and not yet placed: those before
// a tag go before the tags (comment_before_tags); those after the last tag are left in
// `comment`, for the move text.
bool PgnReader::Impl::read_tags(bool& ended, std::string& comment) {
    PgnGame& g = *game_;
    if (carried_tag_) {
        g.tags.push_back(std::move(*carried_tag_));
        carried_tag_.reset();
        append_comment(g.comment_before_tags, comment);
        comment.clear();
    }
    for (;;) {
        const Token open = lex_.next(options_.comments);
        if (open.type == Tok::COMMENT) {
            append_comment(comment, lex_.text());
            continue;
        }
        if (open.type != Tok::TAG_OPEN) {
            lex_.push_back(open);
            return true;
        }
        const Token name = lex_.next(false);
        if (name.type != Tok::SYMBOL)
            return fail(name, lex_.text(), "a tag needs a name after '['");
        std::string tag_name = lex_.text();
        const Token value = lex_.next(false);
        if (value.type != Tok::STRING)
            return fail(value, tag_name,
                        value.type == Tok::BAD ? lex_.error() : "the tag needs a value in quotes");
        std::string tag_value = lex_.text();
        const Token close = lex_.next(false);
        if (close.type != Tok::TAG_CLOSE)
            return fail(close, tag_name, "the tag needs a closing ']'");
        if (g.has_tag(tag_name)) {
            // A tag named twice: the game had no move text (not even a result) and this
            // tag begins the next one.
            carried_tag_ = PgnTag{std::move(tag_name), std::move(tag_value)};
            carried_comment_.swap(comment);
            comment.clear();
            ended = true;
            return true;
        }
        append_comment(g.comment_before_tags, comment);
        comment.clear();
        if (tag_name == "Variant") variant_line_ = open.line;
        if (tag_name == "FEN") fen_line_ = open.line;
        g.tags.push_back(PgnTag{std::move(tag_name), std::move(tag_value)});
    }
}

bool PgnReader::Impl::set_up_start() {
    PgnGame& g = *game_;
    g.start = standard_;
    const std::string_view variant = g.tag("Variant");
    const Variant v = variant_from_tag(variant);
    if (v == Variant::UNKNOWN)
        return fail(Token{Tok::END, variant_line_, true}, variant,
                    "unsupported variant (only standard chess and Chess960)");
    const bool chess960 = v == Variant::CHESS960;
    const std::string_view fen = g.tag("FEN");
    if (fen.empty()) {
        g.start.set_chess960(chess960);
        return true;
    }
    // A FEN of four or five fields (no move counters) reads as set_fen reads it everywhere.
    const auto err = g.start.set_fen(fen, chess960);
    if (err) return fail(Token{Tok::END, fen_line_, true}, fen, "bad FEN tag: " + err->message);
    return true;
}

bool PgnReader::Impl::attach_nag(PgnLine& line, const Token& t, int nag, int depth) {
    if (line.moves.empty()) return fail(t, lex_.text(), "an annotation must follow a move", depth);
    line.moves.back().nags.push_back(std::uint8_t(nag));
    return true;
}

// Reads moves into `line` from pos_ up to the end of the variation (depth > 0; pos_ is then
// as it was) or of the game (depth 0; pos_ is then the final position).
// `pending_comment` is for the line's first move.
bool PgnReader::Impl::read_line(PgnLine& line, int depth, std::string pending_comment) {
    bool after_variation = false;
    for (;;) {
        const Token t = lex_.next(options_.comments);
        switch (t.type) {
        case Tok::SYMBOL: {
            const std::string& text = lex_.text();
            if (is_move_number(text)) {
                check_move_number(t, text, depth);
                break;
            }
            if (is_pgn_result(text)) {
                if (depth > 0) break; // a result inside a variation says nothing
                game_->result = text;
                append_comment(line.trailing_comment, pending_comment);
                return true;
            }
            ParsedMove parsed =
                text == NULL_MOVE ? ParsedMove{Move::null(), {}} : parse_san(pos_, text);
            if (parsed && parsed.move == Move::null() && pos_.in_check())
                return fail(t, text, "a null move while in check", depth);
            if (!parsed) return fail(t, text, std::move(parsed.error), depth);
            PgnMove& node = line.moves.emplace_back();
            node.move = parsed.move;
            if (!pending_comment.empty()) node.comment_before.swap(pending_comment);
            play(pos_, parsed.move);
            after_variation = false;
            break;
        }
        case Tok::PERIOD:
            break;
        case Tok::STAR:
            if (depth > 0) break;
            game_->result = "*";
            append_comment(line.trailing_comment, pending_comment);
            return true;
        case Tok::NAG: {
            const int nag = std::stoi(lex_.text());
            if (nag > 255) return fail(t, "$" + lex_.text(), "a NAG is at most $255", depth);
            if (!attach_nag(line, t, nag, depth)) return false;
            break;
        }
        case Tok::SUFFIX: {
            const int nag = suffix_to_nag(lex_.text());
            if (nag == 0) return fail(t, lex_.text(), "unknown move annotation", depth);
            if (!attach_nag(line, t, nag, depth)) return false;
            break;
        }
        case Tok::COMMENT:
            if (!options_.comments) break;
            if (line.moves.empty() || after_variation)
                append_comment(pending_comment, lex_.text());
            else
                append_comment(line.moves.back().comment_after, lex_.text());
            break;
        case Tok::VARIATION_OPEN: {
            // A '(' refused is open all the same: the rest of the game is skipped inside it.
            if (line.moves.empty()) {
                fail(t, "(", "a variation must follow a move", depth);
                error_depth_ = depth + 1;
                return false;
            }
            if (!options_.variations) {
                if (!skip_variation(t)) return false;
                break;
            }
            if (depth + 1 > MAX_VARIATION_DEPTH) {
                fail(t, "(", "variations nested too deep", depth);
                error_depth_ = depth + 1;
                return false;
            }
            const Move last = line.moves.back().move;
            take_back(pos_, last);
            auto& variations = line.moves.back().variations;
            if (!read_line(variations.emplace_back(), depth + 1)) return false;
            play(pos_, last);
            // An empty variation, "()", says nothing: the writer leaves it out, and so does the
            // reader (a comment after it then belongs to the move before it, as without it).
            if (variations.back().moves.empty() && variations.back().trailing_comment.empty())
                variations.pop_back();
            else
                after_variation = true;
            break;
        }
        case Tok::VARIATION_CLOSE:
            if (depth == 0) return fail(t, ")", "')' without a '(' before it", depth);
            append_comment(line.trailing_comment, pending_comment);
            for (auto it = line.moves.rbegin(); it != line.moves.rend(); ++it)
                take_back(pos_, it->move);
            return true;
        case Tok::TAG_OPEN:
            lex_.push_back(t); // the next game's tags: this one has no result
            if (depth > 0) return fail(t, "[", "the game ends inside a variation", depth);
            append_comment(line.trailing_comment, pending_comment);
            return true;
        case Tok::END:
            if (depth > 0) return fail(t, "", "the input ends inside a variation", depth);
            append_comment(line.trailing_comment, pending_comment);
            return true;
        case Tok::BAD:
            return fail(t, lex_.text(), lex_.error(), depth);
        case Tok::TAG_CLOSE:
            return fail(t, "]", "']' in the move text", depth);
        case Tok::STRING:
            return fail(t, lex_.text(), "a quoted string in the move text", depth);
        }
    }
}

// Skips a variation (its '(' read) without reading its moves.
bool PgnReader::Impl::skip_variation(const Token& open) {
    int depth = 1;
    for (;;) {
        const Token t = lex_.next(false);
        switch (t.type) {
        case Tok::VARIATION_OPEN:
            ++depth;
            break;
        case Tok::VARIATION_CLOSE:
            if (--depth == 0) return true;
            break;
        case Tok::TAG_OPEN:
            lex_.push_back(t);
            return fail(open, "(", "the game ends inside this variation", 1);
        case Tok::END:
            return fail(open, "(", "the input ends inside this variation", 1);
        default:
            break;
        }
    }
}

// After an error: skips to the end of the game (its result, or the next game's tags). A result
// inside a variation ends nothing, as when the moves are read: the variations open at the error
// and those opened after it are counted, so that the game ends where a reader that skips
// variations unread (PgnReadOptions::variations false) ends it too.
void PgnReader::Impl::skip_rest_of_game() {
    bool in_moves = in_moves_;
    int open = error_depth_;
    for (;;) {
        const Token t = lex_.next(false);
        switch (t.type) {
        case Tok::END:
            return;
        case Tok::STAR:
            if (open == 0) return;
            break;
        case Tok::SYMBOL:
            if (open == 0 && is_pgn_result(lex_.text())) return;
            in_moves = true;
            break;
        case Tok::VARIATION_OPEN:
            ++open;
            in_moves = true;
            break;
        case Tok::VARIATION_CLOSE:
            open = std::max(open - 1, 0);
            in_moves = true;
            break;
        case Tok::TAG_OPEN:
            // In the move text a '[' starts the next game, as when the moves are read.
            if (in_moves) {
                lex_.push_back(t);
                return;
            }
            break;
        case Tok::TAG_CLOSE:
        case Tok::STRING:
            break;
        default:
            in_moves = true;
        }
    }
}

PgnReader::PgnReader(std::istream& in, PgnReadOptions options)
    : impl_(std::make_unique<Impl>(in, options)) {}

PgnReader::~PgnReader() = default;

bool PgnReader::next(PgnGame& game) { return impl_->next(game); }

std::size_t PgnReader::games_read() const { return impl_->games(); }

std::vector<PgnGame> read_pgn(std::string_view text, PgnReadOptions options) {
    std::istringstream in{std::string(text)};
    PgnReader reader(in, options);
    std::vector<PgnGame> games;
    for (PgnGame game; reader.next(game);)
        games.push_back(game);
    return games;
}

// ----------------------------------------------------------------------------- writer

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
            while (i < text.size() && is_space(text[i]))
                ++i;
            if (i == text.size()) break;
            for (; i < text.size() && !is_space(text[i]); ++i)
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
        std::string san = null_move ? std::string(NULL_MOVE) : move_to_san(pos, m.move);
        std::size_t first_nag = 0;
        if (options.nag_suffixes && !m.nags.empty() && !nag_to_suffix(m.nags[0]).empty()) {
            san += nag_to_suffix(m.nags[0]);
            first_nag = 1;
        }
        layout.token(san);
        for (std::size_t i = first_nag; i < m.nags.size(); ++i)
            layout.token("$" + std::to_string(m.nags[i]));
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
        play(pos, m.move);
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
