#include "uci/uci.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <istream>
#include <set>
#include <sstream>

#include "engine/bench.hpp"
#include "engine/config.hpp"
#include "eval/params.hpp"
#include "eval/wdl.hpp"
#include "movegen/movegen.hpp"
#include "notation/uci_move.hpp"
#include "search/tunable.hpp"

namespace horizon {

namespace {

constexpr std::size_t MAX_ECHO = 48; // longest piece of bad input echoed back

// Shortens text quoted back to the GUI; info_string makes it printable.
std::string clip(const std::string& s, std::size_t max = MAX_ECHO) {
    return s.size() > max ? s.substr(0, max) + "..." : s;
}

// White space between tokens; `\r` among it, so lines ending in `\r\n` read as any other.
bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : line) {
        if (is_space(c)) {
            if (!cur.empty()) out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(std::move(cur));
    return out;
}

// The text of `line` after its first `skip` tokens as it was written (runs of white space inside
// it kept), without the white space around it: an option value such as a Windows path with
// spaces and backslashes, from a GUI that ends its lines with `\r\n`.
std::string text_after_tokens(const std::string& line, std::size_t skip) {
    std::size_t i = 0;
    for (std::size_t token = 0; token <= skip; ++token) {
        while (i < line.size() && is_space(line[i]))
            ++i;
        if (token == skip) break;
        while (i < line.size() && !is_space(line[i]))
            ++i;
    }
    std::size_t end = line.size();
    while (end > i && is_space(line[end - 1]))
        --end;
    return line.substr(i, end - i);
}

std::string join(const std::vector<std::string>& v, std::size_t from, std::size_t to) {
    std::string out;
    for (std::size_t i = from; i < to && i < v.size(); ++i)
        out += (out.empty() ? "" : " ") + v[i];
    return out;
}

std::optional<long long> parse_int(const std::string& s) {
    long long v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

const std::set<std::string> GO_KEYWORDS = {"searchmoves", "ponder",    "wtime", "btime", "winc",
                                           "binc",        "movestogo", "depth", "nodes", "mate",
                                           "movetime",    "infinite",  "perft"};

} // namespace

UciLoop::UciLoop(std::istream& in, std::ostream& out, Engine& engine)
    : in_(in), out_(out), engine_(engine) {
    register_options();
}

void UciLoop::info_string(const std::string& text) {
    // Messages may quote bad input: whatever it held, the line stays printable ASCII.
    std::string safe = text;
    for (char& c : safe)
        if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
    out_.line("info string " + safe);
}

void UciLoop::register_options() {
    register_search_options();
    register_tablebase_options();
    register_strength_options();
    register_eval_options();
}

// Hash, threads, lines, pondering, time, the UCI_ flags of the protocol.
void UciLoop::register_search_options() {
    using T = UciOption::Type;
    options_.add(
        {"Hash", T::SPIN, std::to_string(Engine::DEFAULT_HASH_MIB), 1, Engine::MAX_HASH_MIB, "",
         [this](const std::string& v) -> std::optional<std::string> {
             if (!engine_.set_hash(std::stoull(v)))
                 return "Hash " + v + " MiB refused: this machine cannot hold it (" +
                        std::to_string(TranspositionTable::physical_mib()) +
                        " MiB of memory); keeping " + std::to_string(engine_.hash_mib()) + " MiB";
             return std::nullopt;
         }});
    options_.add({"Clear Hash", T::BUTTON, "", 0, 0, "",
                  [this](const std::string&) -> std::optional<std::string> {
                      engine_.wait();
                      engine_.clear_hash();
                      return std::nullopt;
                  }});
    options_.add({"Threads", T::SPIN, "1", 1, 256, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      engine_.set_threads(std::stoi(v));
                      return std::nullopt;
                  }});
    options_.add({"MultiPV", T::SPIN, "1", 1, 256, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      engine_.set_multipv(std::stoi(v));
                      return std::nullopt;
                  }});
    options_.add({"Ponder", T::CHECK, "false", 0, 0, "", nullptr});
    options_.add({"Move Overhead", T::SPIN, std::to_string(Engine::DEFAULT_MOVE_OVERHEAD), 0, 5000,
                  "", [this](const std::string& v) -> std::optional<std::string> {
                      engine_.set_move_overhead(std::stoi(v));
                      return std::nullopt;
                  }});
    options_.add({"UCI_Chess960", T::CHECK, "false", 0, 0, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      engine_.set_chess960(v == "true");
                      return std::nullopt;
                  }});
    // A GUI sets it while it analyses: the search is then at full strength whatever
    // UCI_LimitStrength says, so that a player's analysis is not the limited opponent's.
    options_.add({"UCI_AnalyseMode", T::CHECK, "false", 0, 0, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      analyse_mode_ = v == "true";
                      engine_.set_limit_strength(limit_strength_ && !analyse_mode_);
                      return std::nullopt;
                  }});
    options_.add({"UCI_ShowWDL", T::CHECK, "false", 0, 0, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      show_wdl_ = v == "true";
                      return std::nullopt;
                  }});
}

