#include "notation/pgn_reader.hpp"

#include <algorithm>
#include <charconv>
#include <istream>
#include <sstream>

#include "notation/pgn_common.hpp"
#include "notation/pgn_lexer.hpp"
#include "notation/san.hpp"

namespace horizon {

namespace {

constexpr int MAX_VARIATION_DEPTH = 100;

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

// The full-move number a move-number symbol gives; -1 when it is too large to be one.
long long move_number_value(std::string_view s) {
    long long value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && end == s.data() + s.size() ? value : -1;
}

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

class PgnReader::Impl {
public:
    Impl(std::istream& in, PgnReadOptions options) : lex_(in), options_(options) {}

    bool next(PgnGame& game);
    std::size_t games() const { return games_; }

private:
    PgnError problem(const PgnToken& t, std::string_view text, std::string reason, int depth) const;
    bool fail(const PgnToken& t, std::string_view text, std::string reason, int depth = 0);
    bool read_tags(bool& ended, std::string& comment);
    bool set_up_start();
    bool read_line(PgnLine& line, int depth, std::string pending_comment = {});
    void check_move_number(const PgnToken& t, std::string number, int depth);
    bool attach_nag(PgnLine& line, const PgnToken& t, int nag, int depth);
    bool skip_variation(const PgnToken& open);
    void skip_rest_of_game();

