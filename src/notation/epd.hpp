// EPD (Extended Position Description), as test suites are written: the first four FEN fields,
// then operations, each an opcode, its operands and a semicolon:
//
//     2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";
//
// An operand is a word or a string in double quotes (which may hold spaces and semicolons;
// \" and \\ inside it stand for " and \). The clocks come from the operations hmvc and fmvn
// when present, else from two numbers right after the four fields (a six-field FEN), else
// they are 0 and 1. Moves in operations (bm, am, pm, pv ...) are SAN; `epd_moves` reads them.
//
// Perft suites are EPD too, with a ';' before each operation instead of after it:
//
//     rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902
//
// so one ';' between the position and its first operation is allowed.
//
// This is the one EPD reader: the test suites (`horizon epd`, `horizon analyze FILE.epd`) and
// the perft suites (`horizon perft --suite`) are read here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.hpp"
#include "core/types.hpp"

namespace horizon {

struct EpdOperation {
    std::string opcode;
    std::vector<std::string> operands; // quotes removed

    bool operator==(const EpdOperation&) const = default;
};

// The operations of a line, in line order.
struct EpdOperations {
    std::vector<EpdOperation> operations;

    // The first operation with this opcode, or nullptr.
    const EpdOperation* find(std::string_view opcode) const;
    // The operand of `id`, or "" when the record has none.
    std::string id() const;
};

// A line read, its position not yet set up: the position as a six-field FEN (the four fields
// and the clocks, read as above) and the operations.
struct EpdLine : EpdOperations {
    std::string fen;
};

// A line read and its position set up.
struct EpdRecord : EpdOperations {
    Position pos;
};

// A string operand as an EPD line writes it: in double quotes, `"` and `\` escaped (what
// split_epd reads back as `text`).
std::string epd_string_operand(std::string_view text);

// Reads one EPD line without setting up its position. On failure returns nullopt and sets
// `error` to what was wrong ("operation 'bm' has a string that is never closed", ...).
std::optional<EpdLine> split_epd(std::string_view line, std::string& error);

// Parses one EPD line. On failure returns nullopt and sets `error` to what was wrong
// ("bad FEN: ...", "operation 'bm' has a string that is never closed", ...).
std::optional<EpdRecord> parse_epd(std::string_view line, std::string& error,
                                   bool chess960 = false);

// The moves an operation names (its operands as SAN in `pos`). On failure returns nullopt and
// sets `error`, e.g. "bm 'Nf9': no white knight can move to f9".
std::optional<std::vector<Move>> epd_moves(const Position& pos, const EpdOperation& op,
                                           std::string& error);

// Files. Blank lines and lines whose first non-blank character is '#' are skipped; CRLF line
// ends are read as LF. The readers return nullopt when the file cannot be read or a line is
// bad, with one message per problem in `errors`, each naming the place
// ("wac.epd:12: bad FEN: ...", "cannot open wac.epd").

// A position of an EPD file and the line it is on.
struct EpdEntry {
    std::size_t line = 0;
    EpdRecord record;
    std::string id; // the id operation, else "line N"
};

// Every position of an EPD file, set up; a file without any is refused too ("x.epd holds no
// positions").
std::optional<std::vector<EpdEntry>> read_epd_file(const std::string& path,
                                                   std::vector<std::string>& errors);

// A line of a perft suite: `FEN ;D1 n ;D2 n ...`. The position is not set up (a bad FEN is a
// failure of the suite's run, not of its reading).
struct EpdPerftEntry {
    std::string fen;                   // six fields: a four-field position gets clocks "0 1"
    std::vector<std::uint64_t> counts; // counts[d-1] is the count at depth d
    std::size_t line = 0;              // in its file (0: not read from a file)
};

// Parses one line of a perft suite: its operations must be D1, D2, ... in order, each with one
// count. nullopt + error on failure.
std::optional<EpdPerftEntry> parse_perft_epd_line(std::string_view line, std::string& error);

// Every line of a perft suite file (which may hold none).
std::optional<std::vector<EpdPerftEntry>> read_perft_suite(const std::string& path,
                                                           std::vector<std::string>& errors);

} // namespace horizon
