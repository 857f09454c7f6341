// The search constants that SPSA may tune: in a build with HORIZON_TUNE, each HORIZON_TUNABLE of
// search/params.hpp registers itself here and the UCI loop offers it as a spin option.
#pragma once

#include <string>
#include <vector>

namespace horizon {

struct Tunable {
    std::string name;
    int* value;
    int min, max;
};

// Records a tunable constant; always true (it initialises a flag beside the constant).
bool register_tunable(const char* name, int* value, int min, int max);

// Every tunable constant registered, in the order of registration.
const std::vector<Tunable>& tunables();

} // namespace horizon
