#include "eval/tablebases.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#if HORIZON_HAS_FATHOM
#include <tbprobe.h>
#endif

#include "platform/quiet_output.hpp"
#include "platform/system.hpp"

namespace horizon {

namespace {

// Fathom writes to standard output when it loads tables, and to standard error when it unloads
// them (a message for every successful unmapping). UCI output is the engine's alone (one
// writer, whole lines) and the problems are reported by set_path, so while the library loads
// or unloads, both go to the null device (QuietOutput).

// The magic number that opens each kind of table file (little-endian on disk), and the size
// every complete table has modulo 64.
constexpr std::uint32_t WDL_MAGIC = 0x5d23e871;
constexpr std::uint32_t DTZ_MAGIC = 0xa50c66d7;
constexpr std::uintmax_t TABLE_SIZE_MOD_64 = 16;

#if HORIZON_HAS_FATHOM
// "KQvKR": pieces of each side, kings first, as the files are named.
bool is_table_name(const std::string& stem) {
    const auto v = stem.find('v');
    if (v == std::string::npos || stem.size() < 3 || stem[0] != 'K' || v + 1 >= stem.size() ||
        stem[v + 1] != 'K')
        return false;
    for (std::size_t i = 0; i < stem.size(); ++i) {
        if (i == v) continue;
        const char c = stem[i];
        if (c != 'K' && c != 'Q' && c != 'R' && c != 'B' && c != 'N' && c != 'P') return false;
        if (c == 'K' && i != 0 && i != v + 1) return false;
    }
    return true;
}

int pieces_of(const std::string& stem) { return int(stem.size()) - 1; }

// Why a table file cannot be used, or "" when it can: complete tables are 16 bytes past a
// multiple of 64 long and open with their kind's magic number.
std::string table_file_problem(const std::filesystem::path& file, std::uint32_t magic) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (ec) return "cannot be read";
    if (size % 64 != TABLE_SIZE_MOD_64)
        return "is not a complete table (" + std::to_string(size) + " bytes)";
    std::ifstream in(file, std::ios::binary);
    std::array<unsigned char, 4> head{};
    if (!in.read(reinterpret_cast<char*>(head.data()), 4)) return "cannot be read";
    const std::uint32_t read = std::uint32_t(head[0]) | std::uint32_t(head[1]) << 8 |
                               std::uint32_t(head[2]) << 16 | std::uint32_t(head[3]) << 24;
    if (read != magic) return "is not a Syzygy table (wrong magic number)";
    return "";
}

struct FathomPosition {
    std::uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
    unsigned rule50, castling, ep;
    bool white_to_move;
};

FathomPosition fathom_position(const Position& pos) {
    return {pos.pieces(WHITE),
            pos.pieces(BLACK),
            pos.pieces(KING),
            pos.pieces(QUEEN),
            pos.pieces(ROOK),
            pos.pieces(BISHOP),
            pos.pieces(KNIGHT),
            pos.pieces(PAWN),
            unsigned(pos.rule50()),
            unsigned(pos.castling_rights()),
            pos.ep_square() == NO_SQUARE ? 0u : unsigned(pos.ep_square()),
            pos.side_to_move() == WHITE};
}

TbWdl wdl_of(unsigned fathom_wdl) { return TbWdl(int(fathom_wdl) - 2); }

PieceType promotion_of(unsigned fathom_promotes) {
    switch (fathom_promotes) {
    case TB_PROMOTES_QUEEN:
        return QUEEN;
    case TB_PROMOTES_ROOK:
        return ROOK;
    case TB_PROMOTES_BISHOP:
        return BISHOP;
    case TB_PROMOTES_KNIGHT:
        return KNIGHT;
    default:
        return NO_PIECE_TYPE;
    }
}
#endif

} // namespace

bool tablebases_built() { return HORIZON_HAS_FATHOM != 0; }

const char* tb_wdl_name(TbWdl wdl) {
    switch (wdl) {
    case TbWdl::LOSS:
        return "loss";
    case TbWdl::BLESSED_LOSS:
        return "blessed loss";
    case TbWdl::DRAW:
        return "draw";
    case TbWdl::CURSED_WIN:
        return "cursed win";
    case TbWdl::WIN:
        return "win";
    }
    return "?";
}

std::string tb_result_text(const TbProbe& probe) {
    std::string s = tb_wdl_name(probe.wdl);
    if (probe.dtz) s += ", DTZ " + std::to_string(*probe.dtz);
    return s;
}

