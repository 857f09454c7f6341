// The win/draw/loss model's fit: eval/wdl's WdlModel, its eight coefficients chosen to make the
// game results likeliest given each position's evaluation and material.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "eval/wdl.hpp"
#include "train/pool.hpp"

namespace horizon {

// Evaluation (white's view), material and result of one position.
struct WdlPoint {
    int score;
    int material;
    int result_halves;
};
struct WdlFitReport {
    double mean_log_likelihood = 0;
    std::size_t groups = 0; // distinct (material, score) pairs
    int iterations = 0;
};
// Maximises the log-likelihood of the results (Fisher scoring); nullopt when the data cannot
// determine the model (no wins, no draws or no losses).
std::optional<WdlModel> fit_wdl(const std::vector<WdlPoint>& points, WorkerPool& pool,
                                WdlFitReport* report = nullptr);

} // namespace horizon
