#include "engine/engine.hpp"

#include <random>

#include "core/random.hpp"
#include "eval/evaluate.hpp"
#include "movegen/movegen.hpp"
#include "movegen/perft.hpp"
#include "notation/uci_move.hpp"

namespace horizon {

namespace {

std::uint64_t random_seed() {
    std::random_device device;
    return (std::uint64_t(device()) << 32) ^ device();
}

} // namespace

Engine::Engine() : game_seed_(random_seed()) {}

Engine::~Engine() {
    stop();
    wait();
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    job_cv_.notify_all();
    if (worker_.joinable()) worker_.join();
}

void Engine::worker_loop() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            job_cv_.wait(lock, [&] { return job_.has_value() || quit_; });
            if (!job_) return;
            job = std::move(*job_);
            job_.reset();
        }
        search_thread(std::move(job));
    }
}

std::optional<std::string> Engine::set_position(const std::string& fen,
                                                const std::vector<std::string>& moves) {
    Position next;
    if (auto err = next.set_fen(fen, chess960_)) return "bad FEN: " + err->message;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        auto m = parse_uci_move(next, moves[i]);
        if (!m)
            return "move " + std::to_string(i + 1) + " '" + moves[i].substr(0, 16) +
                   "' is illegal or malformed in " + next.fen();
        next.make_move(*m);
        ++moves_applied_;
    }
    pos_ = std::move(next);
    return std::nullopt;
}

namespace {

// A move that is not legal in the position, for a message: its squares.
std::string move_squares(Move m) { return square_name(m.from()) + square_name(m.to()); }

} // namespace

std::optional<std::string> Engine::set_position(const Position& start,
                                                std::span<const Move> moves) {
    Position next = start;
    next.set_chess960(chess960_ || start.is_chess960());
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (!next.is_legal(moves[i]))
            return "move " + std::to_string(i + 1) + " '" + move_squares(moves[i]) +
                   "' is illegal in " + next.fen();
        next.make_move(moves[i]);
        ++moves_applied_;
    }
    pos_ = std::move(next);
    return std::nullopt;
}

std::optional<std::string> Engine::play(Move m) {
    if (!pos_.is_legal(m)) return "move '" + move_squares(m) + "' is illegal in " + pos_.fen();
    pos_.make_move(m);
    ++moves_applied_;
    return std::nullopt;
}

TbLoad Engine::set_syzygy_path(const std::string& path) {
    stop();
    wait();
    TbLoad load = tablebases_.set_path(path);
    // Table scores in the transposition table belong to the tables that gave them.
    tt_.clear();
    return load;
}

std::vector<Move> Engine::prepare_tables(const std::vector<Move>& searchmoves) {
    search_tables_ = SearchTables{};
    if (!tablebases_.enabled()) return searchmoves;
    search_tables_.tables = &tablebases_;
    search_tables_.cardinality = std::min(tablebases_.largest(), tb_config_.probe_limit);
    search_tables_.probe_depth = tb_config_.probe_depth;
    search_tables_.rule50 = tb_config_.rule50;
    if (!tablebases_.covers(pos_, search_tables_.cardinality)) return searchmoves;
    const auto ranking = tablebases_.rank_root_moves(pos_, tb_config_.rule50, pos_.has_repeated());
    if (!ranking) return searchmoves;
    MoveList legal;
    generate<GenType::ALL>(pos_, legal);
    std::vector<std::pair<Move, const TbRootMove*>> ranked;
    for (const TbRootMove& t : ranking->moves)
        for (Move m : legal)
            if (m.from() == t.from && m.to() == t.to &&
                (m.type() == PROMOTION ? m.promotion_type() : NO_PIECE_TYPE) == t.promotion) {
                if (searchmoves.empty() ||
                    std::find(searchmoves.begin(), searchmoves.end(), m) != searchmoves.end())
                    ranked.emplace_back(m, &t);
                break;
            }
    search_tables_.root_probes = ranking->moves.size(); // one probe for each move ranked
    if (ranked.empty()) return searchmoves;
    int best_rank = ranked[0].second->rank;
    for (const auto& [m, t] : ranked)
        best_rank = std::max(best_rank, t->rank);
    std::vector<Move> kept;
    for (const auto& [m, t] : ranked) {
        if (t->rank != best_rank) continue;
        kept.push_back(m);
        search_tables_.root_scores.emplace_back(m, tb_score(t->wdl, 1, tb_config_.rule50));
    }
    // Ranked by DTZ, the root needs no probes below it: the search only picks among moves
    // that keep the tables' verdict. Ranked by WDL alone, probes still show the way.
    if (ranking->by_dtz) search_tables_.cardinality = 0;
    return kept;
}

void Engine::new_game() {
    stop();
    wait();
    tt_.clear();
    pool_.clear();
    reseed();
}

