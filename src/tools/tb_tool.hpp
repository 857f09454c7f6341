// `horizon tbprobe`: the Syzygy tables' verdict on positions given or drawn at random (the
// probe-agreement check, scripts/tb_agreement.py, compares it with other readers).
#pragma once

#include <string>

#include "eval/tablebases.hpp"

namespace horizon {

// "win, DTZ 17", "draw, DTZ 0", "loss" (no DTZ table).
std::string tb_result_text(const TbProbe& probe);

int tbprobe_main(int argc, const char* const* argv);

} // namespace horizon
