// UCI layer: scripted sessions through string streams, driven one line at a time with
// UciLoop::handle (searches run on the engine's thread; we wait for their bestmove).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/position.hpp"
#include "engine/config.hpp"
#include "engine/engine.hpp"
#include "eval/params.hpp"
#include "eval/wdl.hpp"
#include "movegen/movegen.hpp"
#include "notation/uci_move.hpp"
#include "search/params.hpp"
#include "search/strength.hpp"
#include "search/tunable.hpp"
#include "uci/uci.hpp"

#include "support.hpp"

using namespace horizon;
using namespace horizon::test;
using namespace std::chrono_literals;

namespace {

// An output buffer that may be read while the search thread writes to it.
class CaptureBuf : public std::streambuf {
public:
    std::string snapshot() const {
        std::lock_guard lock(mutex_);
        return data_;
    }

protected:
    int_type overflow(int_type c) override {
        if (c != traits_type::eof()) {
            std::lock_guard lock(mutex_);
            data_ += traits_type::to_char_type(c);
        }
        return traits_type::not_eof(c);
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        std::lock_guard lock(mutex_);
        data_.append(s, std::size_t(n));
        return n;
    }

private:
    mutable std::mutex mutex_;
    std::string data_;
};

// Complete lines only (a line still being written has no '\n' yet).
std::vector<std::string> complete_lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
        out.push_back(text.substr(start, nl - start));
    return out;
}

bool starts_with(const std::string& s, const std::string& prefix) {
    return s.rfind(prefix, 0) == 0;
}

int count_prefix(const std::vector<std::string>& lines, const std::string& prefix) {
    return int(std::count_if(lines.begin(), lines.end(),
                             [&](const std::string& l) { return starts_with(l, prefix); }));
}

struct Session {
    CaptureBuf buf;
    std::ostream out{&buf};
    std::istringstream in;
    Engine engine;
    UciLoop loop{in, out, engine};

    ~Session() {
        // The search thread reports through the loop: end it before the loop goes.
        engine.stop();
        engine.wait();
    }

    bool send(const std::string& line) { return loop.handle(line); }
    // The value an option holds now.
    std::string loop_option(const std::string& name) const {
        return loop.option_value(name).value_or("(no such option)");
    }
    std::vector<std::string> lines() const { return complete_lines(buf.snapshot()); }
    std::size_t mark() const { return lines().size(); }
    std::vector<std::string> since(std::size_t from) const {
        auto all = lines();
        return from >= all.size() ? std::vector<std::string>{}
                                  : std::vector<std::string>(all.begin() + long(from), all.end());
    }
    // Sends a command and returns the lines it produced (for synchronous commands).
    std::vector<std::string> run(const std::string& line) {
        const auto from = mark();
        send(line);
        return since(from);
    }
    bool has_bestmove(std::size_t from) const { return count_prefix(since(from), "bestmove") > 0; }
    // Waits until a bestmove appears after line `from`; on timeout stops the search and fails.
    void wait_bestmove(std::size_t from, std::chrono::milliseconds timeout = 30s) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!has_bestmove(from)) {
            if (std::chrono::steady_clock::now() > deadline) {
                engine.stop();
                engine.wait();
                FAIL("no bestmove within " << timeout.count() << " ms");
            }
            std::this_thread::sleep_for(1ms);
        }
        engine.wait();
    }
    // Sends a `go` with a finite limit and returns everything up to its bestmove.
    std::vector<std::string> go(const std::string& line, std::chrono::milliseconds timeout = 30s) {
        const auto from = mark();
        send(line);
        wait_bestmove(from, timeout);
        return since(from);
    }
};

// `cmd` is answered by exactly one info string and leaves the position at `before`.
void check_rejected(Session& s, const std::string& cmd, const std::string& before) {
    INFO(cmd);
    const auto out = s.run(cmd);
    REQUIRE(out.size() == 1);
    CHECK(starts_with(out[0], "info string "));
    CHECK(s.engine.position().fen() == before);
}

struct Info {
    std::map<std::string, long long> num;
    std::string score_kind; // "cp" or "mate"
    long long score = 0;
    bool bound = false;
    std::optional<std::array<long long, 3>> wdl; // UCI_ShowWDL: right after the score
    std::vector<std::string> pv;
};

// Parses a search `info` line (not `info string`).
Info parse_info(const std::string& line) {
    const auto t = tokens(line);
    REQUIRE(t.size() >= 2);
    REQUIRE(t[0] == "info");
    Info info;
    static const std::set<std::string> numeric = {"depth", "seldepth", "multipv", "nodes",
                                                  "nps",   "hashfull", "time",    "currmovenumber",
                                                  "tbhits"};
    for (std::size_t i = 1; i < t.size(); ++i) {
        const std::string& key = t[i];
        if (numeric.count(key)) {
            INFO(line);
            REQUIRE(i + 1 < t.size());
            REQUIRE_FALSE(info.num.count(key));
            info.num[key] = std::stoll(t[++i]);
        } else if (key == "score") {
            INFO(line);
            REQUIRE(i + 2 < t.size());
            info.score_kind = t[++i];
            REQUIRE((info.score_kind == "cp" || info.score_kind == "mate"));
            info.score = std::stoll(t[++i]);
            if (i + 1 < t.size() && (t[i + 1] == "lowerbound" || t[i + 1] == "upperbound")) {
                info.bound = true;
                ++i;
            }
            if (i + 1 < t.size() && t[i + 1] == "wdl") {
                REQUIRE(i + 4 < t.size());
                info.wdl = {std::stoll(t[i + 2]), std::stoll(t[i + 3]), std::stoll(t[i + 4])};
                i += 4;
            }
        } else if (key == "pv") {
            info.pv.assign(t.begin() + long(i) + 1, t.end());
            break;
        } else {
            FAIL("unexpected token '" << key << "' in: " << line);
        }
    }
    return info;
}

struct SearchOutput {
    std::vector<Info> infos; // the lines reported (each with depth, score and pv)
    std::vector<std::string> info_strings;
    std::string best;
    std::optional<std::string> ponder;
    // The search's own nodes and time at its end when it went on after its last line: an info
    // line without depth, score or pv, right before the bestmove.
    std::optional<Info> totals;
    // The whole search's nodes and time, as a client that keeps the last values reads them.
    long long last(const char* key) const {
        return totals ? totals->num.at(key) : infos.back().num.at(key);
    }
};

// Checks the shape of one search's output: info lines, then exactly one bestmove, last.
// Every PV is legal from the root; the last info line's PV starts with the bestmove.
SearchOutput check_search_output(const std::vector<std::string>& lines, const Position& root,
                                 int multipv = 1) {
    SearchOutput out;
    REQUIRE(!lines.empty());
    REQUIRE(count_prefix(lines, "bestmove") == 1);
    REQUIRE(starts_with(lines.back(), "bestmove "));
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        const std::string& l = lines[i];
        INFO("line: " << l);
        REQUIRE(starts_with(l, "info "));
        if (starts_with(l, "info string")) {
            out.info_strings.push_back(l);
            continue;
        }
        const Info info = parse_info(l);
        for (const char* key : {"nodes", "nps", "hashfull", "time"})
            REQUIRE(info.num.count(key));
        if (!info.num.count("depth")) {
            // The totals: nothing but nodes, speed, hash, time (and table hits), once, last,
            // after a line, each counting more than that line's (never a line said again).
            CHECK(info.num.size() == 4u + info.num.count("tbhits"));
            CHECK(info.score_kind.empty());
            CHECK(info.pv.empty());
            CHECK_FALSE(info.wdl);
            REQUIRE(i + 2 == lines.size());
            REQUIRE_FALSE(out.infos.empty());
            CHECK(info.num.at("nodes") > out.infos.back().num.at("nodes"));
            CHECK(info.num.at("time") >= out.infos.back().num.at("time"));
            const long long nodes = info.num.at("nodes"), ms = info.num.at("time");
            CHECK(info.num.at("nps") >= nodes * 1000 / (ms + 1));
            if (ms > 0) CHECK(info.num.at("nps") <= nodes * 1000 / ms);
            out.totals = info;
            continue;
        }
        REQUIRE(!info.score_kind.empty());
        if (info.wdl) {
            for (long long v : *info.wdl) {
                CHECK(v >= 0);
                CHECK(v <= 1000);
            }
            CHECK((*info.wdl)[0] + (*info.wdl)[1] + (*info.wdl)[2] == 1000);
        }
        REQUIRE(info.num.count("multipv"));
        CHECK(info.num.at("multipv") >= 1);
        CHECK(info.num.at("multipv") <= multipv);
        CHECK(info.num.at("hashfull") >= 0);
        CHECK(info.num.at("hashfull") <= 1000);
        CHECK(info.num.at("time") >= 0);
        CHECK(info.num.at("nps") >= 0);
        // nps is the speed over the time shown, which is whole milliseconds rounded down: at
        // `time T`, between nodes * 1000 / (T + 1) and nodes * 1000 / T (at T = 0, no upper
        // bound), never the node count as at time 1 s.
        const long long nodes = info.num.at("nodes"), ms = info.num.at("time");
        CHECK(info.num.at("nps") >= nodes * 1000 / (ms + 1));
        if (ms > 0) CHECK(info.num.at("nps") <= nodes * 1000 / ms);
        if (info.num.at("depth") > 0) {
            REQUIRE(info.num.count("seldepth"));
            CHECK(info.num.at("seldepth") >= info.num.at("depth"));
            CHECK(info.num.at("nodes") > 0);
            REQUIRE(!info.pv.empty());
            Position p = root;
            for (const auto& mv : info.pv) {
                INFO("pv move " << mv << " in " << p.fen());
                const auto m = parse_uci_move(p, mv);
                REQUIRE(m);
                p.make_move(*m);
            }
        }
        out.infos.push_back(info);
    }
    // Each line's reports only go deeper; all count more nodes and later times (both from the
    // go). No report is printed twice in a row (the same line, depth and score).
    std::map<long long, long long> depth_of_line;
    for (std::size_t i = 0; i < out.infos.size(); ++i) {
        const Info& info = out.infos[i];
        long long& depth = depth_of_line[info.num.at("multipv")];
        CHECK(info.num.at("depth") >= depth);
        depth = info.num.at("depth");
        if (i == 0) continue;
        const Info& before = out.infos[i - 1];
        CHECK(info.num.at("nodes") >= before.num.at("nodes"));
        CHECK(info.num.at("time") >= before.num.at("time"));
        INFO("report " << i << " at depth " << depth);
        CHECK_FALSE((info.num.at("multipv") == before.num.at("multipv") &&
                     info.num.at("depth") == before.num.at("depth") &&
                     info.score_kind == before.score_kind && info.score == before.score &&
                     info.pv == before.pv));
    }
    const auto b = tokens(lines.back());
    REQUIRE((b.size() == 2 || b.size() == 4));
    out.best = b[1];
    if (b.size() == 4) {
        REQUIRE(b[2] == "ponder");
        out.ponder = b[3];
    }
    REQUIRE(!out.infos.empty());
    if (has_legal_move(root)) {
        const auto best = parse_uci_move(root, out.best);
        INFO("bestmove " << out.best << " in " << root.fen());
        REQUIRE(best);
        // The move played starts the last first line.
        const auto last_first =
            std::find_if(out.infos.rbegin(), out.infos.rend(),
                         [](const Info& i) { return i.num.at("multipv") == 1; });
        REQUIRE(last_first != out.infos.rend());
        REQUIRE(!last_first->pv.empty());
        CHECK(last_first->pv.front() == out.best);
        if (out.ponder) {
            Position after = root;
            after.make_move(*best);
            INFO("ponder " << *out.ponder << " in " << after.fen());
            CHECK(parse_uci_move(after, *out.ponder));
        }
    } else {
        CHECK(out.best == "(none)"); // what clients read as no move
        CHECK_FALSE(out.ponder);
    }
    return out;
}