TbWdl tb_wdl_without_rule50(TbWdl wdl) {
    if (wdl == TbWdl::CURSED_WIN) return TbWdl::WIN;
    if (wdl == TbWdl::BLESSED_LOSS) return TbWdl::LOSS;
    return wdl;
}

std::vector<std::string> split_tb_path(const std::string& path) {
    std::vector<std::string> folders;
    std::string part;
    std::istringstream in(path);
    while (std::getline(in, part, PATH_LIST_SEPARATOR))
        if (!part.empty()) folders.push_back(part);
    return folders;
}

std::string TbLoad::summary() const {
    if (!tablebases_built())
        return "this build has no Syzygy tablebase support (it was built without Fathom)";
    if (wdl_tables == 0) return "no tables found";
    std::string s = "found " + std::to_string(wdl_tables) + " WDL and " +
                    std::to_string(dtz_tables) + " DTZ tables:";
    const char* sep = " ";
    for (std::size_t n = 0; n < wdl_by_pieces.size(); ++n) {
        if (wdl_by_pieces[n] == 0) continue;
        s += sep + std::to_string(wdl_by_pieces[n]) + " of " + std::to_string(n) + " pieces";
        sep = ", ";
    }
    return s;
}

Tablebases::~Tablebases() {
    // Unmaps the tables. (Not tb_free: it leaves the library unable to load tables again,
    // and another Engine of the process may yet set a path.)
#if HORIZON_HAS_FATHOM
    if (!path_.empty()) {
        QuietOutput quiet;
        tb_init("");
    }
#endif
}

TbLoad Tablebases::set_path(const std::string& path) {
    TbLoad load;
#if !HORIZON_HAS_FATHOM
    // Nothing to load with: the summary says so, and play goes on without tables.
    (void)path;
    return load;
#else
    // What the folders hold, the first folder with a name winning (as in the library); the
    // library gets only the folders that are there, a path it can read whole.
    std::map<std::string, bool> wdl_ok, dtz_ok;
    std::string usable;
    for (const auto& folder : split_tb_path(path)) {
        std::error_code ec;
        if (!std::filesystem::is_directory(folder, ec)) {
            load.problems.push_back("'" + folder + "' is not a folder");
            continue;
        }
        if (!usable.empty()) usable += PATH_LIST_SEPARATOR;
        usable += folder;
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
            const auto& file = entry.path();
            const std::string stem = file.stem().string(), ext = file.extension().string();
            const bool wdl = ext == ".rtbw", dtz = ext == ".rtbz";
            if ((!wdl && !dtz) || !is_table_name(stem)) continue;
            auto& seen = wdl ? wdl_ok : dtz_ok;
            if (seen.count(stem)) continue;
            const std::string why = table_file_problem(file, wdl ? WDL_MAGIC : DTZ_MAGIC);
            if (!why.empty()) load.problems.push_back(file.filename().string() + " " + why);
            seen[stem] = why.empty();
        }
        if (ec) load.problems.push_back("'" + folder + "' cannot be read (" + ec.message() + ")");
    }
    for (const auto& [stem, ok] : wdl_ok) {
        if (!ok) continue;
        ++load.wdl_tables;
        const int n = pieces_of(stem);
        if (int(load.wdl_by_pieces.size()) <= n) load.wdl_by_pieces.resize(std::size_t(n) + 1);
        ++load.wdl_by_pieces[std::size_t(n)];
    }
    refused_dtz_.clear();
    for (const auto& [stem, ok] : dtz_ok) {
        load.dtz_tables += ok && wdl_ok.count(stem) && wdl_ok[stem];
        if (!ok) refused_dtz_.insert(stem);
    }

    {
        QuietOutput quiet;
        tb_init(usable.c_str()); // "" unloads the tables a path loaded before
        path_ = usable;
    }
    largest_ = load.wdl_tables > 0 ? int(TB_LARGEST) : 0;
    load.largest = largest_;
    return load;
#endif
}

bool Tablebases::dtz_refused(const Position& pos) const {
    if (refused_dtz_.empty()) return false;
    // The material as the files name it, either side first.
    std::string side[COLOR_NB];
    for (Color c : {WHITE, BLACK})
        for (PieceType pt : {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN})
            side[c].append(std::size_t(pos.count(c, pt)), "?PNBRQK"[pt]);
    return refused_dtz_.count(side[WHITE] + "v" + side[BLACK]) ||
           refused_dtz_.count(side[BLACK] + "v" + side[WHITE]);
}

