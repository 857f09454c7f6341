// The tuner's optimiser.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace horizon {

// Adam (beta1 0.9, beta2 0.999).
class Adam {
public:
    Adam(std::size_t n, double lr) : lr_(lr), m_(n, 0.0), v_(n, 0.0) {}
    void step(double* w, const double* grad);

private:
    double lr_;
    std::vector<double> m_, v_;
    std::uint64_t t_ = 0;
};

} // namespace horizon
