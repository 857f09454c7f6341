// horizon tune end to end (tools/tune_tool over train/tune): the written engine.json, the
// weights unchanged without epochs, and malformed data lines reported with file and line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "engine/config.hpp"
#include "eval/params.hpp"
#include "eval/wdl.hpp"
#include "tools/tune_tool.hpp"

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

} // namespace

TEST_CASE("tune: horizon tune writes an engine.json that loads, with a WDL model", "[tune]") {
    TempFile out_file("out.json");
    std::string out, err;
    const int code = tune_with({"--data", FIXTURE, "--out", out_file.path, "--epochs", "3",
                                "--batch", "64", "--threads", "2", "--seed", "3"},
                               out, err);
    INFO(out << err);
    REQUIRE(code == 0);
    CHECK(out.find("K = ") != std::string::npos);
    CHECK(out.find("epoch 3/3") != std::string::npos);
    CHECK(out.find("W/D/L per mille") != std::string::npos);

    const std::string text = read_text_file(out_file.path);
    const auto config = nlohmann::json::parse(text);
    EvalParams params;
    const auto load_err = EvalParams::from_json(config.at("eval"), params);
    INFO(load_err.value_or(""));
    CHECK_FALSE(load_err);
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
    EvalParams params;
    REQUIRE_FALSE(EvalParams::from_json(nlohmann::json::parse(text).at("eval"), params));
    CHECK(params.to_json() == default_eval_params().to_json());

    // A start file without an "engine" section gets the built-in identity.
    TempFile start("start.json", "{\"eval\": " + default_eval_params().to_json().dump() + "}");
    REQUIRE(tune_with({"--data", FIXTURE, "--out", out_file.path, "--epochs", "0", "--no-wdl",
                       "--k=1.5", "--start", start.path, "--threads", "1"},
                      out, err) == 0);
    CHECK(nlohmann::json::parse(read_text_file(out_file.path)).at("engine") ==
          builtin_config().at("engine"));
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
}