const std::string START = std::string(Position::START_FEN);

} // namespace

// --------------------------------------------------------------------------------------------
// uci, isready

TEST_CASE("uci prints identity - every option - then uciok", "[uci]") {
    Session s;
    const auto out = s.run("uci");
    REQUIRE(out.size() >= 3);
    const auto& id = engine_identity();
    CHECK(out[0] == "id name " + id.name + " " + id.version);
    CHECK(out[1] == "id author " + id.author);
    CHECK(out.back() == "uciok");
    CHECK(count_prefix(out, "uciok") == 1);

    // Every line between the id lines and uciok is an option declaration.
    std::map<std::string, std::string> decl; // name -> rest after "type "
    for (std::size_t i = 2; i + 1 < out.size(); ++i) {
        INFO(out[i]);
        REQUIRE(starts_with(out[i], "option name "));
        const auto type_at = out[i].find(" type ");
        REQUIRE(type_at != std::string::npos);
        const std::string name = out[i].substr(12, type_at - 12);
        REQUIRE_FALSE(decl.count(name));
        decl[name] = out[i].substr(type_at + 6);
    }
    for (const char* name : {"Hash", "Clear Hash", "Threads", "MultiPV", "Ponder", "Move Overhead",
                             "UCI_Chess960", "UCI_AnalyseMode", "UCI_ShowWDL", "EvalFile",
                             "UCI_LimitStrength", "UCI_Elo", "StrengthSeed"}) {
        INFO(name);
        CHECK(decl.count(name));
    }
    CHECK(decl["Clear Hash"] == "button");
    for (const char* name :
         {"Ponder", "UCI_Chess960", "UCI_AnalyseMode", "UCI_ShowWDL", "UCI_LimitStrength"})
        CHECK(decl[name] == "check default false");
    CHECK(decl["EvalFile"] == std::string("string default ") + UciLoop::EVAL_FILE_BUILTIN);
    // A calibration's trial row is no option for a player: it comes from the command line
    // (horizon --strength-override ROW), not from the list a GUI shows.
    CHECK_FALSE(decl.count("StrengthOverride"));
    // Spin options: default inside [min, max].
    for (const char* name : {"Hash", "Threads", "MultiPV", "Move Overhead", "UCI_Elo"}) {
        INFO(name << ": " << decl[name]);
        const auto t = tokens(decl[name]);
        REQUIRE(t.size() == 7);
        CHECK(t[0] == "spin");
        CHECK(t[1] == "default");
        CHECK(t[3] == "min");
        CHECK(t[5] == "max");
        const long long def = std::stoll(t[2]), lo = std::stoll(t[4]), hi = std::stoll(t[6]);
        CHECK(lo <= def);
        CHECK(def <= hi);
    }
    // The declared defaults are the engine's.
    CHECK(tokens(decl["Hash"])[2] == std::to_string(s.engine.hash_mib()));
    CHECK(tokens(decl["Move Overhead"])[2] == std::to_string(s.engine.move_overhead()));
    CHECK(tokens(decl["Hash"])[6] == std::to_string(Engine::MAX_HASH_MIB));
    CHECK(tokens(decl["UCI_Elo"])[2] == std::to_string(s.engine.elo()));
    CHECK(tokens(decl["UCI_Elo"])[4] == std::to_string(STRENGTH_ELO_MIN));
    CHECK(tokens(decl["UCI_Elo"])[6] == std::to_string(STRENGTH_ELO_MAX));
}

TEST_CASE("isready answers readyok", "[uci]") {
    Session s;
    CHECK(s.run("isready") == std::vector<std::string>{"readyok"});
    CHECK(s.run("isready") == std::vector<std::string>{"readyok"});
}

// --------------------------------------------------------------------------------------------
// setoption

TEST_CASE("setoption: names are case-insensitive and may contain spaces", "[uci]") {
    Session s;
    REQUIRE(s.engine.hash_mib() != 32);
    CHECK(s.run("setoption name hash value 32").empty());
    CHECK(s.engine.hash_mib() == 32);
    CHECK(s.run("setoption name HASH value 8").empty());
    CHECK(s.engine.hash_mib() == 8);

    CHECK(s.run("setoption name Move Overhead value 123").empty());
    CHECK(s.engine.move_overhead() == 123);
    CHECK(s.run("setoption name move overhead value 7").empty());
    CHECK(s.engine.move_overhead() == 7);

    CHECK(s.run("setoption name Clear Hash").empty());
    CHECK(s.run("setoption name clear hash").empty());

    CHECK_FALSE(s.engine.chess960());
    CHECK(s.run("setoption name uci_chess960 value TRUE").empty());
    CHECK(s.engine.chess960());
    CHECK(s.run("setoption name UCI_Chess960 value false").empty());
    CHECK_FALSE(s.engine.chess960());

    CHECK(s.run("setoption name Threads value 1").empty());
    CHECK(s.run("setoption name MultiPV value 1").empty());
    CHECK(s.run("setoption name Ponder value true").empty());
    CHECK(s.run("setoption name UCI_AnalyseMode value true").empty());
}

TEST_CASE("setoption: unknown - malformed and out-of-range input is reported once", "[uci]") {
    Session s;
    const auto hash0 = s.engine.hash_mib();
    const auto overhead0 = s.engine.move_overhead();

    SECTION("unknown option") {
        const auto out = s.run("setoption name NoSuchOption value 3");
        REQUIRE(out.size() == 1);
        CHECK(starts_with(out[0], "info string "));
        CHECK(out[0].find("NoSuchOption") != std::string::npos);
    }
    SECTION("no name") {
        const auto a = s.run("setoption");
        REQUIRE(a.size() == 1);
        CHECK(starts_with(a[0], "info string "));
        const auto b = s.run("setoption name");
        REQUIRE(b.size() == 1);
        CHECK(starts_with(b[0], "info string "));
        const auto c = s.run("setoption value 3");
        REQUIRE(c.size() == 1);
        CHECK(starts_with(c[0], "info string "));
    }
    SECTION("spin without a value keeps the old value") {
        for (const char* cmd : {"setoption name Hash", "setoption name Hash value"}) {
            INFO(cmd);
            const auto out = s.run(cmd);
            REQUIRE(out.size() == 1);
            CHECK(starts_with(out[0], "info string "));
            CHECK(s.engine.hash_mib() == hash0);
        }
    }
    SECTION("spin with a non-numeric value keeps the old value and says so") {
        for (const char* cmd : {"setoption name Hash value abc", "setoption name Hash value 12x",
                                "setoption name Hash value 3.5", "setoption name Hash value 1 2"}) {
            INFO(cmd);
            const auto out = s.run(cmd);
            REQUIRE(out.size() == 1);
            CHECK(starts_with(out[0], "info string "));
            CHECK(out[0].find("kept") != std::string::npos);
            CHECK(s.engine.hash_mib() == hash0);
        }
        const auto out = s.run("setoption name Move Overhead value lots");
        REQUIRE(out.size() == 1);
        CHECK(s.engine.move_overhead() == overhead0);
    }
    SECTION("spin out of range is clamped and says so") {
        auto out = s.run("setoption name Hash value 0");
        REQUIRE(out.size() == 1);
        CHECK(starts_with(out[0], "info string "));
        CHECK(s.engine.hash_mib() == 1);

        out = s.run("setoption name Move Overhead value 99999");
        REQUIRE(out.size() == 1);
        CHECK(starts_with(out[0], "info string "));
        CHECK(s.engine.move_overhead() == 5000);

        out = s.run("setoption name Move Overhead value -5");
        REQUIRE(out.size() == 1);
        CHECK(s.engine.move_overhead() == 0);

        // Beyond the range of any integer type: clamped like any other out-of-range value.
        out = s.run("setoption name Move Overhead value -99999999999999999999999999");
        REQUIRE(out.size() == 1);
        CHECK(s.engine.move_overhead() == 0);
        out = s.run("setoption name Move Overhead value 99999999999999999999999999");
        REQUIRE(out.size() == 1);
        CHECK(s.engine.move_overhead() == 5000);

        out = s.run("setoption name MultiPV value 0");
        REQUIRE(out.size() == 1);
        CHECK(starts_with(out[0], "info string "));
    }
    SECTION("UCI_Elo outside its range or not a number is refused - the last good value kept") {
        REQUIRE(s.run("setoption name UCI_Elo value 1700").empty());
        CHECK(s.engine.elo() == 1700);
        for (const char* cmd :
             {"setoption name UCI_Elo value 1349", "setoption name UCI_Elo value 2851",
              "setoption name UCI_Elo value -5",
              "setoption name UCI_Elo value 99999999999999999999",
              "setoption name UCI_Elo value strong", "setoption name UCI_Elo"}) {
            INFO(cmd);
            const auto out = s.run(cmd);
            REQUIRE(out.size() == 1);
            CHECK(starts_with(out[0], "info string "));
            CHECK(out[0].find("kept 1700") != std::string::npos);
            CHECK(s.engine.elo() == 1700);
            CHECK(s.loop_option("UCI_Elo") == "1700");
        }
        for (int elo : {STRENGTH_ELO_MIN, STRENGTH_ELO_MAX}) {
            REQUIRE(s.run("setoption name UCI_Elo value " + std::to_string(elo)).empty());
            CHECK(s.engine.elo() == elo);
        }
        const auto out = s.run("setoption name UCI_LimitStrength value perhaps");
        REQUIRE(out.size() == 1);
        CHECK_FALSE(s.engine.limit_strength());
    }
    SECTION("StrengthOverride is no option: setoption names it unknown, UCI_Elo's level plays") {
        REQUIRE(s.run("setoption name UCI_Elo value 1800").empty());
        const auto out = s.run("setoption name StrengthOverride value 3000 2 30 150");
        REQUIRE(out.size() == 1);
        CHECK(out[0] == "info string unknown option 'StrengthOverride'");
        CHECK(format_strength_row(s.engine.strength()) ==
              format_strength_row(strength_level(1800)));
    }
    SECTION("check option with a bad or missing value") {
        for (const char* cmd :
             {"setoption name UCI_Chess960 value yes", "setoption name UCI_Chess960 value 1",
              "setoption name UCI_Chess960"}) {
            INFO(cmd);
            const auto out = s.run(cmd);
            REQUIRE(out.size() == 1);
            CHECK(starts_with(out[0], "info string "));
            CHECK_FALSE(s.engine.chess960());
        }
        const auto out = s.run("setoption name Ponder value maybe");
        REQUIRE(out.size() == 1);
        CHECK(starts_with(out[0], "info string "));
    }
    SECTION("button with a value is still pressed, with a note") {
        const auto out = s.run("setoption name Clear Hash value now");
        REQUIRE(out.size() == 1);
        CHECK(starts_with(out[0], "info string "));
    }
    // Whatever happened, the loop still answers and searches.
    CHECK(s.run("isready") == std::vector<std::string>{"readyok"});
    check_search_output(s.go("go depth 2"), s.engine.position());
}

