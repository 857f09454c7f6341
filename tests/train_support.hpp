// Helpers of the tuner's tests: the fixture's positions (tests/data/tune_fixture.txt) traced
// into a data set, and temporary files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <unistd.h>

#include "core/position.hpp"
#include "train/data_line.hpp"
#include "train/dataset.hpp"

#include "support.hpp"

namespace horizon::test {

inline const std::string FIXTURE = std::string(HORIZON_SOURCE_DIR) + "/tests/data/tune_fixture.txt";

// A file in the temporary directory, removed at the end of the test.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& name, const std::string& text = "") {
        path = (std::filesystem::temp_directory_path() /
                ("horizon_test_tune_" + std::to_string(::getpid()) + "_" + name))
                   .string();
        if (!text.empty()) {
            std::ofstream out(path, std::ios::binary);
            out << text;
        }
    }
    ~TempFile() {
        std::error_code ec;
        std::filesystem::remove(path, ec);
    }
};

// The fixture's positions: the sparse store, and each sample's position.
struct Fixture {
    DataSet data;
    std::vector<Position> positions;
    int dead_draws = 0;
};

inline const Fixture& fixture() {
    static const Fixture f = [] {
        Fixture fx;
        std::istringstream in(read_text_file(FIXTURE));
        std::vector<Coefficient> coefs;
        for (std::string line; std::getline(in, line);) {
            if (line.empty() || line[0] == '#') continue;
            DataLine d;
            const auto err = read_data_line(line, d);
            INFO(line << ": " << err.value_or(""));
            REQUIRE_FALSE(err);
            Sample s{};
            if (!make_sample(d.pos, d.score, d.result_halves, s, coefs)) {
                ++fx.dead_draws;
                continue;
            }
            fx.data.add(s, coefs.data());
            fx.positions.push_back(d.pos);
        }
        return fx;
    }();
    return f;
}

inline std::vector<std::uint32_t> all_indices(const DataSet& data) {
    std::vector<std::uint32_t> v(data.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = std::uint32_t(i);
    return v;
}

inline bool is_scaled(const Sample& s) {
    return s.scale[WHITE] < SCALE_NORMAL && s.scale[BLACK] < SCALE_NORMAL && s.phase < PHASE_MAX;
}

inline bool has_danger(const Sample& s) { return s.danger[WHITE] + s.danger[BLACK] > 0; }

} // namespace horizon::test
