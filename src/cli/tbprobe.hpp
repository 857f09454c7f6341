// `horizon tbprobe`: the Syzygy tables' verdict on positions given or drawn at random (the
// probe-agreement check, scripts/ci/tb_agreement.py, compares it with other readers).
#pragma once

#include <string>

#include "eval/tablebases.hpp" // tb_result_text

namespace horizon {

int tbprobe_main(int argc, const char* const* argv);

} // namespace horizon
