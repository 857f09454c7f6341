#include "search/tunable.hpp"

namespace horizon {

namespace {

std::vector<Tunable>& registry() {
    static std::vector<Tunable> all;
    return all;
}

} // namespace

bool register_tunable(const char* name, int* value, int min, int max) {
    registry().push_back({name, value, min, max});
    return true;
}

const std::vector<Tunable>& tunables() { return registry(); }

} // namespace horizon