    PgnLexer lex_;
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
    // "*", set as one character: GCC 12 warns wrongly of overlapping copies on = "*" here.
    game.result.assign(1, '*');
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
        PgnToken first = lex_.next(options_.comments);
        for (; first.type == PgnTok::COMMENT; first = lex_.next(options_.comments))
            append_comment(comment, lex_.text());
        if (first.type == PgnTok::END) return false;
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

PgnError PgnReader::Impl::problem(const PgnToken& t, std::string_view text, std::string reason,
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

bool PgnReader::Impl::fail(const PgnToken& t, std::string_view text, std::string reason,
                           int depth) {
    if (game_->error) return false;
    game_->error = problem(t, text, std::move(reason), depth);
    error_depth_ = depth;
    return false;
}

// A move number ("12", "12.", "12...": its periods are read here) must be the full-move
// number of the position the next move is played in, and "..." must stand before a black
// move. A number that does not fit is a warning (the first of the game; the others are
// counted); the moves decide.
void PgnReader::Impl::check_move_number(const PgnToken& t, std::string number, int depth) {
    std::string text = number;
    const PgnToken after = lex_.next(options_.comments);
    if (after.type == PgnTok::PERIOD)
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
        const PgnToken open = lex_.next(options_.comments);
        if (open.type == PgnTok::COMMENT) {
            append_comment(comment, lex_.text());
            continue;
        }
        if (open.type != PgnTok::TAG_OPEN) {
            lex_.push_back(open);
            return true;
        }
        const PgnToken name = lex_.next(false);
        if (name.type != PgnTok::SYMBOL)
            return fail(name, lex_.text(), "a tag needs a name after '['");
        std::string tag_name = lex_.text();
        const PgnToken value = lex_.next(false);
        if (value.type != PgnTok::STRING)
            return fail(value, tag_name,
                        value.type == PgnTok::BAD ? lex_.error()
                                                  : "the tag needs a value in quotes");
        std::string tag_value = lex_.text();
        const PgnToken close = lex_.next(false);
        if (close.type != PgnTok::TAG_CLOSE)
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
        return fail(PgnToken{PgnTok::END, variant_line_, true}, variant,
                    "unsupported variant (only standard chess and Chess960)");
    const bool chess960 = v == Variant::CHESS960;
    const std::string_view fen = g.tag("FEN");
    if (fen.empty()) {
        g.start.set_chess960(chess960);
        return true;
    }
    // A FEN of four or five fields (no move counters) reads as set_fen reads it everywhere.
    const auto err = g.start.set_fen(fen, chess960);
    if (err)
        return fail(PgnToken{PgnTok::END, fen_line_, true}, fen, "bad FEN tag: " + err->message);
    return true;
}

bool PgnReader::Impl::attach_nag(PgnLine& line, const PgnToken& t, int nag, int depth) {
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
        const PgnToken t = lex_.next(options_.comments);
        switch (t.type) {
        case PgnTok::SYMBOL: {
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
                text == PGN_NULL_MOVE ? ParsedMove{Move::null(), {}} : parse_san(pos_, text);
            if (parsed && parsed.move == Move::null() && pos_.in_check())
                return fail(t, text, "a null move while in check", depth);
            if (!parsed) return fail(t, text, std::move(parsed.error), depth);
            PgnMove& node = line.moves.emplace_back();
            node.move = parsed.move;
            if (!pending_comment.empty()) node.comment_before.swap(pending_comment);
            play_pgn_move(pos_, parsed.move);
            after_variation = false;
            break;
        }
        case PgnTok::PERIOD:
            break;
        case PgnTok::STAR:
            if (depth > 0) break;
            game_->result.assign(1, '*'); // "*" (see next())
            append_comment(line.trailing_comment, pending_comment);
            return true;
        case PgnTok::NAG: {
            const int nag = std::stoi(lex_.text());
            if (nag > 255) return fail(t, "$" + lex_.text(), "a NAG is at most $255", depth);
            if (!attach_nag(line, t, nag, depth)) return false;
            break;
        }
        case PgnTok::SUFFIX: {
            const int nag = suffix_to_nag(lex_.text());
            if (nag == 0) return fail(t, lex_.text(), "unknown move annotation", depth);
            if (!attach_nag(line, t, nag, depth)) return false;
            break;
        }
        case PgnTok::COMMENT:
            if (!options_.comments) break;
            if (line.moves.empty() || after_variation)
                append_comment(pending_comment, lex_.text());
            else
                append_comment(line.moves.back().comment_after, lex_.text());
            break;
        case PgnTok::VARIATION_OPEN: {
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
            take_back_pgn_move(pos_, last);
            auto& variations = line.moves.back().variations;
            if (!read_line(variations.emplace_back(), depth + 1)) return false;
            play_pgn_move(pos_, last);
            // An empty variation, "()", says nothing: the writer leaves it out, and so does the
            // reader (a comment after it then belongs to the move before it, as without it).
            if (variations.back().moves.empty() && variations.back().trailing_comment.empty())
                variations.pop_back();
            else
                after_variation = true;
            break;
        }
        case PgnTok::VARIATION_CLOSE:
            if (depth == 0) return fail(t, ")", "')' without a '(' before it", depth);
            append_comment(line.trailing_comment, pending_comment);
            for (auto it = line.moves.rbegin(); it != line.moves.rend(); ++it)
                take_back_pgn_move(pos_, it->move);
            return true;
        case PgnTok::TAG_OPEN:
            lex_.push_back(t); // the next game's tags: this one has no result
            if (depth > 0) return fail(t, "[", "the game ends inside a variation", depth);
            append_comment(line.trailing_comment, pending_comment);
            return true;
        case PgnTok::END:
            if (depth > 0) return fail(t, "", "the input ends inside a variation", depth);
            append_comment(line.trailing_comment, pending_comment);
            return true;
        case PgnTok::BAD:
            return fail(t, lex_.text(), lex_.error(), depth);
        case PgnTok::TAG_CLOSE:
            return fail(t, "]", "']' in the move text", depth);
        case PgnTok::STRING:
            return fail(t, lex_.text(), "a quoted string in the move text", depth);
        }
    }
}

// Skips a variation (its '(' read) without reading its moves.
bool PgnReader::Impl::skip_variation(const PgnToken& open) {
    int depth = 1;
    for (;;) {
        const PgnToken t = lex_.next(false);
        switch (t.type) {
        case PgnTok::VARIATION_OPEN:
            ++depth;
            break;
        case PgnTok::VARIATION_CLOSE:
            if (--depth == 0) return true;
            break;
        case PgnTok::TAG_OPEN:
            lex_.push_back(t);
            return fail(open, "(", "the game ends inside this variation", 1);
        case PgnTok::END:
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
        const PgnToken t = lex_.next(false);
        switch (t.type) {
        case PgnTok::END:
            return;
        case PgnTok::STAR:
            if (open == 0) return;
            break;
        case PgnTok::SYMBOL:
            if (open == 0 && is_pgn_result(lex_.text())) return;
            in_moves = true;
            break;
        case PgnTok::VARIATION_OPEN:
            ++open;
            in_moves = true;
            break;
        case PgnTok::VARIATION_CLOSE:
            open = std::max(open - 1, 0);
            in_moves = true;
            break;
        case PgnTok::TAG_OPEN:
            // In the move text a '[' starts the next game, as when the moves are read.
            if (in_moves) {
                lex_.push_back(t);
                return;
            }
            break;
        case PgnTok::TAG_CLOSE:
        case PgnTok::STRING:
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

} // namespace horizon
