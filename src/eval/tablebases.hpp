// Syzygy endgame tablebases: a thin layer over Fathom (Debian's source package `fathom` built
// as a static library, or its libfathom-dev; cmake/fathom.cmake). WDL probes for the search, DTZ
// ranking of the root moves, and the result of one position for the tools.
//
// The library keeps its tables process-wide. The Engine owns the one Tablebases object of a
// process and changes its path only while no search runs; probe_wdl may then be called from
// any number of search threads at once, the other probes from one thread only.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "core/types.hpp"

namespace horizon {

// A table's verdict, from the side to move's point of view. A cursed win is a win that the
// fifty-move rule turns into a draw; a blessed loss is a loss that it saves.
enum class TbWdl : int { LOSS = -2, BLESSED_LOSS = -1, DRAW = 0, CURSED_WIN = 1, WIN = 2 };

// Whether this build can read tables (false: built without Fathom, see cmake/fathom.cmake; every
// path then loads nothing and says why).
bool tablebases_built();

// "win", "cursed win", "draw", "blessed loss", "loss".
const char* tb_wdl_name(TbWdl wdl);
// With the fifty-move rule ignored, a cursed win is a win and a blessed loss a loss.
TbWdl tb_wdl_without_rule50(TbWdl wdl);

// The folders of a path: separated by ':' on Linux and ';' on Windows (a drive letter's colon
// is part of a Windows folder); empty parts are dropped.
std::vector<std::string> split_tb_path(const std::string& path);

// What setting a path found, for a message.
struct TbLoad {
    int wdl_tables = 0;                // usable .rtbw files (found by the library)
    int dtz_tables = 0;                // usable .rtbz files
    std::vector<int> wdl_by_pieces;    // [n]: usable WDL tables of n pieces
    int largest = 0;                   // pieces of the largest usable table (0: none)
    std::vector<std::string> problems; // folders that are not there, files refused, ...

    // "found 35 WDL and 35 DTZ tables: 5 of 3 pieces, 30 of 4 pieces" or "no tables found".
    std::string summary() const;
};

// The table result of a position: WDL, and DTZ (plies to the next capture or pawn move with
// best play, signed: positive when the side to move wins, 0 for a draw) where a DTZ table
// holds the position.
struct TbProbe {
    TbWdl wdl = TbWdl::DRAW;
    std::optional<int> dtz;
};

// "win, DTZ 17", "draw, DTZ 0", "loss" (no DTZ table).
std::string tb_result_text(const TbProbe& probe);

// A root move as the tables rank it: higher ranks are better (see rank_root_moves).
struct TbRootMove {
    Square from = A1;
    Square to = A1;
    PieceType promotion = NO_PIECE_TYPE;
    TbWdl wdl = TbWdl::DRAW; // of the position after the move, from the mover's point of view
    int rank = 0;
};

struct TbRanking {
    std::vector<TbRootMove> moves;
    bool by_dtz = true; // false: a DTZ table was missing and the WDL tables ranked them
};

// How a search uses the tables (the UCI options SyzygyProbeDepth, SyzygyProbeLimit and
// Syzygy50MoveRule).
struct TbConfig {
    static constexpr int MAX_PIECES = 7;
    int probe_depth = 1;          // probe below the root from this remaining depth on
    int probe_limit = MAX_PIECES; // probe positions of at most this many pieces
    bool rule50 = true;           // a cursed win is a draw, a blessed loss too
};

class Tablebases {
public:
    Tablebases() = default;
    ~Tablebases();
    Tablebases(const Tablebases&) = delete;
    Tablebases& operator=(const Tablebases&) = delete;

    // Sets the tables' folders (empty: no tables). Never fails: folders that are not there
    // and files that are not tables (truncated, wrong magic) are named in the report and left
    // out, and play goes on with what was found.
    TbLoad set_path(const std::string& path);
    const std::string& path() const { return path_; }
    // Pieces of the largest table (0: no tables).
    int largest() const { return largest_; }
    bool enabled() const { return largest_ > 0; }

    // Whether the tables can hold the position: no more pieces than `limit` and the largest
    // table, and no castling rights.
    bool covers(const Position& pos, int limit = 7) const;

    // The WDL table's verdict; needs the fifty-move counter at 0 (the tables know nothing of
    // the moves before). nullopt when the tables do not hold the position. Thread safe.
    std::optional<TbWdl> probe_wdl(const Position& pos) const;

    // WDL and DTZ of the position with its fifty-move counter taken into account. For the
    // tools and the root: not to be called by several threads at once.
    std::optional<TbProbe> probe(const Position& pos) const;

    // Every legal root move ranked by the DTZ tables (by WDL when a DTZ table is missing),
    // honouring the fifty-move rule if `rule50`; `repeated`: the game has had a repetition
    // since the last capture or pawn move. The best rank wins fastest or loses slowest. Not to
    // be called by several threads at once.
    std::optional<TbRanking> rank_root_moves(const Position& pos, bool rule50, bool repeated) const;

private:
    // Whether the position's DTZ table was refused (the library, asked for it, would drop the
    // WDL table of the same material too).
    bool dtz_refused(const Position& pos) const;

    std::string path_;
    int largest_ = 0;
    std::set<std::string> refused_dtz_; // "KRvK": DTZ tables that failed the check
};

} // namespace horizon
