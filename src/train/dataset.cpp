#include "train/dataset.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <utility>

#include "eval/wdl.hpp"
#include "train/data_line.hpp"

namespace horizon {

void DataSet::add(Sample s, const Coefficient* coefs) {
    const std::size_t n = s.coefficient_count();
    if ((next_ & (CHUNK_SIZE - 1)) + n > CHUNK_SIZE)
        next_ = ((next_ >> CHUNK_SHIFT) + 1) << CHUNK_SHIFT;
    if (next_ + n >= (std::uint64_t(1) << 32))
        throw std::length_error("more than 2^32 coefficients: too much data (use --max-positions)");
    const std::size_t chunk = std::size_t(next_ >> CHUNK_SHIFT);
    while (chunks_.size() <= chunk)
        chunks_.push_back(std::make_unique_for_overwrite<Coefficient[]>(CHUNK_SIZE));
    std::copy(coefs, coefs + n, chunks_[chunk].get() + (next_ & (CHUNK_SIZE - 1)));
    s.first = std::uint32_t(next_);
    next_ += n;
    used_ += n;
    samples_.push_back(s);
}

DataSet DataSet::reordered(std::span<const std::uint32_t> order) const {
    DataSet out;
    out.reserve(order.size());
    for (std::uint32_t i : order)
        out.add(samples_[i], coefficients(samples_[i]));
    return out;
}

std::size_t DataSet::bytes() const {
    return samples_.capacity() * sizeof(Sample) + chunks_.size() * CHUNK_SIZE * sizeof(Coefficient);
}

bool make_sample(const Position& pos, int score, int result_halves, Sample& sample,
                 std::vector<Coefficient>& coefs) {
    if (pos.has_insufficient_material()) return false;
    const EvalTrace t = trace_evaluation(pos);
    coefs.clear();
    const auto push = [&](int index, int count) {
        if (count < std::numeric_limits<std::int16_t>::min() ||
            count > std::numeric_limits<std::int16_t>::max())
            throw std::range_error("feature count out of range");
        coefs.push_back({std::int16_t(index), std::int16_t(count)});
    };
    for (int i = 0; i < WEIGHT_COUNT; ++i)
        if (FEATURE_KINDS[i] == TermKind::LINEAR)
            if (const int d = t.counts[WHITE][i] - t.counts[BLACK][i]) push(i, d);
    sample = Sample{};
    sample.linear = std::uint16_t(coefs.size());
    for (Color c : {WHITE, BLACK}) {
        const std::size_t before = coefs.size();
        for (int i = 0; i < WEIGHT_COUNT; ++i)
            if (FEATURE_KINDS[i] == TermKind::KING_DANGER && t.counts[c][i])
                push(i, t.counts[c][i]);
        sample.danger[c] = std::uint8_t(coefs.size() - before);
    }
    const std::size_t before = coefs.size();
    for (int i = 0; i < WEIGHT_COUNT; ++i)
        if (FEATURE_KINDS[i] == TermKind::COMPLEXITY && t.counts[WHITE][i])
            push(i, t.counts[WHITE][i]);
    sample.complexity = std::uint8_t(coefs.size() - before);
    sample.phase = std::uint8_t(t.phase);
    sample.scale[WHITE] = std::uint8_t(t.scale[WHITE]);
    sample.scale[BLACK] = std::uint8_t(t.scale[BLACK]);
    sample.result = std::uint8_t(result_halves);
    sample.score = std::int16_t(std::clamp(score, -32767, 32767));
    sample.material = std::uint8_t(std::min(wdl_material(pos), 255));
    return true;
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

std::optional<std::string> load_data(const LoadOptions& options, WorkerPool& pool, DataSet& data,
                                     LoadReport& report, const LoadCallbacks& callbacks) {
    const auto start = Clock::now();
    struct Local {
        DataLine line;
        std::vector<Coefficient> scratch;
        std::vector<Sample> samples;
        std::vector<Coefficient> coefs;
        std::vector<std::pair<std::uint64_t, std::string>> errors;
        std::uint64_t dead = 0;
    };
    std::vector<Local> locals(std::size_t(pool.size()));
    constexpr std::size_t BLOCK = std::size_t(1) << 15;
    std::vector<std::string> block;
    block.reserve(BLOCK);
    bool limit_reached = false;
    LoadProgress progress;
    for (const std::string& file : options.files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(file, ec);
        if (!ec) progress.total_bytes += size;
    }

    for (const std::string& file : options.files) {
        if (limit_reached) break;
        std::ifstream in(file, std::ios::binary);
        if (!in) return "cannot open data file '" + file + "'";
        progress.file = file;
        std::uint64_t line_no = 0;
        std::string line;
        for (bool eof = false; !eof && !limit_reached;) {
            block.clear();
            const std::uint64_t base = line_no + 1;
            while (block.size() < BLOCK) {
                if (!std::getline(in, line)) {
                    eof = true;
                    break;
                }
                ++line_no;
                progress.bytes += line.size() + 1;
                if (line_kind(line) != LineKind::POSITION) {
                    block.emplace_back(); // keeps the numbering; empty means "skip"
                    continue;
                }
                block.push_back(std::move(line));
                ++report.data_lines;
                if (options.max_positions && report.data_lines >= options.max_positions) {
                    limit_reached = true;
                    break;
                }
            }
            if (in.bad()) return "error reading '" + file + "'";
            report.lines += block.size();

            pool.run_slices(block.size(), [&](int t, std::size_t begin, std::size_t end) {
                Local& l = locals[std::size_t(t)];
                l.samples.clear();
                l.coefs.clear();
                l.errors.clear();
                for (std::size_t i = begin; i < end; ++i) {
                    if (block[i].empty()) continue;
                    if (auto err = read_data_line(block[i], l.line)) {
                        l.errors.emplace_back(base + i, std::move(*err));
                        continue;
                    }
                    Sample s{};
                    if (!make_sample(l.line.pos, l.line.score, l.line.result_halves, s,
                                     l.scratch)) {
                        ++l.dead;
                        continue;
                    }
                    l.samples.push_back(s);
                    l.coefs.insert(l.coefs.end(), l.scratch.begin(), l.scratch.end());
                }
            });

            for (Local& l : locals) {
                for (const auto& [at, why] : l.errors) {
                    const std::string where = file + ":" + std::to_string(at);
                    if (!options.skip_bad) return where + ": " + why;
                    ++report.malformed;
                    if (callbacks.on_skipped) callbacks.on_skipped(where, why);
                }
                const Coefficient* c = l.coefs.data();
                for (const Sample& s : l.samples) {
                    data.add(s, c);
                    c += s.coefficient_count();
                    ++report.results[s.result];
                }
                report.dead_draws += std::exchange(l.dead, 0);
            }
            if (callbacks.on_progress) {
                progress.lines = line_no;
                progress.positions = data.size();
                progress.elapsed = seconds_since(start);
                callbacks.on_progress(progress);
            }
        }
    }
    for (Local& l : locals) {
        std::vector<Sample>().swap(l.samples);
        std::vector<Coefficient>().swap(l.coefs);
    }
    report.seconds = seconds_since(start);
    return std::nullopt;
}

} // namespace horizon
