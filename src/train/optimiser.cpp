#include "train/optimiser.hpp"

#include <cmath>

namespace horizon {

void Adam::step(double* w, const double* grad) {
    constexpr double BETA1 = 0.9, BETA2 = 0.999, EPSILON = 1e-8;
    ++t_;
    const double c1 = 1.0 - std::pow(BETA1, double(t_));
    const double c2 = 1.0 - std::pow(BETA2, double(t_));
    for (std::size_t i = 0; i < m_.size(); ++i) {
        m_[i] = BETA1 * m_[i] + (1 - BETA1) * grad[i];
        v_[i] = BETA2 * v_[i] + (1 - BETA2) * grad[i] * grad[i];
        w[i] -= lr_ * (m_[i] / c1) / (std::sqrt(v_[i] / c2) + EPSILON);
    }
}

} // namespace horizon
