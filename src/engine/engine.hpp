// The engine facade: position, options, transposition table and the search thread.
// It reports through callbacks and never prints.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/position.hpp"
#include "eval/params.hpp"
#include "eval/tablebases.hpp"
#include "eval/wdl.hpp"
#include "search/search.hpp"
#include "search/strength.hpp"
#include "search/threads.hpp"
#include "search/timeman.hpp"
#include "search/tt.hpp"

namespace horizon {

struct SearchCallbacks {
    std::function<void(const SearchReport&)> on_report;
    std::function<void(Move best, Move ponder)> on_bestmove;
    std::function<void(const std::string&)> on_note; // a remark for the user (UCI: info string)
};

class Engine {
public:
    static constexpr int DEFAULT_HASH_MIB = 16;
    static constexpr int MAX_HASH_MIB = 16384;
    static constexpr int DEFAULT_MOVE_OVERHEAD = 30;
    static constexpr int DEFAULT_ELO = 2000; // UCI_Elo until set

    Engine();
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Position as text (the UCI loop): set whole or not at all. Returns an error message on
    // failure.
    std::optional<std::string> set_position(const std::string& fen,
                                            const std::vector<std::string>& moves);
    // Position as a position (the tools): a start position and typed moves played from it,
    // set whole or not at all. The history the position already holds counts for repetitions.
    std::optional<std::string> set_position(const Position& start,
                                            std::span<const Move> moves = {});
    // Plays one more move on the current position (a tool walking a game calls this at each
    // ply: linear in the game's length). Refused, the position unchanged, when not legal.
    std::optional<std::string> play(Move m);
    const Position& position() const { return pos_; }
    // Moves made on the positions set by set_position and play since the engine was made: what
    // handing it a game cost (tests check that walking a game is linear in its length).
    std::uint64_t moves_applied() const { return moves_applied_; }

    void new_game();
    // Returns false (and keeps the old table) if the memory cannot be had.
    bool set_hash(std::size_t mib);
    void clear_hash() { tt_.clear(); }
    std::size_t hash_mib() const { return tt_.size_mib(); }
    void set_threads(int n);
    int threads() const { return pool_.count(); }
    void set_multipv(int n) { multipv_ = n; }
    void set_move_overhead(int ms) { move_overhead_ = ms; }
    int move_overhead() const { return move_overhead_; }
    void set_chess960(bool on);
    bool chess960() const { return chess960_; }

    // The evaluation weights and WDL model that searches and `eval` use (at first the
    // built-in ones). Setting them stops a running search first and clears the table and
    // the histories, which were filled with the old evaluation's scores.
    void set_weights(const EvalWeights& weights);
    const EvalWeights& weights() const { return weights_; }

    // The static evaluation of the position, term by term (the UCI command `eval`).
    std::string eval_trace() const;
    // The leaf count under each legal move of the position at `depth` (`go perft`); a search
    // that runs is stopped first.
    std::vector<std::pair<Move, std::uint64_t>> perft_divide(int depth);

    // Syzygy tablebases: the folders (empty: none), set while no search runs; the report
    // names what was found and what was refused.
    TbLoad set_syzygy_path(const std::string& path);
    const Tablebases& tablebases() const { return tablebases_; }
    // How the search uses them (SyzygyProbeDepth, SyzygyProbeLimit, Syzygy50MoveRule).
    void set_tb_probe_depth(int depth) { tb_config_.probe_depth = depth; }
    void set_tb_probe_limit(int pieces) { tb_config_.probe_limit = pieces; }
    void set_tb_rule50(bool on) { tb_config_.rule50 = on; }
    const TbConfig& tb_config() const { return tb_config_; }

    // Play at a chosen strength (UCI_LimitStrength, UCI_Elo): `go` searches within the level's
    // node budget and plays one of its best few lines (search/strength.hpp). Off by default;
    // the tools' searches (search_sync) always play at full strength.
    void set_limit_strength(bool on) { limit_strength_ = on; }
    bool limit_strength() const { return limit_strength_; }
    void set_elo(int elo) { elo_ = std::clamp(elo, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX); }
    int elo() const { return elo_; }
    // A level to play instead of the table's for UCI_Elo (horizon --strength-override ROW;
    // nullopt: the table's). For calibration: scripts/match/calibrate_elo.sh -R tries a row
    // without a rebuild.
    void set_strength_override(const std::optional<StrengthLevel>& level) {
        strength_override_ = level;
    }
    // The level a limited `go` plays now.
    StrengthLevel strength() const;
    // The limited choices draw from this seed and the position: the same seed, the same moves
    // in the same game. 0: a new random seed at every new game.
    void set_strength_seed(std::uint64_t seed);

