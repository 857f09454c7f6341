// Iterative deepening, aspiration windows, PVS alpha-beta and quiescence search.
// The searcher reports through callbacks; it never prints.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/position.hpp"
#include "search/history.hpp"
#include "search/timeman.hpp"
#include "search/tt.hpp"

namespace horizon {

struct SearchReport {
    int depth = 0;
    int seldepth = 0;
    int multipv = 1;
    Score score = 0;
    Bound bound = BOUND_EXACT; // lower/upper when an aspiration window failed
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    int hashfull = 0;
    std::vector<Move> pv;
};

struct SearchResult {
    Move best = Move::none();
    Move ponder = Move::none();
    Score score = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
};

// Shared with the thread that drives the search (UCI): stop and ponder flags.
struct SearchSignals {
    std::atomic<bool> stop{false};
    std::atomic<bool> pondering{false};
};

class Searcher {
public:
    Searcher(TranspositionTable& tt, SearchSignals& signals);

    // Searches `root` within the limits. `root_moves` restricts the root (searchmoves).
    SearchResult run(const Position& root, const SearchLimits& limits, TimeManager& time,
                     const std::vector<Move>& root_moves,
                     const std::function<void(const SearchReport&)>& report);

    void clear() { history_.clear(); }
    std::uint64_t nodes() const { return nodes_; }

private:
    struct Frame {
        Score static_eval = SCORE_NONE;
        Move move = Move::none();
    };

    Score search(Position& pos, Score alpha, Score beta, Depth depth, int ply, bool cut_node);
    Score qsearch(Position& pos, Score alpha, Score beta, int ply);
    Score aspiration(Position& pos, Score previous, Depth depth);

    // Each pruning rule and reduction is a named helper.
    bool should_stop();
    std::optional<Score> draw_or_horizon(const Position& pos, int ply) const;
    static std::optional<Score> tt_cutoff(const TTData& tt, Depth depth, Score alpha, Score beta);
    static bool reverse_futility(Depth depth, Score eval, Score beta);
    std::optional<Score> null_move(Position& pos, Score eval, Score beta, Depth depth, int ply,
                                   bool cut_node);
    static bool late_move_prune(Depth depth, int quiets_seen);
    static int lmr_reduction(Depth depth, int move_count, bool pv_node, bool cut_node);
    void update_quiet_stats(const Position& pos, Move best, const Move* quiets, int quiet_count,
                            Depth depth, int ply);
    void update_pv(int ply, Move m);
    std::vector<Move> root_pv() const;

    TranspositionTable& tt_;
    SearchSignals& signals_;
    History history_;
    const SearchLimits* limits_ = nullptr;
    TimeManager* time_ = nullptr;
    const std::vector<Move>* root_moves_ = nullptr;

    std::uint64_t nodes_ = 0;
    int seldepth_ = 0;
    bool stopped_ = false;
    int root_depth_ = 0;
    Frame stack_[MAX_PLY + 4];
    Move pv_[MAX_PLY + 2][MAX_PLY + 2];
    int pv_length_[MAX_PLY + 2]{};
};

// Converts a score to UCI ("cp N" or "mate N").
std::string uci_score(Score s);

} // namespace horizon
