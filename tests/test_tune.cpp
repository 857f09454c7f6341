// horizon tune end to end (cli/tune over train/tune): the written engine.json, the
// weights unchanged without epochs, and malformed data lines reported with file and line.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/tune.hpp"
#include "engine/config.hpp"
#include "eval/engine_file.hpp"
#include "eval/evaluate.hpp"
#include "eval/params.hpp"
#include "eval/wdl.hpp"
#include "movegen/movegen.hpp"
#include "train/data_line.hpp"

#include "train_support.hpp"

using namespace horizon;
using namespace horizon::test;

namespace {

// Runs `horizon tune` in-process.
int tune_with(std::vector<std::string> args, std::string& out, std::string& err) {
    args.insert(args.begin(), "tune");
    std::vector<const char*> argv;
    for (const auto& a : args)
        argv.push_back(a.c_str());
    std::ostringstream o, e;
    const int code = run_tune(int(argv.size()), argv.data(), o, e);
    out = o.str();
    err = e.str();
    return code;
}

// The lines of a config's "eval" section, from its opening line to its closing brace.
std::vector<std::string> eval_lines(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> lines;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line == "  \"eval\": {") inside = true;
        if (inside) lines.push_back(line);
        if (inside && (line == "  }" || line == "  },")) break;
    }
    return lines;
}

// Positions over the whole material range the WDL model covers (17 to 78; up to 30 of each
// material), from random games that prefer captures, each with a result drawn from a plain
// model (a 150 cp edge wins half the time, spread 80) at its built-in evaluation: data on which
// the WDL fit is determined everywhere. (The fixture is not: it has no positions of 20 to 30
// or 50 to 65, and the cubic fitted to it goes below 0 there.)
std::string data_over_all_material() {
    std::uint64_t state = 20240611;
    const auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 33;
    };
    WdlModel plain;
    plain.a = {0, 0, 0, 150};
    plain.b = {0, 0, 0, 80};
    std::array<int, 80> taken{};
    std::string data;
    for (int game = 0; game < 300; ++game) {
        Position pos = position_from(std::string(Position::START_FEN));
        for (int ply = 0; ply < 400 && !pos.has_insufficient_material(); ++ply) {
            MoveList list;
            generate<GenType::ALL>(pos, list);
            if (list.empty()) break;
            std::vector<Move> captures;
            for (Move m : list)
                if (pos.is_capture(m)) captures.push_back(m);
            pos.make_move(!captures.empty() && next() % 2 ? captures[next() % captures.size()]
                                                          : list[next() % list.size()]);
            const int material = std::min(wdl_material(pos), 79);
            if (material < WdlModel::MATERIAL_MIN || taken[std::size_t(material)] >= 30) continue;
            ++taken[std::size_t(material)];
            const int white = pos.side_to_move() == WHITE ? evaluate(pos) : -evaluate(pos);
            const WdlProbabilities p = plain.probabilities(white, material);
            const double u = double(next() % 1000000) / 1e6;
            append_data_line(data, pos.fen(), white, u < p.win ? 2 : u < p.win + p.loss ? 0 : 1);
        }
    }
    for (int m = WdlModel::MATERIAL_MIN; m <= WdlModel::MATERIAL_MAX; ++m)
        REQUIRE(taken[std::size_t(m)] >= 10);
    return data;
}

} // namespace

