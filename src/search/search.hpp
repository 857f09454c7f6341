// Iterative deepening, aspiration windows, PVS alpha-beta and quiescence search, for one
// search thread. The searcher reports through callbacks; it never prints. Lazy SMP
// (src/search/threads.*) runs several of them over the one shared transposition table; what
// they share besides it is in src/search/smp.*, the root moves in src/search/root.*.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "eval/evaluate.hpp"
#include "eval/tablebases.hpp"
#include "search/history.hpp"
#include "search/movepick.hpp"
#include "search/root.hpp"
#include "search/smp.hpp"
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
    std::int64_t time_us = 0; // the same time in microseconds (0: not known), for nps
    int hashfull = 0;
    std::optional<std::uint64_t> tbhits; // with tablebases: positions they answered
    std::vector<Move> pv;
    // The search's nodes and time at its end, without a line (depth, score and pv unset): the
    // last line reported stands, and a client keeps its score and moves.
    bool totals_only = false;
};

struct SearchResult {
    Move best = Move::none();
    Move ponder = Move::none();
    Score score = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
    std::uint64_t tbhits = 0;
    std::vector<Move> pv;
    // The lines the search ends on, best first, each at the depth it was completed at (see
    // Searcher::keep_interrupted); `reported`: they were the last report already.
    std::vector<SearchReport> lines;
    bool reported = false;
};

// The tablebases a search uses: probes below the root, and the root's own ranking.
struct SearchTables {
    const Tablebases* tables = nullptr;
    int cardinality = 0; // probe positions of at most this many pieces (0: no probes)
    int probe_depth = 1; // ... with at least this much depth left (fewer pieces: any depth)
    bool rule50 = true;  // a cursed win and a blessed loss score as draws
    // When the tables ranked the root moves: each searched move's table score, shown in the
    // reports instead of any search score that is not a mate.
    std::vector<std::pair<Move, Score>> root_scores;
    std::uint64_t root_probes = 0; // the probes that ranked the root moves (counted as tbhits)
};

// A table verdict as a score at `ply` from the root: wins and losses between evaluations and
// mates, cursed wins and blessed losses one centipawn off a draw (a draw with the fifty-move
// rule), or a win or loss without it.
Score tb_score(TbWdl wdl, int ply, bool rule50);
// The score a report shows for a line starting with `first`: the table's unless the search
// found a mate.
Score shown_score(const SearchTables* tb, Move first, Score searched);

// What every thread of one search shares: limits, clock, output and the thread set.
struct SearchContext {
    const SearchLimits* limits = nullptr;
    TimeManager* time = nullptr;
    const std::vector<Move>* searchmoves = nullptr;
    int multipv = 1;
    std::function<void(const SearchReport&)> report; // main thread only
    std::function<std::uint64_t()> total_nodes;      // all threads
    const EvalParams* eval_params = nullptr;         // nullptr: the built-in weights
    const SearchTables* tables = nullptr;            // nullptr: no tablebases
    std::function<std::uint64_t()> total_tbhits;     // all threads
};

class Searcher {
public:
    Searcher(TranspositionTable& tt, SearchSignals& signals, int thread_id = 0);

    // Searches `root` within the limits; thread 0 reports, manages time and ends helpers.
    SearchResult run(const Position& root, const SearchContext& context);

    void clear() { history_->clear(); }
    std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
    // Zeroed for every thread before any starts, so that sums never count a past search.
    void reset_nodes() {
        nodes_.store(0, std::memory_order_relaxed);
        tbhits_.store(0, std::memory_order_relaxed);
    }
    std::uint64_t tbhits() const { return tbhits_.load(std::memory_order_relaxed); }
    int completed_depth() const { return completed_depth_; }
    Score completed_score() const { return completed_score_; }
    bool is_main() const { return thread_id_ == 0; }