bool Tablebases::covers(const Position& pos, int limit) const {
    const int pieces = popcount(pos.pieces());
    return largest_ > 0 && pieces <= largest_ && pieces <= limit && pos.castling_rights() == 0;
}

std::optional<TbWdl> Tablebases::probe_wdl(const Position& pos) const {
    if (!covers(pos) || pos.rule50() != 0) return std::nullopt;
#if !HORIZON_HAS_FATHOM
    return std::nullopt;
#else
    const auto p = fathom_position(pos);
    const unsigned r = tb_probe_wdl(p.white, p.black, p.kings, p.queens, p.rooks, p.bishops,
                                    p.knights, p.pawns, 0, 0, p.ep, p.white_to_move);
    if (r == TB_RESULT_FAILED) return std::nullopt;
    return wdl_of(r);
#endif
}

std::optional<TbProbe> Tablebases::probe(const Position& pos) const {
    if (!covers(pos)) return std::nullopt;
    if (dtz_refused(pos)) {
        if (auto wdl = probe_wdl(pos)) return TbProbe{*wdl, std::nullopt};
        return std::nullopt;
    }
#if !HORIZON_HAS_FATHOM
    return std::nullopt;
#else
    const auto p = fathom_position(pos);
    const unsigned r =
        tb_probe_root(p.white, p.black, p.kings, p.queens, p.rooks, p.bishops, p.knights, p.pawns,
                      p.rule50, 0, p.ep, p.white_to_move, nullptr);
    if (r == TB_RESULT_CHECKMATE) return TbProbe{TbWdl::LOSS, 0};
    if (r == TB_RESULT_STALEMATE) return TbProbe{TbWdl::DRAW, 0};
    if (r == TB_RESULT_FAILED) {
        // No DTZ table: the WDL table alone, when the fifty-move counter does not matter.
        if (auto wdl = probe_wdl(pos)) return TbProbe{*wdl, std::nullopt};
        return std::nullopt;
    }
    const TbWdl wdl = wdl_of(TB_GET_WDL(r));
    const int dtz = int(TB_GET_DTZ(r));
    return TbProbe{wdl, int(wdl) > 0 ? dtz : int(wdl) < 0 ? -dtz : 0};
#endif
}

std::optional<TbRanking> Tablebases::rank_root_moves(const Position& pos, bool rule50,
                                                     bool repeated) const {
    if (!covers(pos)) return std::nullopt;
#if !HORIZON_HAS_FATHOM
    (void)rule50;
    (void)repeated;
    return std::nullopt;
#else
    const auto p = fathom_position(pos);
    auto moves = std::make_unique<TbRootMoves>();
    int ok =
        !dtz_refused(pos) && tb_probe_root_dtz(p.white, p.black, p.kings, p.queens, p.rooks,
                                               p.bishops, p.knights, p.pawns, p.rule50, 0, p.ep,
                                               p.white_to_move, repeated, rule50, moves.get());
    TbRanking ranking;
    ranking.by_dtz = ok;
    if (!ok)
        ok = tb_probe_root_wdl(p.white, p.black, p.kings, p.queens, p.rooks, p.bishops, p.knights,
                               p.pawns, p.rule50, 0, p.ep, p.white_to_move, rule50, moves.get());
    if (!ok || moves->size == 0) return std::nullopt;
    for (unsigned i = 0; i < moves->size; ++i) {
        const auto& m = moves->moves[i];
        TbRootMove out;
        out.from = Square(TB_MOVE_FROM(m.move));
        out.to = Square(TB_MOVE_TO(m.move));
        out.promotion = promotion_of(TB_MOVE_PROMOTES(m.move));
        out.rank = m.tbRank;
        // Fathom's ranks: 1000 a sure win, 1..999 a win the fifty-move rule may spoil (a
        // cursed win when it does), 0 a draw, below 0 the same for losses.
        const int bound = rule50 ? 900 : 1;
        out.wdl = m.tbRank >= bound   ? TbWdl::WIN
                  : m.tbRank > 0      ? TbWdl::CURSED_WIN
                  : m.tbRank == 0     ? TbWdl::DRAW
                  : m.tbRank > -bound ? TbWdl::BLESSED_LOSS
                                      : TbWdl::LOSS;
        ranking.moves.push_back(out);
    }
    return ranking;
#endif
}

} // namespace horizon