TEST_CASE("tune: horizon tune writes an engine.json that loads, with a WDL model", "[tune]") {
    TempFile data_file("all_material.txt", data_over_all_material());
    TempFile out_file("out.json");
    std::string out, err;
    const int code = tune_with({"--data", data_file.path, "--out", out_file.path, "--epochs", "3",
                                "--batch", "64", "--threads", "2", "--seed", "3"},
                               out, err);
    INFO(out << err);
    REQUIRE(code == 0);
    CHECK(out.find("K = ") != std::string::npos);
    CHECK(out.find("epoch 3/3") != std::string::npos);
    CHECK(out.find("W/D/L per mille") != std::string::npos);

    // The engine's own loader (EvalFile's) takes it.
    EvalWeights loaded;
    const auto load_err = EvalWeights::load(out_file.path, loaded);
    INFO(load_err.value_or(""));
    REQUIRE_FALSE(load_err);
    CHECK_FALSE(std::filesystem::exists(out_file.path + ".tmp"));
    const std::string text = read_text_file(out_file.path);
    const auto config = nlohmann::json::parse(text);
    const EvalParams& params = loaded.params;
    CHECK(config.at("engine") == builtin_config().at("engine"));
    CHECK(params.to_json() != default_eval_params().to_json()); // it tuned something

    // The WDL model: four floats each, win chances rising and loss chances falling with
    // the score.
    REQUIRE(config.contains("wdl"));
    const auto& wdl = config.at("wdl");
    WdlModel model;
    for (int i = 0; i < 4; ++i) {
        REQUIRE(wdl.at("a").at(std::size_t(i)).is_number_float());
        REQUIRE(wdl.at("b").at(std::size_t(i)).is_number_float());
        model.a[std::size_t(i)] = wdl.at("a").at(std::size_t(i)).get<double>();
        model.b[std::size_t(i)] = wdl.at("b").at(std::size_t(i)).get<double>();
    }
    CHECK(wdl.at("a").size() == 4);
    CHECK(wdl.at("b").size() == 4);
    for (int m : {20, 30, 58, 78}) {
        INFO("material " << m);
        const WdlProbabilities first = model.probabilities(-1000, m);
        WdlProbabilities last = first;
        for (int s = -950; s <= 1000; s += 50) {
            const WdlProbabilities p = model.probabilities(s, m);
            CHECK(p.win >= last.win);
            CHECK(p.loss <= last.loss);
            CHECK(p.draw >= -1e-12);
            last = p;
        }
        CHECK(last.win > first.win + 0.5);
        CHECK(last.loss < first.loss - 0.5);
        const WdlProbabilities even = model.probabilities(0, m);
        CHECK(even.win == Approx(even.loss));
    }
}

TEST_CASE("tune: with no epochs the weights come back as engine.json has them", "[tune]") {
    TempFile out_file("same.json");
    std::string out, err;
    REQUIRE(tune_with({"--data", FIXTURE, "--out", out_file.path, "--epochs", "0", "--no-wdl",
                       "--k", "1.5", "--threads", "1"},
                      out, err) == 0);
    CHECK(out.find("K = 1.5000 (given)") != std::string::npos);
    const std::string text = read_text_file(out_file.path);
    // Formatted as engine.json is: one term per line, long tables eight pairs a line.
    const auto written = eval_lines(text);
    CHECK(written.size() > 100);
    CHECK(written == eval_lines(read_text_file(std::string(HORIZON_SOURCE_DIR) + "/engine.json")));
    EvalWeights loaded;
    REQUIRE_FALSE(EvalWeights::load(out_file.path, loaded));
    CHECK(loaded.params.to_json() == default_eval_params().to_json());
    CHECK(loaded.wdl.to_json() == default_wdl_model().to_json()); // the start's, copied

    // A start file without an "engine" section gets the built-in identity.
    TempFile start("start.json", "{\"eval\": " + default_eval_params().to_json().dump() + "}");
    REQUIRE(tune_with({"--data", FIXTURE, "--out", out_file.path, "--epochs", "0", "--no-wdl",
                       "--k=1.5", "--start", start.path, "--threads", "1"},
                      out, err) == 0);
    CHECK(nlohmann::json::parse(read_text_file(out_file.path)).at("engine") ==
          builtin_config().at("engine"));
}

TEST_CASE("tune: --only fits the terms named and keeps every other weight", "[tune]") {
    TempFile out_file("only.json");
    std::string out, err;
    REQUIRE(tune_with({"--data", FIXTURE, "--out", out_file.path, "--epochs", "3", "--no-wdl",
                       "--threads", "1", "--only", "tempo,material"},
                      out, err) == 0);
    EvalWeights loaded;
    REQUIRE_FALSE(EvalWeights::load(out_file.path, loaded));
    const auto& before = default_eval_params().weights;
    const auto& after = loaded.params.weights;
    int changed_inside = 0, changed_outside = 0;
    for (int t = 0; t < TERM_COUNT; ++t) {
        const bool named = Term(t) == Term::tempo || Term(t) == Term::material;
        for (int i = TERM_OFFSETS[t]; i < TERM_OFFSETS[t + 1]; ++i) {
            const bool differs = after[std::size_t(i)].mg != before[std::size_t(i)].mg ||
                                 after[std::size_t(i)].eg != before[std::size_t(i)].eg;
            (named ? changed_inside : changed_outside) += differs;
        }
    }
    CHECK(changed_inside > 0);
    CHECK(changed_outside == 0);

    // A name that is no term is refused, nothing written.
    TempFile none("none.json");
    CHECK(tune_with({"--data", FIXTURE, "--out", none.path, "--epochs", "1", "--only", "tempi"},
                    out, err) != 0);
    CHECK(err.find("--only: no term 'tempi'") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(none.path));
}

