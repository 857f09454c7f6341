// The UCI loop: the input is a whole session (lines of commands, as a GUI would send, or
// garbage). The loop must survive it, answer every `isready` with one `readyok` and every
// `uci` with one `uciok`, end every `go` with one `bestmove` (a search) or one node count (a
// perft), and every `bench` with one node count, and hold a position
// that reads back from its own FEN when the session is over.
//
// So that one input stays quick, the harness tames what would only make it slow, never what
// the loop reads: `Hash` and `Threads` values are capped, `go perft` and `bench` depths too,
// and options that name files (EvalFile, SyzygyPath) are left out; they have targets of their
// own (fuzz_weights) or read the disk.
#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>

#include "engine/engine.hpp"
#include "fuzz_support.hpp"
#include "uci/uci.hpp"

using namespace horizon;

namespace {

std::vector<std::string> words(std::string_view line) {
    std::vector<std::string> w;
    std::istringstream in{std::string(line)};
    for (std::string s; in >> s;)
        w.push_back(s);
    return w;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

bool all_digits(const std::string& s) {
    return !s.empty() && s.size() < 12 &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The line with every number that follows `after` capped at `cap` (a long digit string
// counts as large).
std::string cap_after(const std::vector<std::string>& w, const std::string& after, long cap) {
    std::string out;
    for (std::size_t i = 0; i < w.size(); ++i) {
        std::string token = w[i];
        if (i > 0 && lower(w[i - 1]) == after) {
            const bool digits =
                !token.empty() && std::all_of(token.begin(), token.end(),
                                              [](unsigned char c) { return std::isdigit(c); });
            if (digits && (token.size() >= 12 || std::stol(token) > cap))
                token = std::to_string(cap);
        }
        out += (i ? " " : "") + token;
    }
    return out;
}

// The session as the loop will read it (see above), and what it must answer.
struct Tamed {
    std::string text;
    int isready = 0;
    int uci = 0;
    int counts = 0; // `go` (a search or a perft) and `bench`: each ends in one report
};

Tamed tame(std::string_view input) {
    Tamed t;
    for (std::string_view raw : fuzz_lines(input)) {
        std::string line(raw);
        // The loop reads lines with getline: a '\r' stays in the line's last word.
        const auto w = words(line);
        if (w.empty()) {
            t.text += line + "\n";
            continue;
        }
        const std::string cmd = w[0];
        const std::string low = lower(line);
        if (cmd == "setoption") {
            if (low.find("evalfile") != std::string::npos ||
                low.find("syzygypath") != std::string::npos)
                continue;
            line = cap_after(w, "value",
                             low.find("hash") != std::string::npos      ? 4
                             : low.find("threads") != std::string::npos ? 2
                                                                        : 1 << 30);
        } else if (cmd == "bench") {
            // A bench without a small depth runs the default depth: too slow here.
            if (w.size() != 2 || !all_digits(w[1]) || std::stol(w[1]) < 1 || std::stol(w[1]) > 2)
                continue;
            ++t.counts;
        } else if (cmd == "go") {
            line = cap_after(w, "perft", 3);
            ++t.counts;
        } else if (cmd == "isready") {
            ++t.isready;
        } else if (cmd == "uci") {
            ++t.uci;
        } else if (cmd == "quit") {
            t.text += line + "\n";
            break;
        }
        t.text += line + "\n";
    }
    return t;
}

int count_lines(const std::string& out, std::string_view first_word) {
    int n = 0;
    for (std::string_view l : fuzz_lines(out))
        n += l == first_word || l.substr(0, first_word.size() + 1) == std::string(first_word) + " ";
    return n;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_init();
    const Tamed t = tame(fuzz_text(data, size));
    std::istringstream in("setoption name Hash value 1\n" + t.text);
    std::ostringstream out;
    Engine engine;
    {
        UciLoop loop(in, out, engine);
        loop.run();
    }
    const std::string said = out.str();
    const std::string context = t.text + "\n----\n" + said;
    FUZZ_CHECK(count_lines(said, "readyok") == t.isready, context);
    FUZZ_CHECK(count_lines(said, "uciok") == t.uci, context);
    // A search ends in `bestmove`; a perft (`go perft N`) and a bench in "Nodes searched: N".
    FUZZ_CHECK(count_lines(said, "bestmove") + count_lines(said, "Nodes searched:") == t.counts,
               context);
    FUZZ_CHECK(said.empty() || said.back() == '\n', context);
    const std::string fen = engine.position().fen();
    Position again;
    FUZZ_CHECK(!again.set_fen(fen, engine.position().is_chess960()) && again.fen() == fen, context);
    return 0;
}
