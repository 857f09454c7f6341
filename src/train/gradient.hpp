// The tuner's model: the evaluation of a sample in floating point from a weight vector, the
// loss (the squared error between the predicted and the target result) and its gradient, and
// the sigmoid's scale K.
#pragma once

#include <span>
#include <vector>

#include "eval/evaluate.hpp"
#include "eval/params.hpp"
#include "train/dataset.hpp"
#include "train/pool.hpp"

namespace horizon {

// All weights as one vector: mg of weight i at 2i, eg at 2i + 1.
constexpr int PARAM_COUNT = 2 * WEIGHT_COUNT;
using Weights = std::vector<double>;
Weights weights_of(const EvalParams& params);
EvalParams rounded(const Weights& w);

// The evaluation of a sample, white's view, as evaluate_trace computes it but without integer
// rounding.
double evaluate_sample(const DataSet& data, const Sample& s, const double* w);
// Exactly evaluate_trace() of the traced position (rebuilds the trace in `scratch`, which must
// be all zero, and leaves it so).
int evaluate_sample_exact(const DataSet& data, const Sample& s, const EvalParams& params,
                          EvalTrace& scratch);

struct Objective {
    double k = 1.0;      // p = 1 / (1 + exp(-k · eval / 400))
    double lambda = 1.0; // target = lambda · result + (1 - lambda) · sigmoid(k · score / 400)
};
double win_probability(double eval, double k);
double target_of(const Sample& s, const Objective& objective);

// The mean loss over the samples `indices`.
double mean_loss(const DataSet& data, std::span<const std::uint32_t> indices, const double* w,
                 const Objective& objective, WorkerPool& pool);
// The mean loss and its gradient (PARAM_COUNT values written to `grad`).
double loss_gradient(const DataSet& data, std::span<const std::uint32_t> indices, const double* w,
                     const Objective& objective, WorkerPool& pool, double* grad);
// The K that minimises the mean squared error against the game results (golden section).
double fit_k(const DataSet& data, std::span<const std::uint32_t> indices, const double* w,
             WorkerPool& pool);

} // namespace horizon