TEST_CASE("tune: --l2 holds the weights nearer their start, the more the stronger", "[tune]") {
    // How far the fitted weights end from the built-in ones: the sum of |change| over them.
    const auto distance = [](const std::string& l2) {
        TempFile out_file("l2.json");
        std::string out, err;
        REQUIRE(tune_with({"--data", FIXTURE, "--out", out_file.path, "--epochs", "5", "--no-wdl",
                           "--threads", "1", "--lr", "5", "--l2", l2},
                          out, err) == 0);
        EvalWeights loaded;
        REQUIRE_FALSE(EvalWeights::load(out_file.path, loaded));
        const auto& before = default_eval_params().weights;
        const auto& after = loaded.params.weights;
        long total = 0;
        for (std::size_t i = 0; i < before.size(); ++i)
            total += std::abs(after[i].mg - before[i].mg) + std::abs(after[i].eg - before[i].eg);
        return total;
    };
    const long free_fit = distance("0"), pulled = distance("0.001"), held = distance("1");
    CHECK(free_fit > 0);
    CHECK(pulled < free_fit);
    CHECK(held < pulled);

    std::string out, err;
    TempFile none("l2-none.json");
    CHECK(tune_with({"--data", FIXTURE, "--out", none.path, "--l2", "-1"}, out, err) != 0);
    CHECK(err.find("--l2: out of range (at least 0): '-1'") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(none.path));
}

TEST_CASE("tune: malformed data lines are reported with file and line", "[tune]") {
    const std::string good = "8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 950 | 1.0\n";
    const std::string draw = "8/8/4k3/8/8/3QK3/8/8 b - - 0 1 | 0 | 0.5\n";
    const std::string loss = "8/8/4k3/8/8/3qK3/8/8 w - - 0 1 | -950 | 0.0\n";
    TempFile data("bad.txt", "# header\n" + good + "8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | x | 1.0\n" +
                                 draw + "\n" + "not a fen | 3 | 0.5\n" + loss + good + loss);
    TempFile out_file("bad_out.json");
    std::string out, err;
    CHECK(tune_with({"--data", data.path, "--out", out_file.path, "--epochs", "1"}, out, err) == 2);
    CHECK(err.find(data.path + ":3: score 'x'") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out_file.path));

    REQUIRE(tune_with({"--data", data.path, "--out", out_file.path, "--epochs", "1", "--skip-bad",
                       "--holdout", "0"},
                      out, err) == 0);
    CHECK(err.find(data.path + ":3:") != std::string::npos);
    CHECK(err.find(data.path + ":6: bad FEN") != std::string::npos);
    CHECK(out.find("Loaded 5 positions from 7 data lines") != std::string::npos);
    CHECK(out.find("2 malformed lines") != std::string::npos);

    // Bad arguments and missing files: a message and a non-zero exit.
    CHECK(tune_with({"--data", data.path + ".missing", "--out", out_file.path}, out, err) == 2);
    CHECK(err.find("cannot open data file") != std::string::npos);
    CHECK(tune_with({"--data", data.path}, out, err) == 2);
    CHECK(err.find("--out") != std::string::npos);
    CHECK(tune_with({"--data", data.path, "--out", out_file.path, "--lambda", "2"}, out, err) == 2);
    CHECK(tune_with({"--data", data.path, "--out", out_file.path, "--epochs", "x"}, out, err) == 2);
    TempFile bad_start("bad_start.json", "{\"eval\": {\"material\": [[1, 2]]}}");
    CHECK(tune_with({"--data", data.path, "--out", out_file.path, "--start", bad_start.path}, out,
                    err) == 2);
    CHECK(err.find(bad_start.path) != std::string::npos);

    // --out naming a data file (here by another spelling of its path) is refused, the data kept.
    const std::string before = read_text_file(data.path);
    const auto dir = std::filesystem::path(data.path).parent_path();
    const std::string other_spelling =
        (dir / "." / std::filesystem::path(data.path).filename()).string();
    CHECK(tune_with({"--data", data.path, "--out", other_spelling, "--skip-bad"}, out, err) == 2);
    CHECK(err.find("would be overwritten") != std::string::npos);
    CHECK(read_text_file(data.path) == before);
}