// Syzygy tablebases.
void UciLoop::register_tablebase_options() {
    using T = UciOption::Type;
    // Syzygy tablebases: the folders, separated as the system separates paths (':' on Linux,
    // ';' on Windows); empty or <empty>: none. The answer names what was found.
    options_.add({"SyzygyPath", T::STRING, "<empty>", 0, 0, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      // Never refused: what cannot be used is named, and play goes on with
                      // the rest (or without tables).
                      tb_load_ = engine_.set_syzygy_path(v);
                      return std::nullopt;
                  }},
                 [this](const std::string& v) {
                     if (v.empty()) return std::string("Syzygy tables off");
                     std::string text = "Syzygy: " + tb_load_.summary();
                     if (!engine_.tablebases().enabled()) text += "; playing on without tables";
                     for (const auto& problem : tb_load_.problems)
                         text += "; " + problem;
                     return clip(text, 400);
                 });
    options_.add({"SyzygyProbeDepth", T::SPIN, "1", 1, 100, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      engine_.set_tb_probe_depth(std::stoi(v));
                      return std::nullopt;
                  }});
    options_.add({"Syzygy50MoveRule", T::CHECK, "true", 0, 0, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      engine_.set_tb_rule50(v == "true");
                      return std::nullopt;
                  }});
    options_.add({"SyzygyProbeLimit", T::SPIN, std::to_string(TbConfig::MAX_PIECES), 0,
                  TbConfig::MAX_PIECES, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      engine_.set_tb_probe_limit(std::stoi(v));
                      return std::nullopt;
                  }});
}

// Play at a chosen strength.
void UciLoop::register_strength_options() {
    using T = UciOption::Type;
    // Play at a chosen strength (search/strength.hpp); UCI_Elo outside its range is refused.
    options_.add({"UCI_LimitStrength", T::CHECK, "false", 0, 0, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      limit_strength_ = v == "true";
                      engine_.set_limit_strength(limit_strength_ && !analyse_mode_);
                      return std::nullopt;
                  }});
    options_.add({"UCI_Elo", T::SPIN, std::to_string(Engine::DEFAULT_ELO), STRENGTH_ELO_MIN,
                  STRENGTH_ELO_MAX, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      engine_.set_elo(std::stoi(v));
                      return std::nullopt;
                  },
                  true});
    // The limited choices' seed: the same seed, the same game (0: another at each new game).
    options_.add({"StrengthSeed", T::SPIN, "0", 0, 2147483647, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      engine_.set_strength_seed(std::stoull(v));
                      return std::nullopt;
                  }});
}

// The evaluation's weights, and (in the spsa build) the search constants.
void UciLoop::register_eval_options() {
    using T = UciOption::Type;
    // A calibration's trial row of the strength table is no option a GUI shows: it comes from
    // the command line (horizon --strength-override ROW) through the Engine.
    // A weights file in engine.json's schema; the default (or an empty value) is the built-in
    // weights. A file that cannot be loaded changes nothing.
    options_.add({"EvalFile", T::STRING, EVAL_FILE_BUILTIN, 0, 0, "",
                  [this](const std::string& v) -> std::optional<std::string> {
                      if (v.empty() || v == EVAL_FILE_BUILTIN) {
                          engine_.set_weights(builtin_weights());
                          return std::nullopt;
                      }
                      EvalWeights weights;
                      if (auto err = EvalWeights::load(v, weights)) return clip(*err, 400);
                      engine_.set_weights(weights);
                      return std::nullopt;
                  }});
#if HORIZON_TUNE
    // The search constants SPSA tunes (search/params.hpp), by their own names.
    for (const Tunable& t : tunables())
        options_.add({t.name, T::SPIN, std::to_string(*t.value), t.min, t.max, "",
                      [value = t.value](const std::string& v) -> std::optional<std::string> {
                          *value = std::stoi(v);
                          return std::nullopt;
                      }});
#endif
}