void Engine::set_strength_seed(std::uint64_t seed) {
    strength_seed_ = seed;
    reseed();
}

StrengthLevel Engine::strength() const {
    if (!strength_override_) return strength_level(elo_);
    StrengthLevel level = *strength_override_;
    level.elo = elo_;
    return level;
}

void Engine::reseed() { game_seed_ = strength_seed_ ? strength_seed_ : random_seed(); }

bool Engine::set_hash(std::size_t mib) {
    stop();
    wait();
    return tt_.resize(mib);
}

void Engine::set_threads(int n) {
    stop();
    wait();
    pool_.set_count(n);
}

void Engine::set_weights(const EvalWeights& weights) {
    stop();
    wait();
    weights_ = weights;
    weights_.params.seal(); // the pawn caches key on the signature
    tt_.clear();
    pool_.clear();
}

void Engine::set_chess960(bool on) {
    chess960_ = on;
    pos_.set_chess960(on || pos_.is_chess960());
}

void Engine::go(const SearchLimits& limits, const std::vector<Move>& searchmoves,
                SearchCallbacks callbacks) {
    stop();
    wait();
    time_.start(limits, pos_.side_to_move(), move_overhead_, pos_.game_ply());
    std::vector<Move> moves = prepare_tables(searchmoves);
    Job job{limits, std::move(moves), std::move(callbacks), std::nullopt};
    if (limit_strength_) {
        job.strength = strength();
        job.limits.nodes = job.limits.nodes ? std::min(job.limits.nodes, job.strength->nodes)
                                            : job.strength->nodes;
    }
    {
        std::lock_guard lock(mutex_);
        searching_ = true;
        signals_.stop = false;
        signals_.pondering = limits.ponder;
        job_ = std::move(job);
    }
    if (!worker_.joinable()) worker_ = std::thread(&Engine::worker_loop, this);
    job_cv_.notify_one();
}

void Engine::search_thread(Job job) {
    const SearchLimits& limits = job.limits;
    const SearchCallbacks& cb = job.callbacks;
    std::vector<SearchReport> lines; // the lines of the last iteration reported
    auto report = [&](const SearchReport& r) {
        if (r.multipv == 1) lines.clear();
        lines.push_back(r);
        if (cb.on_report) cb.on_report(r);
    };
    const int multipv = job.strength ? std::max(multipv_, job.strength->lines) : multipv_;
    SearchResult result = pool_.run(pos_, limits, time_, job.searchmoves, multipv, report,
                                    &weights_.params, search_tables());
    if (job.strength && result.best && !lines.empty()) {
        SearchReport last = choose_limited(lines, *job.strength, cb);
        if (job.strength->nodes < GUARD_NODES && !signals_.stop) {
            std::uint64_t guard_nodes = 0;
            if (auto safer = blunder_guard(last.pv[0], job.searchmoves, &guard_nodes)) {
                if (cb.on_note)
                    cb.on_note("UCI_Elo " + std::to_string(job.strength->elo) + ": " +
                               move_to_uci(pos_, last.pv[0]) +
                               " loses too much (guard: " + uci_score(safer->score) + " for " +
                               move_to_uci(pos_, safer->pv[0]) + "), playing that instead");
                last = *safer;
            }
            result.nodes += guard_nodes;
        }
        result.best = last.pv[0];
        result.ponder = last.pv.size() > 1 ? last.pv[1] : Move::none();
        result.score = last.score;
        result.depth = last.depth;
        result.pv = last.pv;
        // The line played speaks last, as the first line: GUIs and match runners take the
        // last first line for the move's PV and score (the info string before it says which
        // line it was).
        last.multipv = 1;
        // Unless it is the one line searched, as last reported: then it has spoken already.
        result.reported =
            lines.size() == 1 && last.pv == lines[0].pv && last.score == lines[0].score;
        result.lines = {last};
    }
    if (!result.best) {
        // No legal move: mated or stalemate.
        SearchReport r;
        r.score = pos_.in_check() ? -SCORE_MATE : SCORE_DRAW;
        result.lines = {r};
        result.reported = false;
    }
    // The lines the search ends on, once: unless its last report was already them (it ended
    // on a completed iteration), with the nodes and time of the whole search.
    const std::int64_t us = time_.search_elapsed_us();
    const auto totals = [&](SearchReport& r) {
        r.nodes = result.nodes;
        r.time_us = us;
        r.time_ms = us / 1000;
        r.hashfull = tt_.hashfull();
        if (search_tables()) r.tbhits = result.tbhits;
    };
    if (!result.reported) {
        for (SearchReport& r : result.lines) {
            totals(r);
            if (cb.on_report) cb.on_report(r);
        }
    } else if (!lines.empty() && lines.back().nodes < result.nodes) {
        // The search went on after its last report and kept nothing new (stopped in the first
        // move of an iteration, or helper threads still counting): its whole nodes and time, on
        // a line of their own (a report said twice would repeat a line).
        SearchReport r;
        r.totals_only = true;
        totals(r);
        if (cb.on_report) cb.on_report(r);
    }

    // In infinite and ponder searches the bestmove waits for stop (or ponderhit).
    {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] {
            return signals_.stop.load() || (!limits.infinite && !signals_.pondering.load());
        });
    }
    if (cb.on_bestmove) cb.on_bestmove(result.best, result.ponder);
    std::lock_guard lock(mutex_);
    searching_ = false;
    cv_.notify_all();
}

