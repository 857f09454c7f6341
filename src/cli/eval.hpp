// `horizon eval [--eval-file FILE] [--syzygy-path PATH] [[--fen] FEN]`: the static evaluation,
// term by term.
#pragma once

namespace horizon {

int eval_main(int argc, const char* const* argv);

} // namespace horizon