    // Test hook: the singular test of the TT move of `pos` at `depth`, run as at an inner
    // node (ply 1) against `beta`, at a cut node or not, with what it left behind.
    struct SingularProbe {
        bool ran = false; // false: no TT move with a usable lower bound
        int extension = 0;
        std::optional<Score> multi_cut;
        Move excluded_after; // the frame's excluded move afterwards (none expected)
        Score static_eval_before = SCORE_NONE, static_eval_after = SCORE_NONE;
    };
    SingularProbe singular_probe(const Position& pos, Depth depth, Score beta,
                                 bool cut_node = false);
    // Test hook: the butterfly history of `m` (legal in `pos`) after the node it leads to has
    // learned from the static evals `before` (the mover's view) and `after` (the opponent's).
    int eval_change_probe(const Position& pos, Move m, Score before, Score after);

private:
    struct Frame {
        Score static_eval = SCORE_NONE; // corrected; SCORE_NONE in check
        Score raw_eval = SCORE_NONE;    // what evaluate() said (the TT keeps this one)
        Move move = Move::none();
        Move excluded = Move::none();
        Piece piece = NO_PIECE; // the piece `move` moved (NO_PIECE: none or null move)
        PieceToHistory* continuation = nullptr; // table of the move played from this ply
        int double_extensions = 0;
        int cutoffs = 0; // beta cutoffs among this ply's nodes below the parent searched now
        Position::AttackTiers threats; // the squares the side not to move attacks
        bool sacrifice = false; // `move` lost material by SEE (computed where ProbCut may follow)
    };
    // What the move loop needs to decide about one move.
    struct MoveInfo {
        Move move;
        bool quiet;
        bool gives_check;
        bool killer_or_counter;
        int history;
        int move_count;
    };

    // The moves a node searched without a cutoff, for the history maluses.
    struct TriedMoves {
        Move quiets[64], noisies[32];
        int quiet_count = 0, noisy_count = 0;
        void add(Move m, bool quiet) {
            if (quiet && quiet_count < 64)
                quiets[quiet_count++] = m;
            else if (!quiet && noisy_count < 32)
                noisies[noisy_count++] = m;
        }
    };

    // Iterative deepening, one iteration at a time (Lazy SMP: src/search/smp.*).
    void iterate(Position& pos);
    int search_lines(Position& pos, Depth depth);
    bool complete_iteration(int depth, int lines);
    void keep_interrupted(int depth, int lines);
    bool last_iteration(int depth, Move best);
    bool time_to_stop_iterating(Score score, Move best);
    SearchReport line_report(const RootMove& rm, int depth, int multipv) const;
    void report_lines(int depth);
    Score aspiration(Position& pos, Score previous, Depth depth);

    Score search(Position& pos, Score alpha, Score beta, Depth depth, int ply, bool cut_node);
    // checks: also the quiet moves that give check (the first ply below a null move).
    Score qsearch(Position& pos, Score alpha, Score beta, int ply, bool checks = false);

    // The steps of search(): each pruning rule, reduction and extension is a named helper.
    bool should_stop();
    std::optional<Score> draw_or_horizon(const Position& pos, int ply) const;
    static bool mate_distance_prune(Score& alpha, Score& beta, int ply);
    static std::optional<Score> tt_cutoff(const TTData& tt, Depth depth, Score alpha, Score beta);
    std::optional<Score> tablebase_probe(const Position& pos, Score& alpha, Score beta, Depth depth,
                                         int ply, bool pv_node, Score& floor, Score& cap);
    Score node_eval(const Position& pos, int ply, bool in_check, bool tt_hit, const TTData& tt);
    bool improving(int ply) const;
    static bool reverse_futility(Depth depth, Score eval, Score beta, bool improving);
    std::optional<Score> razor(Position& pos, Score eval, Score alpha, Depth depth, int ply);
    std::optional<Score> null_move(Position& pos, Score eval, Score beta, Depth depth, int ply,
                                   bool cut_node);
    std::optional<Score> probcut(Position& pos, Score beta, Depth depth, int ply, bool cut_node,
                                 bool improving, bool tt_hit, const TTData& tt);
    static Depth internal_iterative_reduction(Depth depth, bool has_tt_move, bool pv_node,
                                              bool cut_node);
    // `check_info`: the node's Position::check_info().
    MoveInfo move_info(const Position& pos, Move m, int move_count, const OrderingContext& oc,
                       const Position::CheckInfo& check_info) const;
    bool prune_move(const Position& pos, const MoveInfo& mi, Depth depth, Score static_eval,
                    Score alpha, bool improving, bool pv_node, bool& skip_quiets) const;
    static bool late_move_prune(Depth depth, int move_count, bool improving);
    static bool futility_prune(int lmr_depth, Score static_eval, Score alpha);
    static bool capture_futility(const Position& pos, Move m, Depth depth, Score static_eval,
                                 Score alpha);
    static bool history_prune(int history, Depth depth, int lmr_depth);
    static bool see_prune(const Position& pos, const MoveInfo& mi, Depth depth, int lmr_depth);
    bool singular_candidate(bool tt_hit, const TTData& tt, Depth depth, int ply) const;
    int singular_extension(Position& pos, const TTData& tt, Score beta, Depth depth, int ply,
                           bool cut_node, bool pv_node, std::optional<Score>& multi_cut);
    int check_extension(const MoveInfo& mi, int ply) const;
    int late_move_reduction(const MoveInfo& mi, Depth depth, bool pv_node, bool cut_node,
                            bool improving, bool tt_capture, bool marked, bool refuted_often) const;
    void eval_change_history(const Position& pos, int ply);
    void play(Position& pos, int ply, Move m, int extension, bool sacrifice = false);
    Score search_move(Position& pos, Score alpha, Score beta, Depth new_depth, int reduction,
                      int ply, bool first, bool pv_node, bool cut_node, Score best);
    void store_result(const Position& pos, int ply, Score best, Move best_move, Depth depth,
                      bool pv_node, Score beta);

