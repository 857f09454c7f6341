// The logistic function and its logarithm, computed without overflow for any argument: the
// loss of the evaluation tuner and the likelihood of the WDL fit both stand on them.
#pragma once

#include <cmath>

namespace horizon {

inline double sigmoid(double z) {
    if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
    const double e = std::exp(z);
    return e / (1.0 + e);
}

inline double log_sigmoid(double z) {
    return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z));
}

} // namespace horizon