std::optional<std::string> UciLoop::set_option(const std::string& name, const std::string& value) {
    if (engine_.searching()) {
        engine_.stop();
        engine_.wait();
    }
    return options_.set(name, value);
}

std::optional<std::string> UciLoop::option_value(const std::string& name) const {
    if (const UciOption* o = options_.find(name)) return o->value;
    return std::nullopt;
}

void UciLoop::run() {
    for (std::string line; std::getline(in_, line);)
        if (!handle(line)) break;
    engine_.stop();
    engine_.wait();
}

bool UciLoop::handle(const std::string& line) {
    const auto t = split(line);
    if (t.empty()) return true;
    const std::string& cmd = t[0];
    const std::vector<std::string> args(t.begin() + 1, t.end());

    if (cmd == "quit") {
        engine_.stop();
        return false;
    }
    if (cmd == "isready") {
        out_.line("readyok");
    } else if (cmd == "uci") {
        cmd_uci();
    } else if (cmd == "debug") {
        if (args.size() == 1 && (args[0] == "on" || args[0] == "off"))
            debug_ = args[0] == "on";
        else
            info_string("debug takes 'on' or 'off'");
    } else if (cmd == "stop") {
        engine_.stop();
    } else if (cmd == "ponderhit") {
        engine_.ponderhit();
    } else if (cmd == "setoption") {
        cmd_setoption(line, args);
    } else if (cmd == "ucinewgame") {
        engine_.stop();
        engine_.new_game();
    } else if (cmd == "position") {
        cmd_position(args);
    } else if (cmd == "go") {
        cmd_go(args);
    } else if (cmd == "d") {
        std::istringstream board(engine_.position().pretty());
        for (std::string l; std::getline(board, l);)
            out_.line(l);
    } else if (cmd == "eval") {
        std::istringstream trace(engine_.eval_trace());
        for (std::string l; std::getline(trace, l);)
            out_.line(l);
    } else if (cmd == "bench") {
        cmd_bench(args);
    } else {
        info_string("unknown command '" + clip(cmd) + "'");
    }
    return true;
}

void UciLoop::cmd_uci() {
    const auto& id = engine_identity();
    out_.line("id name " + id.name + " " + id.version);
    out_.line("id author " + id.author);
    for (const auto& l : options_.declarations())
        out_.line(l);
    out_.line("uciok");
}

void UciLoop::cmd_setoption(const std::string& line, const std::vector<std::string>& args) {
    // setoption name <name with spaces> [value <value with spaces>]
    if (args.empty() || args[0] != "name") {
        info_string("setoption needs 'name <option> [value <value>]'");
        return;
    }
    const auto value_at = std::find(args.begin(), args.end(), "value");
    const std::size_t vi = std::size_t(value_at - args.begin());
    const std::string name = join(args, 1, vi);
    if (name.empty()) {
        info_string("setoption: missing option name");
        return;
    }
    std::optional<std::string> value;
    // The value as written: after the command, the arguments up to `value`, and `value`.
    if (value_at != args.end()) value = text_after_tokens(line, vi + 2);
    // Options change between searches: a running search is stopped first (it still sends
    // its bestmove), so resizing the table can never wait on an infinite search.
    if (engine_.searching()) {
        engine_.stop();
        engine_.wait();
    }
    if (auto msg = options_.set(name, value))
        info_string(*msg);
    else if (debug_)
        info_string("set " + name + (value ? " to " + *value : ""));
}

