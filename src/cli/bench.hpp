// `horizon bench [--depth N] [--threads N] [--eval-file FILE] [--syzygy-path PATH]` (also
// `horizon bench [DEPTH [THREADS]]`): the command-line front end of the bench
// (src/engine/bench.*).
#pragma once

namespace horizon {

int bench_main(int argc, const char* const* argv);

} // namespace horizon