namespace {

// engine.json's text with `edit` applied to its parsed form, written out again.
std::string builtin_with(const std::function<void(nlohmann::ordered_json&)>& edit) {
    nlohmann::ordered_json j = builtin_config_ordered();
    edit(j);
    return j.dump(2);
}

// `text` inserted right after the first occurrence of `after` in engine.json's text.
std::string builtin_text_with(const std::string& after, const std::string& text) {
    std::string s = read_text_file(std::string(HORIZON_SOURCE_DIR) + "/engine.json");
    const auto at = s.find(after);
    REQUIRE(at != std::string::npos);
    return s.insert(at + after.size(), text);
}

// Runs tune with `args` plus --out; it must fail naming every one of `names`, and leave the
// output as it was: `before` (empty: no file).
void check_refused_run(std::vector<std::string> args, const std::string& out_path,
                       const std::string& before, const std::vector<std::string>& names) {
    args.push_back("--out");
    args.push_back(out_path);
    std::string out, err;
    const int code = tune_with(args, out, err);
    INFO(out << err);
    CHECK(code == 2);
    for (const auto& name : names)
        CHECK(err.find(name) != std::string::npos);
    CHECK(err.find("\n") == err.size() - 1); // one line
    if (before.empty())
        CHECK_FALSE(std::filesystem::exists(out_path));
    else
        CHECK(read_text_file(out_path) == before);
    CHECK_FALSE(std::filesystem::exists(out_path + ".tmp"));
}

} // namespace

TEST_CASE("tune: a start file the engine would refuse is refused before any work, naming the key",
          "[tune]") {
    const std::vector<std::pair<std::string, std::string>> starts = {
        {builtin_with([](auto& j) { j["eval"]["space"][0][0] = EvalWeights::LINEAR_LIMIT + 1; }),
         "\"space\""},
        {builtin_with(
             [](auto& j) { j["eval"]["safe_check"][1][1] = -EvalWeights::KING_DANGER_LIMIT - 1; }),
         "\"safe_check\""},
        {builtin_with([](auto& j) { j["eval"]["tempo"][0][0] = 4294967296LL; }), "\"tempo\""},
        {builtin_with([](auto& j) {
             j["tuning"] = {{"lr", 0.5}};
         }),
         "\"tuning\""},
        {builtin_with([](auto& j) {
             j["wdl"]["b"] = {0, 0, -100, 100};
         }),
         "\"b\""},
        {builtin_with([](auto& j) { j["wdl"]["a"][3] = 1e308; }), "\"a\"[3]"},
        {builtin_with([](auto& j) { j["engine"].erase("name"); }), "\"name\""},
        {builtin_text_with("\"eval\": {", "\n    \"tempo\": [[1, 2]],"), "duplicate key \"tempo\""},
        {builtin_text_with("\"engine\": {", "\"version\": \"9\", "), "duplicate key \"version\""},
        {builtin_text_with("\"wdl\": {\"a\": [", "1e400, "), "\"wdl\".\"a\"[0]"},
        {builtin_text_with("{", "\n  \"wdl\": {\"a\": [0, 0, 0, 150], \"b\": [0, 0, 0, 80]},"),
         "duplicate key \"wdl\" at the top level"},
    };
    const std::string before = "the previous output\n";
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const auto& [text, key] = starts[i];
        INFO("start " << i << ", naming " << key);
        TempFile start("start_" + std::to_string(i) + ".json", text);
        // The engine itself refuses it, naming the same key.
        EvalWeights w;
        const auto load_err = EvalWeights::load(start.path, w);
        if (key != "\"name\"") { // the identity is read when built in, not from EvalFile
            REQUIRE(load_err);
            CHECK(load_err->find(key) != std::string::npos);
        }
        // An output that exists is left as it was; one that does not is not made.
        TempFile existing("kept_" + std::to_string(i) + ".json", before);
        TempFile absent("absent_" + std::to_string(i) + ".json");
        for (const TempFile* out_file : {&existing, &absent}) {
            const std::string previous = out_file == &existing ? before : "";
            check_refused_run(
                {"--data", FIXTURE, "--start", start.path, "--epochs", "1", "--threads", "1"},
                out_file->path, previous, {start.path, key});
        }
        // Refused at the start: no data was read.
        std::string out, err;
        REQUIRE(tune_with({"--data", FIXTURE, "--start", start.path, "--out", absent.path}, out,
                          err) == 2);
        CHECK(out.find("Loading") == std::string::npos);
    }
}