void UciLoop::cmd_position(const std::vector<std::string>& args) {
    if (args.empty()) {
        info_string("position needs 'startpos' or 'fen <FEN>', optionally followed by 'moves ...'");
        return;
    }
    const auto moves_at = std::find(args.begin(), args.end(), "moves");
    const std::size_t mi = std::size_t(moves_at - args.begin());
    std::string fen;
    if (args[0] == "startpos") {
        if (mi != 1) {
            info_string("unexpected '" + clip(args[1]) + "' after startpos; position unchanged");
            return;
        }
        fen = std::string(Position::START_FEN);
    } else if (args[0] == "fen") {
        fen = join(args, 1, mi);
    } else {
        info_string("position needs 'startpos' or 'fen <FEN>', not '" + clip(args[0]) +
                    "'; position unchanged");
        return;
    }
    const std::vector<std::string> moves(
        mi < args.size() ? args.begin() + long(mi) + 1 : args.end(), args.end());
    if (engine_.searching()) {
        engine_.stop();
        engine_.wait();
    }
    if (auto err = engine_.set_position(fen, moves))
        info_string(clip(*err, 200) + "; position unchanged");
}

void UciLoop::cmd_go(const std::vector<std::string>& args) {
    SearchLimits limits;
    std::vector<Move> searchmoves;
    const Position& pos = engine_.position();
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& key = args[i];
        if (key == "infinite") {
            limits.infinite = true;
            continue;
        }
        if (key == "ponder") {
            limits.ponder = true;
            continue;
        }
        if (key == "searchmoves") {
            while (i + 1 < args.size() && !GO_KEYWORDS.count(args[i + 1])) {
                ++i;
                if (auto m = parse_uci_move(pos, args[i]))
                    searchmoves.push_back(*m);
                else
                    info_string("searchmoves: '" + clip(args[i]) +
                                "' is not a legal move; ignored");
            }
            continue;
        }
        if (!GO_KEYWORDS.count(key)) {
            info_string("go: unknown parameter '" + clip(key) + "' ignored");
            continue;
        }
        // Every other keyword takes a number.
        std::optional<long long> v;
        if (i + 1 < args.size() && !GO_KEYWORDS.count(args[i + 1])) v = parse_int(args[++i]);
        if (!v) {
            info_string("go: " + key + " needs a number" +
                        (i < args.size() && args[i] != key ? ", not '" + clip(args[i]) + "'" : "") +
                        "; ignored");
            continue;
        }
        const long long n = *v;
        if (key == "wtime")
            limits.time[WHITE] = n;
        else if (key == "btime")
            limits.time[BLACK] = n;
        else if (key == "winc" || key == "binc") {
            if (n < 0) info_string("go: negative " + key + " treated as 0");
            limits.inc[key == "winc" ? WHITE : BLACK] = std::max(0LL, n);
        } else if (key == "movestogo") {
            if (n <= 0)
                info_string("go: movestogo must be positive; ignored");
            else
                limits.movestogo = int(std::min(n, 1000LL));
        } else if (key == "depth" || key == "mate" || key == "perft") {
            if (n <= 0) info_string("go: " + key + " must be at least 1; using 1");
            const int d = int(std::clamp(n, 1LL, key == "perft" ? 20LL : 200LL));
            (key == "depth" ? limits.depth : key == "mate" ? limits.mate : limits.perft) = d;
        } else if (key == "nodes") {
            if (n <= 0) info_string("go: nodes must be at least 1; using 1");
            limits.nodes = std::uint64_t(std::max(1LL, n));
        } else if (key == "movetime") {
            if (n <= 0) info_string("go: movetime must be at least 1; using 1");
            limits.movetime = std::max(1LL, n);
        }
    }
    for (Color c : {WHITE, BLACK})
        if (limits.time[c] && *limits.time[c] <= 0)
            info_string(std::string(c == WHITE ? "wtime" : "btime") + " is " +
                        std::to_string(*limits.time[c]) + "; moving at once");

    if (limits.perft) {
        cmd_perft({std::to_string(limits.perft)});
        return;
    }
    engine_.stop();
    engine_.wait();
    const Position root = engine_.position();
    std::optional<WdlModel> wdl;
    if (show_wdl_) wdl = engine_.weights().wdl;
    SearchCallbacks cb;
    cb.on_report = [this, root, wdl](const SearchReport& r) {
        out_.line(format_info(r, root, wdl ? &*wdl : nullptr));
    };
    cb.on_note = [this](const std::string& note) { info_string(note); };
    cb.on_bestmove = [this, root](Move best, Move ponder) {
        // No legal move: "(none)", what clients read as no move (not the null move "0000").
        std::string line = "bestmove " + (best ? move_to_uci(root, best) : "(none)");
        if (best && ponder) {
            Position after = root;
            after.make_move(best);
            line += " ponder " + move_to_uci(after, ponder);
        }
        out_.line(line);
    };
    engine_.go(limits, searchmoves, std::move(cb));
}