SearchReport Engine::choose_limited(std::vector<SearchReport> lines, const StrengthLevel& level,
                                    const SearchCallbacks& cb) {
    std::stable_sort(lines.begin(), lines.end(), [](const SearchReport& a, const SearchReport& b) {
        return a.score > b.score;
    });
    std::vector<Score> scores;
    for (const SearchReport& r : lines)
        scores.push_back(r.score);
    std::uint64_t state = game_seed_ ^ pos_.key();
    const std::size_t pick = choose_line(scores, level, splitmix64(state));
    const SearchReport& chosen = lines[pick];
    if (pick > 0 && cb.on_note)
        cb.on_note("UCI_Elo " + std::to_string(level.elo) + ": playing line " +
                   std::to_string(chosen.multipv) + " of " + std::to_string(lines.size()) + ", " +
                   uci_score(chosen.score) + " against " + uci_score(lines[0].score) +
                   " for the best");
    return chosen;
}

void Engine::stop() {
    std::lock_guard lock(mutex_);
    if (!searching_) return;
    signals_.stop = true;
    signals_.pondering = false;
    cv_.notify_all();
}

void Engine::ponderhit() {
    std::lock_guard lock(mutex_);
    if (!searching_ || !signals_.pondering) return;
    time_.restart();
    signals_.pondering = false;
    cv_.notify_all();
}

void Engine::wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return !searching_; });
}

bool Engine::searching() const {
    std::lock_guard lock(mutex_);
    return searching_;
}

std::optional<SearchReport> Engine::blunder_guard(Move chosen, const std::vector<Move>& searchmoves,
                                                  std::uint64_t* nodes) {
    SearchLimits limits;
    limits.nodes = GUARD_NODES;
    // A clock of its own: GUARD_NODES, and under a game clock no more than what this move's
    // budget has left (a guard that overran it lost bullet games on time).
    TimeManager clock;
    const auto out_of_time = [&] {
        if (!time_.has_limit() || signals_.pondering) return false; // a ponder: not our clock
        limits.movetime = time_.soft_ms() - time_.elapsed_ms();
        return limits.movetime <= 0;
    };
    const auto search = [&](const std::vector<Move>& moves,
                            const std::function<void(const SearchReport&)>& report) {
        clock.start(limits, pos_.side_to_move(), 0, pos_.game_ply());
        const SearchResult r =
            pool_.run(pos_, limits, clock, moves, 1, report, &weights_.params, search_tables());
        if (nodes) *nodes += r.nodes;
        return r;
    };
    SearchReport best_line;
    if (out_of_time()) return std::nullopt;
    const SearchResult best = search(searchmoves, [&](const SearchReport& r) {
        if (r.multipv == 1) best_line = r;
    });
    if (!best.best || best.best == chosen || signals_.stop || out_of_time()) return std::nullopt;
    const SearchResult mine = search({chosen}, [](const SearchReport&) {});
    if (!mine.best || signals_.stop || !guard_refuses(best.score, mine.score)) return std::nullopt;
    best_line.pv = best.pv.empty() ? std::vector<Move>{best.best} : best.pv;
    best_line.score = best.score;
    best_line.bound = BOUND_EXACT;
    best_line.depth = std::max(best_line.depth, best.depth);
    best_line.seldepth = std::max(best_line.seldepth, best_line.depth);
    best_line.multipv = 1;
    return best_line;
}

SearchResult Engine::search_sync(const SearchLimits& limits,
                                 const std::function<void(const SearchReport&)>& report) {
    stop();
    wait();
    signals_.stop = false;
    signals_.pondering = false;
    time_.start(limits, pos_.side_to_move(), move_overhead_, pos_.game_ply());
    const std::vector<Move> moves = prepare_tables({});
    return pool_.run(pos_, limits, time_, moves, multipv_, report, &weights_.params,
                     search_tables());
}

std::string Engine::eval_trace() const { return format_trace(pos_, weights_.params); }

std::vector<std::pair<Move, std::uint64_t>> Engine::perft_divide(int depth) {
    stop();
    wait();
    Position pos = pos_;
    return horizon::perft_divide(pos, depth);
}

} // namespace horizon
