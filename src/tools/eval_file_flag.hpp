// The command line's `--eval-file FILE` (also `--eval-file=FILE`): the weights file for the UCI
// loop and for the subcommands that evaluate (eval, bench); and flags like it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "eval/params.hpp"

namespace horizon {

inline constexpr const char* EVAL_FILE_FLAG = "--eval-file";

// Takes the flag and its file out of `args`, setting `file`. Returns an error message when the
// flag has no file or is given twice (then `args` and `file` are as they were).
std::optional<std::string> take_eval_file_flag(std::vector<std::string>& args,
                                               std::optional<std::string>& file);

// The same for any flag with a value (`--flag VALUE` or `--flag=VALUE`); `what` names the value
// in the message ("a file name", "a folder").
std::optional<std::string> take_value_flag(std::vector<std::string>& args, const std::string& flag,
                                           const std::string& what,
                                           std::optional<std::string>& value_out);

// The position words left in `args` (after the other flags were taken), joined into `fen`:
// written bare or after `--fen` (`--fen FEN`, quoted or not, or `--fen=FEN`), as `perft` and
// `analyze` take it. Returns an error message for any other word that starts with "--" (no
// FEN field does): an option the subcommand does not know.
std::optional<std::string> take_fen_words(std::vector<std::string>& args, std::string& fen);

// The weights a subcommand evaluates with: those of `file`, or the built-in ones without one.
// Returns an error message (naming the file and the key) when the file cannot be loaded.
std::optional<std::string> weights_for(const std::optional<std::string>& file, EvalWeights& out);

} // namespace horizon