std::string UciLoop::format_info(const SearchReport& r, const Position& root, const WdlModel* wdl) {
    std::string s = "info";
    if (!r.totals_only) {
        s += " depth " + std::to_string(r.depth);
        if (r.depth > 0) s += " seldepth " + std::to_string(r.seldepth);
        s += " multipv " + std::to_string(r.multipv) + " score " + uci_score(r.score);
        if (r.bound == BOUND_LOWER) s += " lowerbound";
        if (r.bound == BOUND_UPPER) s += " upperbound";
        if (wdl) {
            // With no legal move the result is known: lost when mated, else drawn.
            const bool game_over = count_legal_moves(root) == 0;
            const Wdl w = !game_over        ? wdl_from_score(*wdl, r.score, wdl_material(root))
                          : root.in_check() ? Wdl{0, 0, 1000}
                                            : Wdl{0, 1000, 0};
            s += " wdl " + std::to_string(w.win) + " " + std::to_string(w.draw) + " " +
                 std::to_string(w.loss);
        }
    }
    const std::int64_t ms = std::max<std::int64_t>(r.time_ms, 0);
    // nps from microseconds where known: nodes * 1000 / time at any time, without the jump a
    // division by whole milliseconds makes between `time 0` and `time 1`.
    const std::int64_t us = r.time_us > 0 ? r.time_us : ms * 1000;
    s += " nodes " + std::to_string(r.nodes);
    s += " nps " +
         std::to_string(r.nodes * 1'000'000 / std::uint64_t(std::max<std::int64_t>(us, 1)));
    s += " hashfull " + std::to_string(r.hashfull);
    if (r.tbhits) s += " tbhits " + std::to_string(*r.tbhits);
    s += " time " + std::to_string(ms);
    if (!r.pv.empty()) {
        s += " pv";
        Position p = root;
        for (Move m : r.pv) {
            s += ' '; // not `" " + ...`: GCC 12 warns falsely on that (-Wrestrict, PR105329)
            s += move_to_uci(p, m);
            p.make_move(m);
        }
    }
    return s;
}

void UciLoop::cmd_perft(const std::vector<std::string>& args) {
    const int depth = std::stoi(args.at(0));
    const auto start = std::chrono::steady_clock::now();
    const auto divide = engine_.perft_divide(depth);
    const Position& pos = engine_.position();
    std::uint64_t total = 0;
    for (const auto& [m, n] : divide) {
        out_.line(move_to_uci(pos, m) + ": " + std::to_string(n));
        total += n;
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out_.line("");
    out_.line("Nodes searched: " + std::to_string(total));
    info_string("perft " + std::to_string(depth) + ": " +
                std::to_string(std::int64_t(secs * 1000)) + " ms, " +
                std::to_string(std::uint64_t(double(total) / std::max(secs, 1e-9))) + " nps");
}

void UciLoop::cmd_bench(const std::vector<std::string>& args) {
    int depth = BENCH_DEFAULT_DEPTH;
    if (!args.empty()) {
        const auto v = parse_int(args[0]);
        if (!v || *v < 1 || *v > 64) {
            info_string("bench takes a depth from 1 to 64; using " + std::to_string(depth));
        } else {
            depth = int(*v);
        }
    }
    engine_.stop();
    engine_.wait();
    std::ostringstream report;
    run_bench(depth, report, 1, &engine_.weights());
    std::istringstream lines(report.str());
    for (std::string l; std::getline(lines, l);)
        out_.line(l);
}

} // namespace horizon
