// PGN: any text is read into games (never a crash); every game read whole is written in
// export format and read back into the same game (moves, comments, NAGs, variations, result,
// start position), and writing that again gives the same text. The games are also read from a
// stream (PgnReader), which must give what read_pgn gives, and with comments and variations
// skipped, the same number of games and main lines.
#include <algorithm>
#include <sstream>
#include <string>

#include "fuzz_support.hpp"
#include "notation/pgn_reader.hpp"
#include "notation/pgn_writer.hpp"

using namespace horizon;

namespace {

// A comment read from a ';' line may hold a '}', which the writer (export format: comments in
// braces, with no escape) writes as ')'. The round trip compares comments so changed.
std::string braced(std::string c) {
    std::replace(c.begin(), c.end(), '}', ')');
    return c;
}

void brace_comments(PgnLine& line) {
    line.trailing_comment = braced(line.trailing_comment);
    for (PgnMove& m : line.moves) {
        m.comment_before = braced(m.comment_before);
        m.comment_after = braced(m.comment_after);
        for (PgnLine& v : m.variations)
            brace_comments(v);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_init();
    const std::string text(fuzz_text(data, size));
    const std::vector<PgnGame> games = read_pgn(text);

    // From a stream, as read_pgn reads; and with comments and variations skipped unread, the
    // same games (a game refused only for its variations may then read whole).
    for (const bool whole : {true, false}) {
        std::istringstream in(text);
        PgnReader reader(in, {.comments = whole, .variations = whole});
        std::size_t streamed = 0;
        for (PgnGame g; reader.next(g); ++streamed) {
            FUZZ_CHECK(streamed < games.size(), text);
            const PgnGame& full = games[streamed];
            if (whole) {
                FUZZ_CHECK(bool(g.error) == bool(full.error), text);
                FUZZ_CHECK(g.moves == full.moves && g.result == full.result, text);
            } else if (!full.error) {
                FUZZ_CHECK(!g.error && g.main_line() == full.main_line(), text);
            }
        }
        FUZZ_CHECK(streamed == games.size(), text);
    }

    for (PgnGame game : games) {
        if (game.error) continue;
        const std::string written = to_pgn(game);
        const std::vector<PgnGame> back = read_pgn(written);
        FUZZ_CHECK(back.size() == 1, written);
        const PgnGame& again = back[0];
        brace_comments(game.moves);
        game.comment_before_tags = braced(game.comment_before_tags);
        FUZZ_CHECK(!again.error, written + "\n" + (again.error ? again.error->message() : ""));
        FUZZ_CHECK(again.moves == game.moves, written);
        FUZZ_CHECK(again.result == game.result, written);
        FUZZ_CHECK(again.start.fen() == game.start.fen(), written);
        FUZZ_CHECK(again.start.is_chess960() == game.start.is_chess960(), written);
        FUZZ_CHECK(again.comment_before_tags == game.comment_before_tags, written);
        FUZZ_CHECK(to_pgn(again) == written, written);
    }
    return 0;
}