    // Move ordering and the static eval: what the search learns as it goes.
    void update_histories(const Position& pos, int ply, Move best, Depth depth,
                          const TriedMoves& tried);
    void update_continuation(int ply, Piece pc, Square to, int bonus);
    OrderingContext ordering_context(int ply) const;
    Score raw_static_eval(const Position& pos, bool tt_hit, const TTData& tt);
    static Score refined_by_tt(Score eval, bool tt_hit, const TTData& tt);
    Score corrected(const Position& pos, Score raw_eval) const;
    void update_correction(const Position& pos, const Frame* ss, Score best, Move best_move,
                           Bound bound, Depth depth);
    void update_pv(int ply, Move m);

    void begin(const SearchContext& context); // the state every search starts from
    void count_node() {
        nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }

    TranspositionTable& tt_;
    SearchSignals& signals_;
    SmpThread smp_;
    int thread_id_;
    std::unique_ptr<History> history_;
    std::unique_ptr<PawnCache> pawns_ = std::make_unique<PawnCache>();
    const EvalParams* eval_params_ = &default_eval_params();
    const SearchContext* context_ = nullptr;
    const SearchLimits* limits_ = nullptr;
    TimeManager* time_ = nullptr;

    std::atomic<std::uint64_t> nodes_{0};
    std::atomic<std::uint64_t> tbhits_{0};
    int seldepth_ = 0;
    bool stopped_ = false;
    bool abandoned_ = false;  // stopped_ because another thread completed this depth
    bool full_width_ = false; // go mate: no pruning or reduction, so a mate is exact
    int root_depth_ = 0;
    int nmp_min_ply_ = 0; // null-move verification: no null move before this ply
    int pv_index_ = 0;
    int multipv_ = 1;
    RootMoves root_moves_;

    // Iteration results (the best-thread choice reads them).
    int completed_depth_ = 0;
    Score completed_score_ = -SCORE_INFINITE;
    std::vector<Move> completed_pv_;
    // Main thread: the lines the search ends on; reported unless an iteration was interrupted
    // after completing some of its lines.
    std::vector<SearchReport> final_lines_;
    bool final_reported_ = false;
    Move last_best_ = Move::none();
    int stability_ = 0;
    Score last_score_ = SCORE_NONE;

    static constexpr int STACK_OFFSET = 4; // frames before the root for ply - 4 look-backs
    Frame stack_[MAX_PLY + 8];
    Move pv_[MAX_PLY + 2][MAX_PLY + 2];
    int pv_length_[MAX_PLY + 2]{};
};

// Converts a score to UCI ("cp N" or "mate N").
std::string uci_score(Score s);

// Whether the side not to move threatens mate in one by a queen or rook check from a square
// beside the king (WAC.001: after Qg6, Qh7 mate; WAC.055: after Bf6+ and Rh4, Rh8 mate): a
// threat that no static eval counts and that quiescence without quiet checks does not see. The
// position is left as it was. Not for a side in check.
bool mate_threat_beside_king(Position& pos);

} // namespace horizon