TEST_CASE("setoption during an infinite search stops it and applies the option", "[uci]") {
    Session s;
    const auto from = s.mark();
    s.send("go infinite");
    std::this_thread::sleep_for(50ms);
    s.send("setoption name Hash value 4");
    // The search was stopped first: its bestmove has been sent, and the table resized.
    s.wait_bestmove(from, 5s);
    CHECK(s.engine.hash_mib() == 4);
    check_search_output(s.since(from), s.engine.position());
}

// --------------------------------------------------------------------------------------------
// position

TEST_CASE("position startpos / fen with moves", "[uci]") {
    Session s;
    CHECK(s.run("position startpos").empty());
    CHECK(s.engine.position().fen() == START);

    CHECK(s.run("position startpos moves e2e4 e7e5 g1f3").empty());
    Position expect = position_from(START);
    for (const char* mv : {"e2e4", "e7e5", "g1f3"})
        expect.make_move(*parse_uci_move(expect, mv));
    CHECK(s.engine.position().fen() == expect.fen());
    CHECK(s.engine.position().key() == expect.key());

    const std::string kiwipete =
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    CHECK(s.run("position fen " + kiwipete).empty());
    CHECK(s.engine.position().fen() == kiwipete);

    CHECK(s.run("position fen " + kiwipete + " moves e1g1 a6e2 c3e2").empty());
    Position k = position_from(kiwipete);
    for (const char* mv : {"e1g1", "a6e2", "c3e2"})
        k.make_move(*parse_uci_move(k, mv));
    CHECK(s.engine.position().fen() == k.fen());
    CHECK(s.engine.position().side_to_move() == BLACK);

    // `moves` with nothing after it is the position itself.
    CHECK(s.run("position startpos moves").empty());
    CHECK(s.engine.position().fen() == START);
}

TEST_CASE("a session whose lines end in CR LF (Windows GUIs) runs as with LF", "[uci]") {
    Session s;
    s.in.str("uci\r\nisready\r\nsetoption name Move Overhead value 77\r\n"
             "position startpos moves e2e4 e7e5\r\ngo depth 3\r\nisready\r\nquit\r\n");
    s.loop.run();
    const auto out = s.lines();
    CHECK(count_prefix(out, "uciok") == 1);
    CHECK(count_prefix(out, "readyok") == 2);
    CHECK(count_prefix(out, "bestmove") == 1);
    CHECK(count_prefix(out, "info string") == 0);
    CHECK(s.engine.move_overhead() == 77);
    Position expect = position_from(START);
    for (const char* mv : {"e2e4", "e7e5"})
        expect.make_move(*parse_uci_move(expect, mv));
    CHECK(s.engine.position().fen() == expect.fen());
}

