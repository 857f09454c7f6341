// `horizon datagen`: the command line of train/datagen (flags, progress, summary).
#pragma once

#include <cstdint>
#include <string>

#include "train/datagen.hpp"

namespace horizon {

int datagen_main(int argc, const char* const* argv);

// The closing lines, "datagen: <games> games, <positions> positions in ..." and, when this run
// played games, how they went (`nodes`: the node limit a move).
std::string datagen_summary_text(const DatagenSummary& summary, std::uint64_t nodes);

} // namespace horizon