TEST_CASE("tune: on low-material data it never writes a file the engine refuses", "[tune]") {
    // Five positions of 5 to 6 points of material and eighteen of 18 to 21, results spread
    // evenly: the cubic WDL fit has little to hold it and bends far out of bounds at higher
    // material (where it has no data), which the engine would refuse.
    std::string data;
    for (const auto& [fen, result] : std::vector<std::pair<std::string, std::string>>{
             {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "1.0"},
             {"r3k3/8/8/8/8/8/8/4K3 w - - 0 1", "0.0"},
             {"4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", "0.5"},
             {"4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1", "1.0"},
             {"4k3/3pp3/8/8/8/8/8/4K3 w - - 0 1", "0.0"}})
        data += fen + " | 0 | " + result + "\n";
    for (const auto& [fen, results] : std::vector<std::pair<std::string, std::string>>{
             {"r3k3/pppp4/8/8/8/8/PPPP4/R3K2R w - - 0 1", "1.0 0.5 0.0 0.5"},
             {"r3k2r/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1", "0.0 0.5 1.0 0.5"},
             {"r3k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1", "0.5 1.0 0.0"},
             {"r3k3/pppp4/8/8/8/8/PPPPP3/R3K3 w - - 0 1", "1.0 0.5 0.0"},
             {"r3k3/ppppp3/8/8/8/8/PPPP4/R3K3 w - - 0 1", "0.0 0.5 1.0"}}) {
        std::istringstream in(results);
        for (std::string r; in >> r;)
            data += fen + " | 0 | " + r + "\n";
    }
    TempFile data_file("low_material.txt", data);
    TempFile out_file("low_out.json", "the previous output\n");
    const std::vector<std::string> args = {"--data", data_file.path, "--epochs", "0",         "--k",
                                           "1",      "--holdout",    "0",        "--threads", "1",
                                           "--out",  out_file.path};
    std::string out, err;
    const int code = tune_with(args, out, err);
    INFO(out << err);
    // Whatever it does, a file it writes is one the engine loads ...
    EvalWeights loaded;
    if (code == 0) CHECK_FALSE(EvalWeights::load(out_file.path, loaded));
    // ... and this data is the case it refuses: the fit is out of the engine's bounds.
    REQUIRE(code == 2);
    CHECK(err.find("WDL model") != std::string::npos);
    CHECK(err.find("\"wdl\": \"") != std::string::npos);
    CHECK(err.find("--no-wdl") != std::string::npos);
    CHECK(read_text_file(out_file.path) == "the previous output\n");
    CHECK_FALSE(std::filesystem::exists(out_file.path + ".tmp"));

    // Without the fit, the start's model goes out with the tuned weights, and loads.
    auto no_wdl = args;
    no_wdl.push_back("--no-wdl");
    REQUIRE(tune_with(no_wdl, out, err) == 0);
    const auto load_err = EvalWeights::load(out_file.path, loaded);
    INFO(load_err.value_or(""));
    REQUIRE_FALSE(load_err);
    CHECK(loaded.wdl.to_json() == default_wdl_model().to_json());
}

TEST_CASE("tune: training that leaves the engine's bounds is an error, nothing written", "[tune]") {
    // Adam's first steps are about --lr each: 1e9 takes every weight in use far out of bounds.
    TempFile out_file("diverged.json", "the previous output\n");
    check_refused_run(
        {"--data", FIXTURE, "--epochs", "2", "--lr", "1e9", "--threads", "1", "--no-wdl"},
        out_file.path, "the previous output\n", {"the training took term \"", "--lr"});
}

TEST_CASE("tune: malformed numbers in the data are refused with file and line", "[tune]") {
    const std::string good = "8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 950 | 1.0\n";
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 99999999999999999999 | 1.0", ": score"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | +-5 | 1.0", ": score '+-5'"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 5 | 1.0.0", ": result '1.0.0'"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 99999999999 | 5 | 1.0", ": bad FEN"},
        {"8/8/4k3/8/8/3QK3/8/8 w - - 0 1 extra | 5 | 1.0", ": bad FEN"},
    };
    for (std::size_t i = 0; i < bad.size(); ++i) {
        const auto& [line, why] = bad[i];
        INFO(line);
        TempFile data("numbers_" + std::to_string(i) + ".txt", good + good + line + "\n" + good);
        TempFile out_file("numbers_out.json");
        check_refused_run({"--data", data.path, "--epochs", "1", "--threads", "1"}, out_file.path,
                          "", {data.path + ":3" + why});
    }
}