    // Starts a search on its own thread; returns at once. Exactly one on_bestmove follows.
    void go(const SearchLimits& limits, const std::vector<Move>& searchmoves,
            SearchCallbacks callbacks);
    void stop();      // ignored when idle
    void ponderhit(); // ignored when idle or not pondering
    void wait();      // until the current search (if any) has sent its bestmove
    bool searching() const;

    // The guard of a weak level (search/strength.hpp): searches the position with GUARD_NODES
    // for its best move and, when that is not `chosen`, `chosen` alone with as many; returns
    // the best move's line when the guard refuses `chosen`, else nothing (also when a stop
    // came or the move's time is spent: under a clock it stays within the budget of the
    // search that called it). `searchmoves` limits the moves as in go. Runs on the calling
    // thread, while no search runs (the search thread calls it after a limited search; tests
    // call it).
    std::optional<SearchReport> blunder_guard(Move chosen, const std::vector<Move>& searchmoves,
                                              std::uint64_t* nodes = nullptr);

    // Runs a search to completion on the calling thread (bench, analysis tools).
    SearchResult search_sync(const SearchLimits& limits,
                             const std::function<void(const SearchReport&)>& report);

    // The main search thread's searcher (tests reach its hooks through it).
    Searcher& main_searcher() { return pool_.main(); }
    TranspositionTable& tt() { return tt_; }

private:
    // Sets search_tables_ up for a search of pos_ and returns the moves to search: when the
    // root is in the tables, those of `searchmoves` (all when empty) that the tables rank
    // best, so that a won ending is converted and a drawn one is held.
    std::vector<Move> prepare_tables(const std::vector<Move>& searchmoves);
    const SearchTables* search_tables() const {
        return tablebases_.enabled() ? &search_tables_ : nullptr;
    }

    Position pos_;
    Tablebases tablebases_;
    TbConfig tb_config_;
    SearchTables search_tables_; // what the running search probes (prepare_tables)
    std::uint64_t moves_applied_ = 0;
    TranspositionTable tt_{DEFAULT_HASH_MIB};
    SearchSignals signals_;
    ThreadPool pool_{tt_, signals_};
    TimeManager time_;
    // The search thread: started by the first go, then waiting for the next one. (A thread per
    // go cost 10-13 ms of every move under Wine, against 0.04 ms on Linux.)
    struct Job {
        SearchLimits limits;
        std::vector<Move> searchmoves;
        SearchCallbacks callbacks;
        std::optional<StrengthLevel> strength; // a limited search's level
    };
    void search_thread(Job job);
    // A limited search's line to play: one of the lines of its last iteration (`lines`, as
    // reported). Says which through on_note when it is not the first.
    SearchReport choose_limited(std::vector<SearchReport> lines, const StrengthLevel& level,
                                const SearchCallbacks& cb);
    void reseed(); // game_seed_ from StrengthSeed, or drawn at random when it is 0
    void worker_loop();
    std::thread worker_;
    std::optional<Job> job_; // the search go handed over, until the worker takes it
    bool quit_ = false;      // the worker ends (destructor)
    std::condition_variable job_cv_;
    mutable std::mutex mutex_;
    std::condition_variable cv_; // searching_ and the pondering / stop signals changed
    bool searching_ = false;
    bool chess960_ = false;
    int multipv_ = 1;
    int move_overhead_ = DEFAULT_MOVE_OVERHEAD;
    bool limit_strength_ = false;
    int elo_ = DEFAULT_ELO;
    std::optional<StrengthLevel> strength_override_;
    std::uint64_t strength_seed_ = 0; // 0: game_seed_ is drawn at random for each game
    std::uint64_t game_seed_ = 0;
    EvalWeights weights_ = builtin_weights(); // changed only while no search runs
};

} // namespace horizon
