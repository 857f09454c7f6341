// `horizon tune`: the command line of train/tune (its options; the report it prints is
// cli/tune_printer).
#pragma once

#include <iosfwd>

namespace horizon {

int tune_main(int argc, const char* const* argv);
// The same with the output streams given (results on `out`, progress and errors on `err`).
int run_tune(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

} // namespace horizon