TEST_CASE("position with a 200-ply move list", "[uci]") {
    Session s;
    std::string cmd = "position startpos moves";
    for (int i = 0; i < 50; ++i)
        cmd += " g1f3 g8f6 f3g1 f6g8";
    CHECK(s.run(cmd).empty());
    // Back at the start, 200 reversible plies later: move 101, halfmove clock 200.
    CHECK(s.engine.position().fen() ==
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 200 101");
    CHECK(s.engine.position().game_ply() == 200);
    // A draw by rule at the root still gets a legal move.
    check_search_output(s.go("go depth 3"), s.engine.position());
}

TEST_CASE("position: a bad FEN is rejected whole - with one info string", "[uci]") {
    Session s;
    REQUIRE(s.run("position startpos moves d2d4 d7d5").empty());
    const std::string before = s.engine.position().fen();
    REQUIRE(before != START);

    const std::vector<std::string> bad = {
        "",                                                               // no FEN at all
        "8/8/8/8/8/8/8/8 w",                                              // too few fields
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", // too many fields
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",       // bad piece letter
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",        // 7 files on rank 1
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",       // 9 files
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",         // 7 ranks
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",                                 // two white kings
        "8/8/8/8/8/8/8/4K3 w - - 0 1",                                    // no black king
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",                                 // pawn on rank 8
        "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",                                 // pawn on rank 1
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",                                  // side 'x'
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",                                  // castling, no rook
        "4k3/8/8/8/8/8/8/4K2R w Z - 0 1",                                 // castling letter
        "4k3/8/8/8/8/8/4K3/7R w K - 0 1",                                 // king off its rank
        "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",                                 // ep on wrong rank
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",                                 // ep without a push
        "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",                                 // ep not a square
        "4k3/8/8/8/8/8/8/4K3 w - - -1 1",                                 // negative halfmove
        "4k3/8/8/8/8/8/8/4K3 w - - 0 -3",                                 // negative fullmove
        "4k3/8/8/8/8/8/8/4K3 w - - x 1",                                  // clock not a number
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", // side not to move in check
    };
    for (const auto& fen : bad) {
        INFO("fen: '" << fen << "'");
        check_rejected(s, "position fen " + fen, before);
        // A good move list does not rescue a bad FEN.
        check_rejected(s, "position fen " + fen + " moves e1e2", before);
    }
}

TEST_CASE("position: an illegal move anywhere rejects the whole command", "[uci]") {
    Session s;
    REQUIRE(s.run("position startpos moves e2e4").empty());
    const std::string before = s.engine.position().fen();
    for (const char* cmd : {
             "position startpos moves e2e4 e7e5 e1e3 b8c6", // illegal king move in the middle
             "position startpos moves e2e4 e2e4",           // no piece there any more
             "position startpos moves e2e5",                // a pawn cannot go three squares
             "position startpos moves e7e5",                // black's move with white to move
             "position startpos moves e2e4 e7e5 zzzz",      // malformed
             "position startpos moves e2e4 e7e5 e2",        // truncated
             "position startpos moves e2e4 e7e5 g1f3x",     // trailing garbage
             "position startpos moves a7a8q",               // promotion that is not there
             "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1 e8d8 f1g1", // g1: own king
         }) {
        INFO(cmd);
        check_rejected(s, cmd, before);
    }
}

TEST_CASE("position without arguments or with garbage", "[uci]") {
    Session s;
    REQUIRE(s.run("position startpos moves g1f3").empty());
    const std::string before = s.engine.position().fen();
    for (const char* cmd :
         {"position", "position garbage", "position startpos e2e4", "position moves e2e4",
          "position fen", "position startpos garbage moves e2e4"}) {
        INFO(cmd);
        check_rejected(s, cmd, before);
    }
}

// --------------------------------------------------------------------------------------------
// Search constants as options (the SPSA build)

TEST_CASE("search constants are UCI options only in a tuning build - the search reads them",
          "[uci]") {
    Session s;
    const auto declared = s.run("uci");
    const auto declaration = [&](const std::string& name) {
        const std::string prefix = "option name " + name + " type ";
        for (const auto& l : declared)
            if (starts_with(l, prefix)) return l.substr(prefix.size());
        return std::string();
    };
    // The constants spsa.py may write back are the HORIZON_TUNABLE lines of params.hpp.
    std::vector<std::string> names;
    std::istringstream params(
        read_text_file(std::string(HORIZON_SOURCE_DIR) + "/src/search/params.hpp"));
    for (std::string line; std::getline(params, line);)
        if (starts_with(line, "HORIZON_TUNABLE("))
            names.push_back(line.substr(16, line.find(',') - 16));
    REQUIRE(names.size() >= 10);
#if HORIZON_TUNE
    REQUIRE(tunables().size() == names.size());
    for (const Tunable& t : tunables()) {
        INFO(t.name);
        CHECK(std::find(names.begin(), names.end(), t.name) != names.end());
        CHECK(declaration(t.name) == "spin default " + std::to_string(*t.value) + " min " +
                                         std::to_string(t.min) + " max " + std::to_string(t.max));
    }
    // A margin set by its option changes what the search does; set back, the search is the
    // same again. Values outside the range are clamped, as for any spin.
    const int saved = search_params::RFP_MARGIN_PER_DEPTH;
    const auto nodes_at_depth_7 = [&] {
        s.run("ucinewgame");
        s.send("position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8");
        const auto out = check_search_output(s.go("go depth 7"), s.engine.position());
        REQUIRE_FALSE(out.infos.empty());
        return out.last("nodes");
    };
    const long long before = nodes_at_depth_7();
    s.run("setoption name RFP_MARGIN_PER_DEPTH value 30");
    CHECK(search_params::RFP_MARGIN_PER_DEPTH == 30);
    const long long changed = nodes_at_depth_7();
    s.run("setoption name RFP_MARGIN_PER_DEPTH value 100000");
    CHECK(search_params::RFP_MARGIN_PER_DEPTH == 150);
    s.run("setoption name RFP_MARGIN_PER_DEPTH value " + std::to_string(saved));
    CHECK(search_params::RFP_MARGIN_PER_DEPTH == saved);
    CHECK(changed != before);
    CHECK(nodes_at_depth_7() == before);
#else
    for (const auto& name : names) {
        INFO(name);
        CHECK(declaration(name).empty());
    }
#endif
}

// --------------------------------------------------------------------------------------------
// go

TEST_CASE("go depth: info lines then one legal bestmove", "[uci]") {
    Session s;
    SECTION("start position") { s.send("position startpos"); }
    SECTION("kiwipete") {
        s.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    }
    SECTION("black to move") {
        s.send("position startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4");
    }
    const Position root = s.engine.position();
    const auto out = check_search_output(s.go("go depth 5"), root);
    CHECK(out.info_strings.empty());
    // Every depth from 1 to 5 is reported, and no deeper one.
    std::set<long long> depths;
    for (const auto& i : out.infos)
        depths.insert(i.num.at("depth"));
    CHECK(depths == std::set<long long>{1, 2, 3, 4, 5});
    // One report for each: the last one is not printed again before the bestmove.
    CHECK(out.infos.size() == 5);
    for (const auto& i : out.infos)
        CHECK(i.score_kind == "cp");
}

TEST_CASE("go nodes respects the node limit", "[uci]") {
    // The search's last report gives its whole nodes, wherever the limit stopped it: in the
    // first move of an iteration too, where it keeps no line of that iteration. Before the
    // totals line, in 11 of these 12 searches the last report gave the nodes of the last
    // completed iteration (996 at 1,000, 3,080 at 5,000).
    Session s;
    s.send("position startpos");
    for (long long limit = 1000; limit <= 12000; limit += 1000) {
        INFO("go nodes " << limit);
        const auto out =
            check_search_output(s.go("go nodes " + std::to_string(limit)), s.engine.position());
        // The limit is checked at every node once depth 1 is done: only the nodes already on
        // their way back up may exceed it.
        constexpr long long SLACK = 1024;
        for (const auto& i : out.infos)
            CHECK(i.num.at("nodes") <= limit + SLACK);
        CHECK(out.last("nodes") >= limit);
    }
}

TEST_CASE("UCI_LimitStrength on then off in one session", "[uci][strength]") {
    Session s;
    s.send("setoption name UCI_LimitStrength value true");
    s.send("setoption name UCI_Elo value 1400");
    s.send("setoption name StrengthSeed value 3");
    s.send("ucinewgame");
    const StrengthLevel level = strength_level(1400);
    // A few moves of a game under a clock: legal, within the node budget, the last info line
    // the line played (which may be any of the lines searched), given as the first line.
    std::string moves;
    int other_lines = 0;
    for (int ply = 0; ply < 6; ++ply) {
        s.send("position startpos" + (moves.empty() ? "" : " moves" + moves));
        const auto out = check_search_output(s.go("go wtime 5000 btime 5000 winc 50 binc 50"),
                                             s.engine.position(), level.lines);
        for (const auto& i : out.infos)
            CHECK(i.num.at("nodes") <= long(move_node_budget(level)) + 1024);
        CHECK(out.infos.back().num.at("multipv") == 1);
        for (const auto& note : out.info_strings)
            other_lines += note.find("playing line") != std::string::npos;
        moves += " " + out.best;
    }
    CHECK(other_lines > 0); // with this seed, some move is not the first line's
    // Off again, and a new game: the search is the full-strength one, node for node.
    s.send("setoption name UCI_LimitStrength value false");
    s.send("ucinewgame");
    s.send("position startpos moves e2e4 e7e5");
    const auto off = check_search_output(s.go("go depth 8"), s.engine.position());
    Session fresh;
    fresh.send("position startpos moves e2e4 e7e5");
    const auto full = check_search_output(fresh.go("go depth 8"), fresh.engine.position());
    CHECK(off.best == full.best);
    CHECK(off.last("nodes") == full.last("nodes"));
    CHECK(off.infos.size() == full.infos.size());
}

TEST_CASE("UCI_LimitStrength at a one-line level: the line played is not reported twice",
          "[uci][strength]") {
    Session s;
    s.send("setoption name UCI_LimitStrength value true");
    s.send("setoption name UCI_Elo value " + std::to_string(STRENGTH_ELO_MAX));
    REQUIRE(s.engine.strength().lines == 1);
    s.send("position startpos moves d2d4");
    // check_search_output refuses a report printed twice in a row.
    const auto out = check_search_output(s.go("go depth 6"), s.engine.position());
    CHECK(out.infos.size() == 6);
    CHECK(out.infos.back().num.at("depth") == 6);
}

TEST_CASE("UCI_AnalyseMode: analysis is at full strength while UCI_LimitStrength is on",
          "[uci][strength]") {
    const int lines = strength_level(1400).lines; // a limited search reports its lines
    const auto search = [](Session& s, int multipv = 1) {
        s.send("position startpos moves e2e4 e7e5");
        return check_search_output(s.go("go depth 8"), s.engine.position(), multipv);
    };
    Session fresh;
    const auto full = search(fresh);
    Session s;
    s.send("setoption name UCI_LimitStrength value true");
    s.send("setoption name UCI_Elo value 1400");
    s.send("setoption name StrengthSeed value 3");
    // Limited: the level's several lines are searched and reported (multipv 2 and more).
    REQUIRE(lines > 1);
    const auto several = [](const auto& out) {
        return std::any_of(out.infos.begin(), out.infos.end(),
                           [](const auto& i) { return i.num.at("multipv") > 1; });
    };
    CHECK(several(search(s, lines)));
    CHECK_FALSE(several(full));
    // Analysing: the full search, node for node; and limited again once analysis ends.
    s.send("setoption name UCI_AnalyseMode value true");
    s.send("ucinewgame");
    const auto analysed = search(s);
    CHECK(analysed.best == full.best);
    CHECK(analysed.last("nodes") == full.last("nodes"));
    CHECK(analysed.infos.size() == full.infos.size());
    s.send("setoption name UCI_AnalyseMode value false");
    CHECK(several(search(s, lines)));
}

TEST_CASE("go mate finds a mate in two", "[uci]") {
    Session s;
    // Two rooks against a lone king: no mate in one, but Ra7/Rb7 then mate on the 8th rank.
    const std::string fen = "7k/8/8/8/8/8/1R6/R6K w - - 0 1";
    Position root = position_from(fen);
    REQUIRE_FALSE(mates_in_one(root));
    s.send("position fen " + fen);
    const auto out = check_search_output(s.go("go mate 2"), root);
    const auto& last = out.infos.back();
    CHECK(last.score_kind == "mate");
    CHECK(last.score == 2);
    const auto best = parse_uci_move(root, out.best);
    REQUIRE(best);
    CHECK(forces_mate_in_two(root, *best));
}

TEST_CASE("go finds a mate in two for black", "[uci]") {
    Session s;
    // The mirror image: black to move mates in two.
    const std::string fen = "r6k/1r6/8/8/8/8/8/7K b - - 0 1";
    Position root = position_from(fen);
    REQUIRE_FALSE(mates_in_one(root));
    s.send("position fen " + fen);
    const auto out = check_search_output(s.go("go depth 6"), root);
    CHECK(out.infos.back().score_kind == "mate");
    CHECK(out.infos.back().score == 2);
    CHECK(forces_mate_in_two(root, *parse_uci_move(root, out.best)));
}

TEST_CASE("go: mate in one - and being mated in one", "[uci]") {
    Session s;
    SECTION("mate in one (back rank)") {
        s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        const auto out = check_search_output(s.go("go depth 4"), s.engine.position());
        CHECK(out.best == "a1a8");
        CHECK(out.infos.back().score_kind == "mate");
        CHECK(out.infos.back().score == 1);
    }
    SECTION("the side to move is mated next move whatever it plays") {
        // Kg8 is forced, then Ra8#: seen at depth 2 (late-move pruning must not drop the
        // quiet check Ra8+).
        s.send("position fen 7k/8/6K1/8/8/8/8/R7 b - - 0 1");
        const auto out = check_search_output(s.go("go depth 2"), s.engine.position());
        CHECK(out.best == "h8g8");
        CHECK(out.infos.back().score_kind == "mate");
        CHECK(out.infos.back().score == -1);
    }
}

namespace {

// Brute force, no search: the side to move mates within `n` moves whatever the defence.
bool wins_within(Position& pos, int n) {
    if (n <= 0) return false;
    MoveList list;
    generate<GenType::ALL>(pos, list);
    for (Move m : list) {
        pos.make_move(m);
        bool win = is_checkmate(pos);
        if (!win && n > 1 && has_legal_move(pos)) {
            win = true;
            MoveList replies;
            generate<GenType::ALL>(pos, replies);
            for (Move r : replies) {
                pos.make_move(r);
                win = wins_within(pos, n - 1);
                pos.unmake_move(r);
                if (!win) break;
            }
        }
        pos.unmake_move(m);
        if (win) return true;
    }
    return false;
}

// ... and is mated within `n` moves whatever it plays (it has a move).
bool mated_within(Position pos, int n) {
    MoveList list;
    generate<GenType::ALL>(pos, list);
    if (list.empty()) return false;
    for (Move m : list) {
        pos.make_move(m);
        const bool mated = wins_within(pos, n);
        pos.unmake_move(m);
        if (!mated) return false;
    }
    return true;
}

} // namespace

TEST_CASE("go mate N: mates against the side to move are found and end the search", "[uci][mate]") {
    Session s;
    struct Case {
        const char* fen;
        int mated_in; // the side to move is mated in this many moves, not fewer
    };
    for (const Case c :
         {Case{"7B/5R2/3p3N/3P4/2K1k2r/4N3/4Q3/8 b - - 0 1", 1},
          Case{"k7/2K5/8/8/8/8/8/1R6 b - - 0 1", 1}, Case{"1k6/8/2K5/8/8/8/8/7R b - - 0 1", 2},
          Case{"k7/8/K7/8/8/8/8/2R5 b - - 0 1", 2}}) {
        INFO(c.fen);
        const Position root = position_from(c.fen);
        REQUIRE(mated_within(root, c.mated_in));
        REQUIRE_FALSE(mated_within(root, c.mated_in - 1));
        for (int n = c.mated_in; n <= c.mated_in + 1; ++n) {
            INFO("go mate " << n);
            s.send("ucinewgame");
            s.send(std::string("position fen ") + c.fen);
            const auto out = check_search_output(s.go("go mate " + std::to_string(n)), root);
            CHECK(out.infos.back().score_kind == "mate");
            CHECK(out.infos.back().score == -c.mated_in);
            // Proven at depth 2K: the search ends there, not at 2N.
            CHECK(out.infos.back().num.at("depth") <= 2 * c.mated_in);
        }
    }
}

TEST_CASE("go mate N: a mate for the side to move ends the search once found", "[uci][mate]") {
    Session s;
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    const auto out = check_search_output(s.go("go mate 4"), s.engine.position());
    CHECK(out.best == "a1a8");
    CHECK(out.infos.back().score_kind == "mate");
    CHECK(out.infos.back().score == 1);
    CHECK(out.infos.back().num.at("depth") == 1);
}

TEST_CASE("tbhits counts the probes that ranked the root moves", "[uci][tablebases]") {
    Session s;
    s.send("setoption name SyzygyPath value " + tables_folder());
    // KRvK: the DTZ tables rank the root moves, and no probe is needed below them.
    s.send("position fen 8/8/8/4k3/8/8/8/4K2R w - - 0 1");
    MoveList legal;
    generate<GenType::ALL>(s.engine.position(), legal);
    const auto out = check_search_output(s.go("go depth 6"), s.engine.position());
    for (const auto& i : out.infos) {
        REQUIRE(i.num.count("tbhits"));
        CHECK(i.num.at("tbhits") >= long(legal.size()));
    }
}

TEST_CASE("stop with far more threads than cores: one bestmove, the engine usable after",
          "[uci][smp]") {
    Session s;
    s.send("setoption name Threads value 64");
    s.send("position startpos moves e2e4");
    for (int i = 0; i < 3; ++i) {
        const auto from = s.mark();
        s.send("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(50 + 50 * i));
        s.send("stop");
        s.wait_bestmove(from);
        check_search_output(s.since(from), s.engine.position());
    }
    s.send("setoption name Threads value 1");
    check_search_output(s.go("go depth 4"), s.engine.position());
}

TEST_CASE("go with no legal move: mated or stalemate", "[uci]") {
    Session s;
    SECTION("checkmated (fool's mate)") {
        s.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
        REQUIRE(is_checkmate(s.engine.position()));
        const auto out = check_search_output(s.go("go depth 3"), s.engine.position());
        CHECK(out.best == "(none)");
        CHECK(out.infos.back().score_kind == "mate");
        CHECK(out.infos.back().score == 0);
    }
    SECTION("stalemate") {
        s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        REQUIRE_FALSE(s.engine.position().in_check());
        REQUIRE_FALSE(has_legal_move(s.engine.position()));
        const auto out = check_search_output(s.go("go depth 3"), s.engine.position());
        CHECK(out.best == "(none)");
        CHECK(out.infos.back().score_kind == "cp");
        CHECK(out.infos.back().score == 0);
    }
    SECTION("with UCI_ShowWDL the result is exact: lost when mated, drawn at stalemate") {
        s.send("setoption name UCI_ShowWDL value true");
        s.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
        REQUIRE(is_checkmate(s.engine.position()));
        const auto mated = check_search_output(s.go("go depth 3"), s.engine.position());
        REQUIRE(mated.infos.size() == 1);
        CHECK(mated.infos[0].wdl == std::array<long long, 3>{0, 0, 1000});
        CHECK(mated.infos[0].score_kind == "mate");
        CHECK(mated.infos[0].score == 0);
        s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        const auto stalemate = check_search_output(s.go("go depth 3"), s.engine.position());
        REQUIRE(stalemate.infos.size() == 1);
        CHECK(stalemate.infos[0].wdl == std::array<long long, 3>{0, 1000, 0});
        CHECK(stalemate.best == "(none)");
    }
    SECTION("with an infinite search the bestmove still waits for stop") {
        s.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
        REQUIRE(is_checkmate(s.engine.position()));
        const auto from = s.mark();
        s.send("go infinite");
        std::this_thread::sleep_for(100ms);
        CHECK_FALSE(s.has_bestmove(from));
        s.send("stop");
        s.wait_bestmove(from, 5s);
        const auto out = check_search_output(s.since(from), s.engine.position());
        CHECK(out.best == "(none)");
    }
    // Still usable afterwards.
    s.send("position startpos");
    check_search_output(s.go("go depth 2"), s.engine.position());
}

TEST_CASE("MultiPV with searchmoves: one line per allowed move, ranked", "[uci]") {
    Session s;
    s.send("setoption name MultiPV value 3");
    s.send("position startpos");
    const auto out = check_search_output(s.go("go depth 6 searchmoves a2a3 g1f3 h2h4 b1a3"),
                                         s.engine.position(), 3);
    // Each completed depth has lines 1, 2 and 3, from the four allowed moves only, all
    // different, in order of score.
    std::map<long long, std::vector<const Info*>> by_depth;
    for (const auto& i : out.infos)
        by_depth[i.num.at("depth")].push_back(&i);
    const std::set<std::string> allowed{"a2a3", "g1f3", "h2h4", "b1a3"};
    int complete = 0;
    for (const auto& [depth, lines] : by_depth) {
        INFO("depth " << depth);
        REQUIRE(lines.size() == 3); // each line once: none repeated at the end
        ++complete;
        std::set<std::string> firsts;
        for (std::size_t k = 0; k < 3; ++k) {
            INFO("depth " << depth << " line " << k + 1);
            CHECK(lines[k]->num.at("multipv") == long(k) + 1);
            CHECK(allowed.count(lines[k]->pv.at(0)));
            firsts.insert(lines[k]->pv.at(0));
            if (k > 0 && lines[k]->score_kind == "cp" && lines[k - 1]->score_kind == "cp")
                CHECK(lines[k - 1]->score >= lines[k]->score);
        }
        CHECK(firsts.size() == 3);
    }
    CHECK(complete == 6);
    CHECK(allowed.count(out.best));
    // The last report is depth 6's three lines, the first one with the move played.
    REQUIRE(out.infos.size() == 18);
    CHECK(out.infos[15].num.at("multipv") == 1);
    CHECK(out.infos[15].pv.at(0) == out.best);
    CHECK(out.infos.back().num.at("multipv") == 3);
}

namespace {

// A score to compare: mates above every centipawn score, sooner ones higher.
long long comparable_score(const Info& i) {
    if (i.score_kind == "cp") return i.score;
    return i.score > 0 ? 1'000'000 - i.score : -1'000'000 - i.score;
}

// The last report of a MultiPV search of `n` lines: lines 1 to n with different moves, each
// line at the depth it was completed at (deeper lines first) and ranked among the lines of
// its depth; a line from a depth reported whole before is that report's line for its move, as
// it was. Returns whether the report mixes depths (an iteration stopped after some lines).
bool check_last_multipv_report(const SearchOutput& out, std::size_t n) {
    REQUIRE(out.infos.size() >= n);
    const std::vector<Info> last(out.infos.end() - long(n), out.infos.end());
    std::set<std::string> moves;
    for (std::size_t k = 0; k < n; ++k) {
        INFO("line " << k + 1 << " of the last report");
        CHECK(last[k].num.at("multipv") == long(k) + 1);
        REQUIRE(!last[k].pv.empty());
        moves.insert(last[k].pv.front());
        if (k == 0) continue;
        CHECK(last[k].num.at("depth") <= last[k - 1].num.at("depth"));
        if (last[k].num.at("depth") == last[k - 1].num.at("depth"))
            CHECK(comparable_score(last[k]) <= comparable_score(last[k - 1]));
    }
    CHECK(moves.size() == n);
    CHECK(last[0].pv.front() == out.best);
    // The whole reports before the last one, by depth.
    std::map<long long, std::vector<const Info*>> earlier;
    for (std::size_t i = 0; i + n < out.infos.size(); ++i)
        earlier[out.infos[i].num.at("depth")].push_back(&out.infos[i]);
    for (const Info& line : last) {
        const auto at = earlier.find(line.num.at("depth"));
        if (at == earlier.end() || at->second.size() < n) continue; // completed only now
        const auto same = std::find_if(at->second.end() - long(n), at->second.end(),
                                       [&](const Info* i) { return i->pv == line.pv; });
        INFO("line " << line.num.at("multipv") << " at depth " << line.num.at("depth"));
        REQUIRE(same != at->second.end());
        CHECK(comparable_score(**same) == comparable_score(line));
    }
    return last.front().num.at("depth") != last.back().num.at("depth");
}

} // namespace

TEST_CASE("MultiPV stopped within an iteration: the last report holds every line once",
          "[uci][multipv]") {
    Session s;
    s.send("setoption name MultiPV value 3");
    const std::string fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9";
    s.send("position fen " + fen);
    const Position root = s.engine.position();
    SECTION("node limits") {
        // Node limits that stop iterations at different points: before any line of the
        // iteration is complete, and after some; among them, some mix depths.
        int mixed = 0;
        for (int nodes = 40000; nodes <= 200000; nodes += 10000) {
            INFO("go nodes " << nodes);
            const auto out =
                check_search_output(s.go("go nodes " + std::to_string(nodes)), root, 3);
            mixed += check_last_multipv_report(out, 3);
            s.send("ucinewgame");
        }
        CHECK(mixed > 0);
    }
    SECTION("stop, with one thread and with several") {
        for (int i = 0; i < 4; ++i) {
            s.send("setoption name Threads value " + std::to_string(i % 2 ? 3 : 1));
            const auto from = s.mark();
            s.send("go infinite");
            std::this_thread::sleep_for(std::chrono::milliseconds(100 + 70 * i));
            s.send("stop");
            s.wait_bestmove(from);
            check_last_multipv_report(check_search_output(s.since(from), root, 3), 3);
        }
    }
}

TEST_CASE("go searchmoves restricts the root moves", "[uci]") {
    Session s;
    s.send("position startpos");
    const auto out =
        check_search_output(s.go("go searchmoves a2a3 b2b3 depth 4"), s.engine.position());
    CHECK((out.best == "a2a3" || out.best == "b2b3"));
    for (const auto& i : out.infos)
        CHECK((i.pv.front() == "a2a3" || i.pv.front() == "b2b3"));
    CHECK(out.info_strings.empty());

    // An illegal entry is reported and ignored; the legal one still restricts the search.
    const auto out2 =
        check_search_output(s.go("go searchmoves e2e5 h2h3 depth 3"), s.engine.position());
    CHECK(out2.info_strings.size() == 1);
    CHECK(out2.best == "h2h3");
}

TEST_CASE("go: bad values are reported and a bestmove still comes", "[uci]") {
    Session s;
    s.send("position startpos moves e2e4");
    const Position root = s.engine.position();
    struct Case {
        const char* cmd;
        long long max_depth; // deepest report expected (0: not checked)
    };
    for (const Case c :
         {Case{"go depth -1", 1}, Case{"go depth 0", 1}, Case{"go depth abc depth 2", 2},
          Case{"go nodes 0", 0}, Case{"go nodes -7", 0}, Case{"go movetime 0", 0},
          Case{"go wtime x depth 2", 2}, Case{"go depth movetime 50", 0},
          Case{"go frobnicate depth 2", 2}, Case{"go movestogo 0 depth 2", 2},
          Case{"go depth 99999999999999999999999 movetime 50", 0}}) {
        INFO(c.cmd);
        const auto out = check_search_output(s.go(c.cmd, 10s), root);
        CHECK(out.info_strings.size() == 1);
        if (c.max_depth) {
            long long deepest = 0;
            for (const auto& i : out.infos)
                deepest = std::max(deepest, i.num.at("depth"));
            CHECK(deepest == c.max_depth);
        }
    }
}

TEST_CASE("go: a drawn position by rule still gets a legal bestmove", "[uci]") {
    Session s;
    SECTION("fifty-move rule") { s.send("position fen 4k3/8/8/8/8/8/4P3/4K2R w K - 100 80"); }
    SECTION("threefold repetition") {
        s.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    }
    SECTION("insufficient material") { s.send("position fen 8/8/4k3/8/8/3K4/8/8 w - - 0 1"); }
    REQUIRE(s.engine.position().fen() != START);
    check_search_output(s.go("go depth 4"), s.engine.position());
}

TEST_CASE("go ponder: bestmove ... ponder X has a legal X", "[uci]") {
    Session s;
    // Some positions give a ponder move at depth 5; check each one that does.
    int with_ponder = 0;
    for (const char* pos :
         {"position startpos", "position startpos moves e2e4 e7e5",
          "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"}) {
        s.send(pos);
        const auto out = check_search_output(s.go("go depth 5"), s.engine.position());
        with_ponder += out.ponder.has_value();
    }
    CHECK(with_ponder > 0);
}

TEST_CASE("go infinite waits for stop", "[uci]") {
    Session s;
    s.send("position startpos");
    const auto from = s.mark();
    s.send("go infinite");
    std::this_thread::sleep_for(200ms);
    CHECK_FALSE(s.has_bestmove(from));
    CHECK(s.engine.searching());
    s.send("stop");
    s.wait_bestmove(from, 5s);
    CHECK_FALSE(s.engine.searching());
    check_search_output(s.since(from), s.engine.position());
    // A second stop changes nothing.
    const auto after = s.mark();
    s.send("stop");
    std::this_thread::sleep_for(20ms);
    CHECK(s.since(after).empty());
}

TEST_CASE("go infinite on a forced mate still waits for stop", "[uci]") {
    Session s;
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    const auto from = s.mark();
    s.send("go infinite");
    std::this_thread::sleep_for(200ms);
    CHECK_FALSE(s.has_bestmove(from));
    s.send("stop");
    s.wait_bestmove(from, 5s);
    CHECK(check_search_output(s.since(from), s.engine.position()).best == "a1a8");
}

TEST_CASE("go ponder then ponderhit", "[uci]") {
    Session s;
    s.send("position startpos moves e2e4");
    const auto from = s.mark();
    s.send("go ponder wtime 1000 btime 1000");
    // While pondering the clock does not run: 200 ms is far more than this move's share.
    std::this_thread::sleep_for(200ms);
    CHECK_FALSE(s.has_bestmove(from));
    s.send("ponderhit");
    s.wait_bestmove(from, 10s);
    const auto out = check_search_output(s.since(from), s.engine.position());
    // `time` and `nodes` both count from the go (check_search_output sees that neither runs
    // backwards across the ponderhit); the last line's time covers the 200 ms of pondering.
    REQUIRE_FALSE(out.infos.empty());
    CHECK(out.last("time") >= 200);
}

TEST_CASE("go ponder then stop (ponder miss)", "[uci]") {
    Session s;
    s.send("position startpos moves e2e4");
    const auto from = s.mark();
    s.send("go ponder wtime 1000 btime 1000");
    std::this_thread::sleep_for(100ms);
    CHECK_FALSE(s.has_bestmove(from));
    s.send("stop");
    s.wait_bestmove(from, 5s);
    check_search_output(s.since(from), s.engine.position());
}

TEST_CASE("stop and ponderhit while idle do nothing", "[uci]") {
    Session s;
    CHECK(s.run("stop").empty());
    CHECK(s.run("ponderhit").empty());
    CHECK(s.run("stop").empty());
    std::this_thread::sleep_for(20ms);
    CHECK(s.lines().empty());
    s.send("position startpos");
    check_search_output(s.go("go depth 2"), s.engine.position());
    // After a finished search, too.
    CHECK(s.run("ponderhit").empty());
    CHECK(s.run("stop").empty());
    check_search_output(s.go("go depth 2"), s.engine.position());
}

TEST_CASE("commands that arrive during a search", "[uci]") {
    Session s;
    s.send("position startpos");
    const auto from = s.mark();
    s.send("go infinite");
    std::this_thread::sleep_for(30ms);
    SECTION("go: the running search ends with its bestmove, then the new one runs") {
        s.send("go depth 2");
        s.wait_bestmove(from, 5s);
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        while (count_prefix(s.since(from), "bestmove") < 2 &&
               std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(1ms);
        s.engine.wait();
        CHECK(count_prefix(s.since(from), "bestmove") == 2);
    }
    SECTION("position: the search stops, the position changes") {
        s.send("position startpos moves d2d4");
        s.wait_bestmove(from, 5s);
        CHECK(count_prefix(s.since(from), "bestmove") == 1);
        CHECK(s.engine.position().side_to_move() == BLACK);
    }
    SECTION("ucinewgame: the search stops") {
        s.send("ucinewgame");
        s.wait_bestmove(from, 5s);
        CHECK(count_prefix(s.since(from), "bestmove") == 1);
    }
    SECTION("isready is answered while the search runs") {
        const auto mark = s.mark();
        s.send("isready");
        CHECK(count_prefix(s.since(mark), "readyok") == 1);
        CHECK(s.engine.searching());
        s.send("stop");
        s.wait_bestmove(from, 5s);
    }
}

// --------------------------------------------------------------------------------------------
// Robustness

TEST_CASE("odd input never breaks the loop", "[uci]") {
    Session s;
    s.send("position startpos moves e2e4");
    const std::string before = s.engine.position().fen();

    CHECK(s.run("").empty());
    CHECK(s.run("   ").empty());
    CHECK(s.run("\t \t").empty());
    CHECK(s.run("\r").empty());
    CHECK(s.run("isready\r") == std::vector<std::string>{"readyok"});
    CHECK(s.run("  \t isready  \t ") == std::vector<std::string>{"readyok"});

    // Unknown command: one info string.
    auto out = s.run("frobnicate the engine");
    REQUIRE(out.size() == 1);
    CHECK(starts_with(out[0], "info string "));
    // Case matters in UCI.
    out = s.run("ISREADY");
    REQUIRE(out.size() == 1);
    CHECK(starts_with(out[0], "info string "));

    // A 1 MB line of garbage: one short info string.
    std::string garbage;
    garbage.reserve(1 << 20);
    for (std::size_t i = 0; garbage.size() < (1u << 20); ++i)
        garbage += char('!' + (i * 7919) % 90) + std::string((i % 13 == 0) ? " " : "");
    out = s.run(garbage);
    REQUIRE(out.size() == 1);
    CHECK(starts_with(out[0], "info string "));
    CHECK(out[0].size() < 1000);
    out = s.run("position fen " + garbage);
    REQUIRE(out.size() == 1);
    CHECK(out[0].size() < 1000);
    out = s.run("setoption name " + garbage + " value 3");
    REQUIRE(out.size() == 1);
    CHECK(out[0].size() < 1000);

    // Every byte but the newline, once each.
    std::string bytes;
    for (int b = 0; b < 256; ++b)
        if (b != '\n') bytes += char(b);
    out = s.run(bytes);
    REQUIRE(out.size() == 1);
    CHECK(starts_with(out[0], "info string "));
    out = s.run("position fen " + bytes);
    REQUIRE(out.size() == 1);
    out = s.run("position startpos moves e2e4 " + bytes);
    REQUIRE(out.size() == 1);
    out = s.run("setoption name " + bytes + " value 1");
    REQUIRE(out.size() == 1);
    out = s.run("go " + bytes + " depth 1");
    CHECK(count_prefix(out, "info string") >= 1);
    s.wait_bestmove(0, 5s);

    // Bad input is never echoed back raw: every reply is printable ASCII.
    for (const auto& l : s.lines()) {
        INFO(l.substr(0, 80));
        CHECK(std::all_of(l.begin(), l.end(), [](char c) {
            return static_cast<unsigned char>(c) >= 32 && static_cast<unsigned char>(c) < 127;
        }));
    }
    // Still the same position, still answering, still searching.
    CHECK(s.engine.position().fen() == before);
    CHECK(s.run("isready") == std::vector<std::string>{"readyok"});
    check_search_output(s.go("go depth 2"), s.engine.position());
}

TEST_CASE("runs of whitespace and tabs separate tokens", "[uci]") {
    Session s;
    CHECK(s.run("  position   startpos\tmoves e2e4 ").empty());
    Position expect = position_from(START);
    expect.make_move(*parse_uci_move(expect, "e2e4"));
    CHECK(s.engine.position().fen() == expect.fen());

    CHECK(s.run("setoption\tname  Move   Overhead \t value\t 77").empty());
    CHECK(s.engine.move_overhead() == 77);

    CHECK(s.run("position startpos moves g1f3 g8f6\r").empty());
    CHECK(s.engine.position().side_to_move() == WHITE);
    check_search_output(s.go("go\tdepth  2\r"), s.engine.position());
}

// --------------------------------------------------------------------------------------------
// d, eval, perft

TEST_CASE("d shows the board - FEN - key and checkers", "[uci]") {
    Session s;
    s.send("position startpos moves e2e4 f7f6 d1h5");
    const auto out = s.run("d");
    const Position& pos = s.engine.position();
    REQUIRE(pos.in_check());
    CHECK(std::find(out.begin(), out.end(), "Fen: " + pos.fen()) != out.end());
    CHECK(std::find(out.begin(), out.end(), "Checkers: h5") != out.end());
    const auto key =
        std::find_if(out.begin(), out.end(), [](auto& l) { return starts_with(l, "Key: "); });
    REQUIRE(key != out.end());
    CHECK(std::stoull(key->substr(5), nullptr, 16) == pos.key());
    // Eight board ranks.
    int ranks = 0;
    for (const auto& l : out)
        if (!l.empty() && l.find('|') != std::string::npos) ++ranks;
    CHECK(ranks == 8);

    s.send("position startpos");
    const auto start = s.run("d");
    CHECK(std::find(start.begin(), start.end(), "Checkers:") != start.end());
    CHECK(std::find(start.begin(), start.end(), "Fen: " + START) != start.end());
}

TEST_CASE("eval prints the term table and the final evaluation", "[uci]") {
    Session s;
    s.send("position startpos moves e2e4");
    const auto out = s.run("eval");
    CHECK(count_prefix(out, "Final evaluation") == 1);
    for (const char* term : {"material", "mobility", "tempo"})
        CHECK(std::any_of(out.begin(), out.end(), [&](auto& l) { return starts_with(l, term); }));
}

TEST_CASE("go perft prints divide and the node count", "[uci]") {
    Session s;
    s.send("position startpos");
    const auto out = s.run("go perft 3");
    // 20 "move: count" lines, a blank line, then the total.
    REQUIRE(out.size() >= 22);
    std::set<std::string> moves;
    long long sum = 0;
    for (int i = 0; i < 20; ++i) {
        INFO(out[std::size_t(i)]);
        const auto colon = out[std::size_t(i)].find(": ");
        REQUIRE(colon != std::string::npos);
        const std::string mv = out[std::size_t(i)].substr(0, colon);
        CHECK(parse_uci_move(s.engine.position(), mv));
        moves.insert(mv);
        sum += std::stoll(out[std::size_t(i)].substr(colon + 2));
    }
    CHECK(moves.size() == 20);
    CHECK(sum == 8902);
    CHECK(out[20].empty());
    CHECK(out[21] == "Nodes searched: 8902");
    CHECK(count_prefix(out, "bestmove") == 0);

    // Kiwipete: 2039 leaves at depth 2 (the published count).
    s.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const auto kiwi = s.run("go perft 2");
    CHECK(std::find(kiwi.begin(), kiwi.end(), "Nodes searched: 2039") != kiwi.end());
}

// --------------------------------------------------------------------------------------------
// run()

TEST_CASE("run returns at end of input and stops a running search", "[uci]") {
    CaptureBuf buf;
    std::ostream out(&buf);
    std::istringstream in("uci\nisready\nposition startpos\ngo infinite\n");
    Engine engine;
    UciLoop loop(in, out, engine);
    const auto start = std::chrono::steady_clock::now();
    loop.run();
    CHECK(std::chrono::steady_clock::now() - start < 5s);
    CHECK_FALSE(engine.searching());
    const auto lines = complete_lines(buf.snapshot());
    CHECK(count_prefix(lines, "uciok") == 1);
    CHECK(count_prefix(lines, "readyok") == 1);
    CHECK(count_prefix(lines, "bestmove") == 1);
    CHECK(starts_with(lines.back(), "bestmove"));
}

TEST_CASE("run: a last line without a newline is still handled", "[uci]") {
    CaptureBuf buf;
    std::ostream out(&buf);
    std::istringstream in("isready\r\nisready");
    Engine engine;
    UciLoop loop(in, out, engine);
    loop.run();
    CHECK(complete_lines(buf.snapshot()) == std::vector<std::string>{"readyok", "readyok"});
}

TEST_CASE("quit ends the loop - later lines are not read", "[uci]") {
    CaptureBuf buf;
    std::ostream out(&buf);
    std::istringstream in("isready\nposition startpos\ngo infinite\nquit\nisready\nuci\n");
    Engine engine;
    UciLoop loop(in, out, engine);
    loop.run();
    const auto lines = complete_lines(buf.snapshot());
    CHECK(count_prefix(lines, "readyok") == 1);
    CHECK(count_prefix(lines, "uciok") == 0);
    CHECK(count_prefix(lines, "bestmove") == 1);
    CHECK_FALSE(engine.searching());
    // handle() says so too.
    Session s;
    CHECK(s.send("isready"));
    CHECK_FALSE(s.send("quit"));
    CHECK_FALSE(s.send("  quit  "));
}

TEST_CASE("Hash at its maximum is taken at once and searched with; too much is refused", "[uci]") {
    Session s;
    // 16384 MiB: the table is allocated lazily, so this answers without touching 16 GiB.
    // (How fast: `horizon uci-bench` measures Hash 16384 + ucinewgame to readyok.)
    const std::size_t physical = TranspositionTable::physical_mib();
    REQUIRE(physical > 0);
    auto out = s.run("setoption name Hash value 16384");
    if (physical >= 16384) {
        CHECK(out.empty());
        CHECK(s.engine.hash_mib() == 16384);
    } else {
        // A machine with less memory than that refuses it and keeps its table.
        REQUIRE(out.size() == 1);
        CHECK(out[0].find("refused") != std::string::npos);
        CHECK(s.engine.hash_mib() == Engine::DEFAULT_HASH_MIB);
    }
    CHECK(s.run("isready") == std::vector<std::string>{"readyok"});
    s.send("ucinewgame");
    s.send("position startpos");
    check_search_output(s.go("go depth 6"), s.engine.position());
    // Back to a small table: the big one is given back.
    CHECK(s.run("setoption name Hash value 8").empty());
    CHECK(s.engine.hash_mib() == 8);
}

TEST_CASE("Threads: searches with several threads through UCI give legal moves", "[uci][smp]") {
    Session s;
    CHECK(s.run("setoption name Threads value 3").empty());
    CHECK(s.engine.threads() == 3);
    s.send("position startpos moves e2e4 c7c5");
    const auto out = check_search_output(s.go("go depth 8"), s.engine.position());
    CHECK(out.infos.back().num.at("depth") >= 8);
    s.send("position startpos");
    check_search_output(s.go("go movetime 200"), s.engine.position());
    CHECK(s.run("setoption name Threads value 1").empty());
    CHECK(s.engine.threads() == 1);
}

TEST_CASE("go with a single legal move answers at once under a clock", "[uci]") {
    Session s;
    // Black king in check with one legal move: no need to think for long.
    s.send("position fen 7k/8/8/8/8/8/6R1/6RK b - - 0 1");
    const auto out = check_search_output(s.go("go wtime 600000 btime 600000"), s.engine.position());
    CHECK(out.best == "h8h7");
    // The iteration stopped well before any time limit: depth stayed small.
    CHECK(out.infos.back().num.at("depth") <= 3);
}

TEST_CASE("go movetime searches one allowed move for its time - searchmoves is not a forced move",
          "[uci]") {
    Session s;
    // Analysing one move (searchmoves) or a forced position for a fixed time: the time is the
    // user's, so the search goes on past the forced move's depth 2. 300 ms reaches far deeper
    // than depth 3 even on a loaded machine; stopping at once would report depth 2.
    s.send("position startpos");
    auto out = check_search_output(s.go("go movetime 300 searchmoves e2e4"), s.engine.position());
    CHECK(out.best == "e2e4");
    CHECK(out.infos.back().num.at("depth") > 3);
    s.send("position fen 7k/8/8/8/8/8/6R1/6RK b - - 0 1");
    out = check_search_output(s.go("go movetime 300"), s.engine.position());
    CHECK(out.best == "h8h7");
    CHECK(out.infos.back().num.at("depth") > 3);
    // Under a game clock, one allowed move is played at once, as one legal move is.
    s.send("position startpos");
    out = check_search_output(s.go("go wtime 600000 btime 600000 searchmoves d2d4"),
                              s.engine.position());
    CHECK(out.best == "d2d4");
    CHECK(out.infos.back().num.at("depth") <= 3);
}

// --------------------------------------------------------------------------------------------
// EvalFile and UCI_ShowWDL

namespace {

// The `Final evaluation` line of the `eval` command.
std::string final_evaluation(Session& s) {
    const auto out = s.run("eval");
    for (const auto& l : out)
        if (starts_with(l, "Final evaluation")) return l;
    FAIL("no Final evaluation line in the eval output");
    return "";
}

// engine.json with the tempo weights changed, and (optionally) knights worth far more.
nlohmann::json changed_weights(bool heavy_knights = false) {
    nlohmann::json j = builtin_config();
    j["eval"]["tempo"] = nlohmann::json::array({{60, 40}});
    if (heavy_knights) j["eval"]["material"][1] = {3000, 3000};
    return j;
}

} // namespace

TEST_CASE("EvalFile: a good file changes eval and search - the default restores the built-in",
          "[uci][evalfile]") {
    TempDir dir;
    const std::string file = dir.write("weights.json", changed_weights(true).dump(2));
    Session s;
    s.send("position startpos moves e2e4");
    const std::string builtin_eval = final_evaluation(s);

    CHECK(s.run("setoption name EvalFile value " + file).empty());
    CHECK(s.loop_option("EvalFile") == file);
    const std::string loaded_eval = final_evaluation(s);
    CHECK(loaded_eval != builtin_eval);
    CHECK(s.engine.weights().params(Term::tempo).mg == 60);
    CHECK(s.engine.weights().params.signature != default_eval_params().signature);

    // The search evaluates with them: a knight up is worth thousands now.
    s.send("position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K3 w - - 0 1");
    auto out = check_search_output(s.go("go depth 3"), s.engine.position());
    CHECK(out.infos.back().score_kind == "cp");
    CHECK(out.infos.back().score > 2000);

    SECTION("<built-in>") {
        CHECK(s.run(std::string("setoption name EvalFile value ") + UciLoop::EVAL_FILE_BUILTIN)
                  .empty());
    }
    SECTION("<empty>") { CHECK(s.run("setoption name EvalFile value <empty>").empty()); }
    SECTION("no value") { CHECK(s.run("setoption name EvalFile").empty()); }
    out = check_search_output(s.go("go depth 3"), s.engine.position());
    CHECK(out.infos.back().score < 1000);
    CHECK(s.engine.weights().params.signature == default_eval_params().signature);
    s.send("position startpos moves e2e4");
    CHECK(final_evaluation(s) == builtin_eval);
}

TEST_CASE("EvalFile: a bad file is refused by one info string naming file and key - weights stay",
          "[uci][evalfile]") {
    TempDir dir;
    const std::string good = dir.write("good.json", changed_weights().dump());
    Session s;
    s.send("position startpos moves e2e4");
    REQUIRE(s.run("setoption name EvalFile value " + good).empty());
    const std::string good_eval = final_evaluation(s);
    const auto signature = s.engine.weights().params.signature;

    nlohmann::json missing_eval = changed_weights();
    missing_eval.erase("eval");
    nlohmann::json missing_term = changed_weights();
    missing_term["eval"].erase("passed_free");
    nlohmann::json wrong_size = changed_weights();
    wrong_size["eval"]["mobility_queen"].erase(0);
    nlohmann::json wrong_shape = changed_weights();
    wrong_shape["eval"]["doubled_pawn"] = {-10, -20};
    nlohmann::json non_number = changed_weights();
    non_number["eval"]["hanging_piece"][0][0] = "ten";
    nlohmann::json wdl_shape = changed_weights();
    wdl_shape["wdl"]["a"] = {0, 150};
    nlohmann::json wdl_non_number = changed_weights();
    wdl_non_number["wdl"]["b"][3] = nullptr;

    const std::vector<std::pair<std::string, std::string>> cases = {
        {dir.path("missing.json"), "no such file"},
        {dir.write("bad-json.json", "{\"eval\": {\"tempo\": [[1, 2]]"), "not valid JSON"},
        {dir.write("missing-eval.json", missing_eval.dump()), "\"eval\""},
        {dir.write("missing-term.json", missing_term.dump()), "passed_free"},
        {dir.write("wrong-size.json", wrong_size.dump()), "mobility_queen"},
        {dir.write("wrong-shape.json", wrong_shape.dump()), "doubled_pawn"},
        {dir.write("non-number.json", non_number.dump()), "hanging_piece"},
        {dir.write("wdl-shape.json", wdl_shape.dump()), "\"a\""},
        {dir.write("wdl-non-number.json", wdl_non_number.dump()), "\"b\""},
    };
    for (const auto& [file, key] : cases) {
        INFO(file);
        const auto out = s.run("setoption name EvalFile value " + file);
        REQUIRE(out.size() == 1);
        CHECK(starts_with(out[0], "info string option EvalFile: "));
        CHECK(out[0].find(file) != std::string::npos);
        CHECK(out[0].find(key) != std::string::npos);
        CHECK(out[0].find("kept " + good) != std::string::npos);
        CHECK(s.loop_option("EvalFile") == good);
        CHECK(s.engine.weights().params.signature == signature);
        CHECK(final_evaluation(s) == good_eval);
    }
    // Still searches with the last good weights.
    check_search_output(s.go("go depth 3"), s.engine.position());
}

TEST_CASE("EvalFile: a path with spaces and backslashes is kept as written - a final CR dropped",
          "[uci][evalfile]") {
    // What a Windows GUI sends: `setoption name EvalFile value C:\My  Files\w.json` + CR LF.
    // Here the backslashes are part of one file name, and the two spaces must stay two.
    TempDir dir;
    const std::string file = dir.write("My  Files\\engine weights.json", changed_weights().dump());
    Session s;
    CHECK(s.run("setoption name EvalFile value " + file + "\r").empty());
    CHECK(s.loop_option("EvalFile") == file);
    CHECK(s.engine.weights().params(Term::tempo).mg == 60);
    // White space around the value is not part of it.
    CHECK(s.run("setoption name EvalFile value <built-in>").empty());
    CHECK(s.engine.weights().params(Term::tempo).mg != 60);
    CHECK(s.run("setoption name EvalFile value \t " + file + " \t \r").empty());
    CHECK(s.loop_option("EvalFile") == file);
    CHECK(s.engine.weights().params(Term::tempo).mg == 60);
}

TEST_CASE("UCI_ShowWDL: on - every score carries wdl W D L summing to 1000 - off - none does",
          "[uci][wdl]") {
    Session s;
    s.send("position startpos moves e2e4 d7d5 e4d5 d8d5 b1c3");
    auto out = check_search_output(s.go("go depth 4"), s.engine.position());
    for (const auto& i : out.infos)
        CHECK_FALSE(i.wdl);

    CHECK(s.run("setoption name UCI_ShowWDL value true").empty());
    out = check_search_output(s.go("go depth 4"), s.engine.position());
    const int material = wdl_material(s.engine.position());
    for (const auto& i : out.infos) {
        REQUIRE(i.wdl);
        // From the side to move's view, at the root's material, through the model in use.
        if (i.score_kind == "cp") {
            const Wdl w = wdl_from_score(s.engine.weights().wdl, Score(i.score), material);
            CHECK((*i.wdl)[0] == w.win);
            CHECK((*i.wdl)[1] == w.draw);
            CHECK((*i.wdl)[2] == w.loss);
        }
    }
    // A fail-high or fail-low line keeps its bound right after the score, before wdl:
    // parse_info takes wdl only there, so its presence above proves the order too.

    // A clearly better side to move wins more than it loses; a mate is certain.
    s.send("position fen 4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1");
    out = check_search_output(s.go("go depth 3"), s.engine.position());
    REQUIRE(out.infos.back().wdl);
    CHECK((*out.infos.back().wdl)[0] > (*out.infos.back().wdl)[2]);
    s.send("position fen 4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR b KQ - 0 1");
    out = check_search_output(s.go("go depth 3"), s.engine.position());
    REQUIRE(out.infos.back().wdl);
    CHECK((*out.infos.back().wdl)[0] < (*out.infos.back().wdl)[2]);
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    out = check_search_output(s.go("go depth 4"), s.engine.position());
    CHECK(out.infos.back().score_kind == "mate");
    CHECK(out.infos.back().wdl == std::array<long long, 3>{1000, 0, 0});
    s.send("position startpos moves f2f3 e7e5 g2g4 d8h4"); // white is mated: no move
    out = check_search_output(s.go("go depth 3"), s.engine.position());
    CHECK(out.infos.back().wdl == std::array<long long, 3>{0, 0, 1000});

    CHECK(s.run("setoption name UCI_ShowWDL value false").empty());
    s.send("position startpos");
    out = check_search_output(s.go("go depth 3"), s.engine.position());
    for (const auto& i : out.infos)
        CHECK_FALSE(i.wdl);
}

TEST_CASE("format_info puts wdl after the score and its bound", "[uci][wdl]") {
    const Position root = position_from(START);
    SearchReport r;
    r.depth = 3;
    r.seldepth = 4;
    r.score = 40;
    r.bound = BOUND_LOWER;
    r.nodes = 100;
    r.pv = {*parse_uci_move(root, "e2e4")};
    WdlModel m;
    m.a[3] = 150;
    m.b[3] = 80;
    const Wdl w = wdl_from_score(m, 40, 78);
    const std::string line = UciLoop::format_info(r, root, &m);
    INFO(line);
    CHECK(line.find("score cp 40 lowerbound wdl " + std::to_string(w.win) + " " +
                    std::to_string(w.draw) + " " + std::to_string(w.loss) + " nodes ") !=
          std::string::npos);
    CHECK(UciLoop::format_info(r, root).find("wdl") == std::string::npos);
}
