// `horizon bench [depth [threads]] [--eval-file FILE]`: the command-line front end of the
// bench (src/engine/bench.*).
#pragma once

namespace horizon {

int bench_main(int argc, const char* const* argv);

} // namespace horizon
