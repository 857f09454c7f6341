// EPD (Extended Position Description), as test suites are written: the first four FEN fields,
// then operations, each an opcode, its operands and a semicolon:
//
//     2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";
//
// An operand is a word or a string in double quotes (which may hold spaces and semicolons;
// \" and \\ inside it stand for " and \). The clocks come from the operations hmvc and fmvn
// when present, else from two numbers right after the four fields (a six-field FEN), else
// they are 0 and 1. Moves in operations (bm, am, pm, pv ...) are SAN; `epd_moves` reads them.
#pragma once

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

struct EpdRecord {
    Position pos;
    std::vector<EpdOperation> operations; // in line order

    // The first operation with this opcode, or nullptr.
    const EpdOperation* find(std::string_view opcode) const;
    // The operand of `id`, or "" when the record has none.
    std::string id() const;
};

// Parses one EPD line. On failure returns nullopt and sets `error` to what was wrong
// ("bad FEN: ...", "operation 'bm' has no ';'", ...).
std::optional<EpdRecord> parse_epd(std::string_view line, std::string& error,
                                   bool chess960 = false);

// The moves an operation names (its operands as SAN in `pos`). On failure returns nullopt and
// sets `error`, e.g. "bm 'Nf9': no white knight can move to f9".
std::optional<std::vector<Move>> epd_moves(const Position& pos, const EpdOperation& op,
                                           std::string& error);

} // namespace horizon
