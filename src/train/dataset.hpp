// The tuner's data: each position of the data files traced once into a sample and its sparse
// feature counts, read in parallel.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.hpp"
#include "eval/evaluate.hpp"
#include "train/pool.hpp"

namespace horizon {

// One feature of a sample: its flat weight index and its count (for LINEAR features white's
// count minus black's, for KING_DANGER features the attacking colour's count, for COMPLEXITY
// features the count, which belongs to neither side).
struct Coefficient {
    std::int16_t index;
    std::int16_t count;
};

struct Sample {
    std::uint32_t first;           // its first coefficient in the DataSet's store
    std::uint16_t linear;          // linear coefficients, then white's and black's
    std::uint8_t danger[COLOR_NB]; // KING_DANGER counts (white's attack first)
    std::uint8_t phase;            // 0..PHASE_MAX
    std::uint8_t scale[COLOR_NB];  // endgame scale when white / black is the stronger side
    std::uint8_t result;           // white's points in halves: 0 (loss), 1 (draw), 2 (win)
    std::int16_t score;            // search score, centipawns, white's view (clamped)
    std::uint8_t material;         // the WDL model's measure: wdl_material(), at most 255
    std::uint8_t complexity;       // COMPLEXITY counts, after the KING_DANGER ones

    // Its coefficients: linear, white's danger, black's danger, complexity.
    std::size_t coefficient_count() const {
        return std::size_t(linear) + danger[WHITE] + danger[BLACK] + complexity;
    }
};
static_assert(sizeof(Sample) == 16);

// Samples and their coefficients. Coefficients live in fixed-size chunks so that growing the
// store never copies what is already there.
class DataSet {
public:
    static constexpr int CHUNK_SHIFT = 20;
    static constexpr std::size_t CHUNK_SIZE = std::size_t(1) << CHUNK_SHIFT;

    // Appends a sample whose coefficients are coefs[0 .. s.coefficient_count()); sets its
    // `first`. Throws std::length_error past 2^32 coefficients.
    void add(Sample s, const Coefficient* coefs);
    const Coefficient* coefficients(const Sample& s) const {
        return chunks_[s.first >> CHUNK_SHIFT].get() + (s.first & (CHUNK_SIZE - 1));
    }
    const std::vector<Sample>& samples() const { return samples_; }
    std::size_t size() const { return samples_.size(); }
    std::size_t coefficient_count() const { return used_; }
    std::size_t bytes() const; // memory held by the samples and coefficients
    void reserve(std::size_t samples) { samples_.reserve(samples); }
    // A copy holding the samples order[0], order[1], ... in that order.
    DataSet reordered(std::span<const std::uint32_t> order) const;

private:
    std::vector<Sample> samples_;
    std::vector<std::unique_ptr<Coefficient[]>> chunks_;
    std::uint64_t next_ = 0; // global index of the next free coefficient
    std::size_t used_ = 0;
};

// Traces `pos` into a sample and its coefficients (replacing `coefs`); false for a dead draw.
bool make_sample(const Position& pos, int score, int result_halves, Sample& sample,
                 std::vector<Coefficient>& coefs);

struct LoadOptions {
    std::vector<std::string> files;
    std::uint64_t max_positions = 0; // data lines read at most (0: all)
    bool skip_bad = false;           // warn about malformed lines and go on (else stop)
};

struct LoadReport {
    std::uint64_t lines = 0;      // all lines read, comments and blanks included
    std::uint64_t data_lines = 0; // lines holding a position
    std::uint64_t dead_draws = 0; // skipped: insufficient material
    std::uint64_t malformed = 0;  // skipped with skip_bad
    std::uint64_t results[3]{};   // losses, draws, wins (white's view) among the samples
    double seconds = 0;
};

// Where reading stands: bytes of all the files, and lines and samples so far.
struct LoadProgress {
    std::string_view file; // the file being read
    std::uint64_t bytes = 0, total_bytes = 0;
    std::uint64_t lines = 0; // of this file
    std::uint64_t positions = 0;
    double elapsed = 0;
};

struct LoadCallbacks {
    std::function<void(const LoadProgress&)> on_progress; // after each block of lines
    // A malformed line skipped (skip_bad): "file:line", what is wrong.
    std::function<void(const std::string& where, const std::string& why)> on_skipped;
};

// Reads and traces the files in parallel (data_line's format). Returns an error ("file:line:
// why") on an unreadable file, or on the first malformed line unless skip_bad.
std::optional<std::string> load_data(const LoadOptions& options, WorkerPool& pool, DataSet& data,
                                     LoadReport& report, const LoadCallbacks& callbacks = {});

} // namespace horizon
