// Opening books for matches: the openings datagen's games start from (train/datagen), each
// only once, one a line as the first four FEN fields (EPD, as match runners read it). A book
// of many openings keeps a long match at fixed nodes from playing the same games again. The
// front end is `horizon datagen --openings` (cli/datagen).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "train/datagen.hpp"

namespace horizon {

// The first `count` distinct openings of `options.seed`, each as the first four fields of its
// FEN, in order: opening g is the position datagen's game g starts from (the same seed,
// balance nodes, imbalance bound and weights), one that repeats an earlier one left out. Made
// by options.threads engines; the list does not depend on their number. `on_progress` is told
// how many have been found after each batch. Options about games (out, games, nodes) are not
// used.
std::vector<std::string>
balanced_openings(const DatagenOptions& options, std::uint64_t count,
                  const std::function<void(std::uint64_t)>& on_progress = {});

// balanced_openings written to options.out, one a line, once all of them are found (nothing is
// left half made). Returns how many were written; throws std::runtime_error when the file
// cannot be written.
std::size_t write_opening_book(const DatagenOptions& options, std::uint64_t count,
                               const std::function<void(std::uint64_t)>& on_progress = {});

} // namespace horizon
